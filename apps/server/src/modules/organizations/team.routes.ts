import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptedInvitationSchema,
  authResponseSchema,
  createdInvitationSchema,
  createInvitationSchema,
  invitationParamsSchema,
  invitationPreviewSchema,
  invitationSchema,
  invitationTokenParamsSchema,
  memberParamsSchema,
  memberSchema,
  organizationSchema,
  orgIdParamsSchema,
  switchOrganizationSchema,
  updateMemberSchema,
  updateOrganizationSchema,
  userOrganizationSchema,
  verificationLinkSchema,
} from '@crewline/contracts';
import { z } from 'zod';
import { requireOwnOrganization } from '../auth/auth.guard';
import type { AuthService } from '../auth/auth.service';
import type { TeamService } from './team.service';

/**
 * An organization as a team: its members and their roles, invitations, renaming, and the signed-in
 * user's organizations and switching between them (docs/security.md, Roles). `config.role` is each
 * route's minimum role; `membershipOptional` routes also serve a session whose membership ended.
 */
export function teamRoutes(team: TeamService, auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    // Visible to every member: who is in the team is not a secret inside it (but not to API keys).
    app.get(
      '/api/organizations/:orgId/members',
      {
        config: { sessionOnly: true },
        schema: { params: orgIdParamsSchema, response: { 200: z.array(memberSchema) } },
      },
      async (request) => team.members(requireOwnOrganization(request, request.params.orgId)),
    );

    app.put(
      '/api/organizations/:orgId/members/:userId',
      {
        config: { role: 'admin' },
        schema: { params: memberParamsSchema, body: updateMemberSchema, response: { 200: memberSchema } },
      },
      async (request) => {
        requireOwnOrganization(request, request.params.orgId);
        return team.changeRole(request.account, request.params.userId, request.body.role);
      },
    );

    // Any member may leave (their own id); removing someone else needs admin, an owner needs owner.
    app.delete(
      '/api/organizations/:orgId/members/:userId',
      { config: { sessionOnly: true }, schema: { params: memberParamsSchema } },
      async (request, reply) => {
        requireOwnOrganization(request, request.params.orgId);
        await team.removeMember(request.account, request.params.userId);
        return reply.status(204).send();
      },
    );

    // Any member reads their organization (with their role: not for API keys); its plan is the
    // effective one (Free after a trial), as Billing shows it.
    app.get(
      '/api/organizations/:orgId',
      {
        config: { sessionOnly: true },
        schema: { params: orgIdParamsSchema, response: { 200: organizationSchema } },
      },
      async (request) => {
        requireOwnOrganization(request, request.params.orgId);
        return team.organization(request.account);
      },
    );

    app.put(
      '/api/organizations/:orgId',
      {
        config: { role: 'admin' },
        schema: {
          params: orgIdParamsSchema,
          body: updateOrganizationSchema,
          response: { 200: organizationSchema },
        },
      },
      async (request) => {
        requireOwnOrganization(request, request.params.orgId);
        return team.rename(request.account, request.body.name);
      },
    );

    app.post(
      '/api/organizations/:orgId/invitations',
      {
        config: { role: 'admin' },
        schema: {
          params: orgIdParamsSchema,
          body: createInvitationSchema,
          response: { 201: createdInvitationSchema },
        },
      },
      async (request, reply) => {
        requireOwnOrganization(request, request.params.orgId);
        const created = await team.invite(request.account, request.body, (err) =>
          request.log.warn({ err }, 'invitation email not sent'),
        );
        return reply.status(201).send(created);
      },
    );

    app.get(
      '/api/organizations/:orgId/invitations',
      {
        config: { role: 'admin' },
        schema: { params: orgIdParamsSchema, response: { 200: z.array(invitationSchema) } },
      },
      async (request) => team.invitations(requireOwnOrganization(request, request.params.orgId)),
    );

    app.delete(
      '/api/organizations/:orgId/invitations/:id',
      { config: { role: 'admin' }, schema: { params: invitationParamsSchema } },
      async (request, reply) => {
        await team.revokeInvitation(requireOwnOrganization(request, request.params.orgId), request.params.id);
        return reply.status(204).send();
      },
    );

    // No mail transport: the admin passes the invitee's verification link on with the invitation.
    // Session-only, like the rest of the team (a role above member already keeps API keys out).
    app.post(
      '/api/organizations/:orgId/invitations/:id/verification-link',
      {
        config: { role: 'admin' },
        schema: { params: invitationParamsSchema, response: { 200: verificationLinkSchema } },
      },
      async (request) => {
        requireOwnOrganization(request, request.params.orgId);
        return team.verificationLink(request.account, request.params.id);
      },
    );

    // The invitee may not have an account yet: the invitation page reads this before sign-up or sign-in.
    app.get(
      '/api/invitations/:token',
      {
        config: { public: true },
        schema: { params: invitationTokenParamsSchema, response: { 200: invitationPreviewSchema } },
      },
      async (request) => team.preview(request.params.token),
    );

    app.post(
      '/api/invitations/:token/accept',
      {
        config: { membershipOptional: true },
        schema: { params: invitationTokenParamsSchema, response: { 200: acceptedInvitationSchema } },
      },
      async (request) => team.accept(request.account.user, request.params.token),
    );

    app.get(
      '/api/auth/organizations',
      {
        config: { membershipOptional: true },
        schema: { response: { 200: z.array(userOrganizationSchema) } },
      },
      async (request) => auth.organizationsOf(request.auth.userId),
    );

    app.post(
      '/api/auth/switch-organization',
      {
        config: { membershipOptional: true },
        schema: { body: switchOrganizationSchema, response: { 200: authResponseSchema } },
      },
      async (request) => auth.switchOrganization(request.auth.userId, request.body.organizationId),
    );
  };
}
