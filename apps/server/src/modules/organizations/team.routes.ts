import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { requireOwnOrganization } from '../../platform/auth/auth-context';
import type { AuthService } from '../auth/auth.service';
import { requestActor } from '../../platform/request-actor';
import type { TeamService } from './team.service';

const { organizations: api, auth: accountApi } = endpoints;

/**
 * An organization as a team: its members and their roles, invitations, renaming, and the signed-in
 * user's organizations and switching between them (docs/security.md, Tenancy and roles). Each
 * descriptor's `role` is the route's minimum role; `membershipOptional` routes also serve a session
 * whose membership ended.
 */
export function teamRoutes(team: TeamService, auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    // Visible to every member: who is in the team is not a secret inside it (but not to API keys).
    route(app, api.members, async (request) =>
      team.members(requireOwnOrganization(request, request.params.orgId)),
    );

    route(app, api.changeRole, async (request) => {
      requireOwnOrganization(request, request.params.orgId);
      return team.changeRole(
        request.account,
        request.params.userId,
        request.body.role,
        requestActor(request),
      );
    });

    // Any member may leave (their own id); removing someone else needs admin, an owner needs owner.
    route(app, api.removeMember, async (request, reply) => {
      requireOwnOrganization(request, request.params.orgId);
      await team.removeMember(request.account, request.params.userId, requestActor(request));
      return reply.status(204).send();
    });

    // Any member reads their organization (with their role: not for API keys); its plan is the
    // effective one (Free after a trial), as Billing shows it.
    route(app, api.get, async (request) => {
      requireOwnOrganization(request, request.params.orgId);
      return team.organization(request.account);
    });

    route(app, api.rename, async (request) => {
      requireOwnOrganization(request, request.params.orgId);
      return team.rename(request.account, request.body.name);
    });

    route(app, api.invite, async (request) => {
      requireOwnOrganization(request, request.params.orgId);
      const created = await team.invite(
        request.account,
        request.body,
        (err) => request.log.warn({ err }, 'invitation email not sent'),
        requestActor(request),
      );
      return created;
    });

    route(app, api.invitations, async (request) =>
      team.invitations(requireOwnOrganization(request, request.params.orgId)),
    );

    route(app, api.revokeInvitation, async (request, reply) => {
      await team.revokeInvitation(
        requireOwnOrganization(request, request.params.orgId),
        request.params.id,
        requestActor(request),
      );
      return reply.status(204).send();
    });

    // No mail transport: the admin passes the invitee's verification link on with the invitation.
    // Session-only, like the rest of the team (a role above member already keeps API keys out).
    route(app, api.verificationLink, async (request) => {
      requireOwnOrganization(request, request.params.orgId);
      return team.verificationLink(request.account, request.params.id);
    });

    // The invitee may not have an account yet: the invitation page reads this before sign-up or sign-in.
    route(app, api.previewInvitation, async (request) => team.preview(request.params.token));

    route(app, api.acceptInvitation, async (request) =>
      team.accept(request.account.user, request.params.token, request.ip || null),
    );

    route(app, accountApi.organizations, async (request) => auth.organizationsOf(request.auth.userId));

    route(app, accountApi.switchOrganization, async (request) =>
      auth.switchOrganization(request.auth.userId, request.body.organizationId),
    );
  };
}
