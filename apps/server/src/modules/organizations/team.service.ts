import {
  accountMessages,
  hasRole,
  roleRequired,
  teamMessages,
  type CreatedInvitation,
  type Invitation,
  type InvitationPreview,
  type Member,
  type Organization,
  type OrganizationRole,
  type VerificationLink,
} from '@crewline/contracts';
import type { Config } from '../../platform/env';
import type { Egress } from '../../platform/egress';
import type { EventBus } from '../../platform/events';
import type { Mailer } from '../../platform/mail';
import { ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors';
import { hashLinkToken, newLinkToken } from '../../platform/auth/link-tokens';
import { isUuid } from '../../platform/ids';
import type { RequestActor } from '../../platform/request-actor';
import type { AccountLinksService } from '../auth/account-links.service';
import type { AuthService } from '../auth/auth.service';
import type { LimitReader } from '../billing/billing.service';
import type { Membership } from '../auth/auth.service';
import { sendEmail } from '../../platform/mail/sendgrid';
import type { MemberRow, MembersPresenter } from './members.presenter';
import type { TeamRepository } from './team.repository';

/** How long an invitation link works. */
const INVITATION_TTL_MS = 7 * 86_400_000;

function toMemberDto(m: MemberRow): Member {
  return { ...m, joinedAt: m.joinedAt.toISOString() };
}

const displayName = (user: Membership['user']) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.username;

/**
 * Members, roles and invitations of an organization (docs/security.md, Tenancy and roles). Routes check the
 * minimum role (`config.role`); the finer rules that depend on the target (only an owner touches an
 * owner or makes one, the last owner stays) are checked here.
 */
export function createTeamService(deps: {
  config: Config;
  repository: TeamRepository;
  /** The organization's members and the accounts invitations name (users, memberships). */
  members: MembersPresenter;
  auth: AuthService;
  events: EventBus;
  /** The organization's active SendGrid connection, if any (as output delivery reads it). */
  sendgridSettings(organizationId: string): Promise<Record<string, unknown> | undefined>;
  egress: Egress;
  /** The server's mail transport (SMTP_URL): invitations go through it when no SendGrid connection is active. */
  mailer?: Mailer;
  /** Mints verification links an admin passes on when there is no mail transport (modules/auth). */
  verificationLinks?: Pick<AccountLinksService, 'limitVerificationLinks' | 'verificationLinkFor'>;
  /**
   * The plan's member limit (modules/billing), checked in the transaction that writes (`tx`), before
   * it writes: at invitation (members and other pending invitations count) and at acceptance
   * (members count).
   */
  limits: {
    checkMemberLimit(organizationId: string, invitingEmail?: string, tx?: LimitReader): Promise<void>;
    /** The effective plan (null on Free: after a trial, say), which the organization is shown with. */
    current(organizationId: string): Promise<{ plan: string | null }>;
  };
}) {
  const { config, repository, members, auth, events, limits } = deps;

  /** Whether the server mails verification links itself; otherwise admins hand them out. */
  const verificationMailed = () => deps.mailer?.configured === true;

  const membersChanged = (organizationId: string, userId?: string) =>
    events.publish({ type: 'organization_members_changed', organizationId, ...(userId ? { userId } : {}) });

  /**
   * The organization as a member sees it: the plan is the effective one (Free once a trial ended), as
   * Billing shows it, not the stored plan of the ended trial.
   */
  async function organizationDto(organization: Organization): Promise<Organization> {
    const { plan } = await limits.current(organization.id);
    return { ...organization, plan: plan ?? 'free' };
  }

  async function memberRole(organizationId: string, userId: string): Promise<string> {
    const role = isUuid(userId) ? await members.findMemberRole(organizationId, userId) : undefined;
    if (!role) throw new NotFoundError(teamMessages.memberNotFound);
    return role;
  }

  /**
   * Emails the link through the organization's active SendGrid connection, or else through the server's
   * mail transport (docs/decisions/0025-server-mail-transport.md); false when neither exists, and the
   * admin is shown the link to pass on.
   */
  async function emailInvitation(
    actor: Membership,
    email: string,
    inviteUrl: string,
    role: string,
  ): Promise<boolean> {
    const inviter = displayName(actor.user);
    const subject = `${inviter} invited you to ${actor.organization.name} on Crewline`;
    const text = [
      `${inviter} invited you to join ${actor.organization.name} on Crewline as ${role}.`,
      '',
      `Accept the invitation: ${inviteUrl}`,
      '',
      'The link works once and expires in 7 days.',
    ].join('\n');
    const settings = await deps.sendgridSettings(actor.organization.id);
    if (settings?.apiKey && settings.fromEmail) {
      await sendEmail(settings, { to: [email], subject, text }, deps.egress);
      return true;
    }
    if (!deps.mailer?.configured) return false;
    await deps.mailer.send({ to: email, subject, text });
    return true;
  }

  return {
    async members(organizationId: string): Promise<Member[]> {
      return (await members.listMembers(organizationId)).map(toMemberDto);
    },

    /** Renames the organization; the slug stays. Answers it as the caller sees it (with their role). */
    async rename(actor: Membership, name: string): Promise<Organization> {
      if (!(await repository.rename(actor.organization.id, name))) {
        throw new NotFoundError(teamMessages.organizationNotFound);
      }
      return organizationDto({ ...auth.toSession(actor).organization, name });
    },

    /** GET /api/organizations/:orgId: the caller's organization, its plan the effective one. */
    async organization(actor: Membership): Promise<Organization> {
      return organizationDto(auth.toSession(actor).organization);
    },

    /**
     * Admins switch members and admins; only an owner makes someone owner or changes an owner's role;
     * the last owner cannot be demoted (409). The new role counts from the member's next request.
     */
    async changeRole(
      actor: Membership,
      userId: string,
      role: OrganizationRole,
      from: RequestActor,
    ): Promise<Member> {
      const organizationId = actor.organization.id;
      const current = await memberRole(organizationId, userId);
      if ((current === 'owner' || role === 'owner') && !hasRole(actor.role, 'owner')) {
        throw new ForbiddenError(roleRequired('owner'));
      }
      if (current !== role) {
        // Published from the changing statement (sent on commit), so the member's open pages refetch
        // their role as soon as it is readable, and never for a change rolled back.
        const event = { type: 'organization_members_changed' as const, organizationId, userId };
        const notification = events.statementNotification(event);
        const outcome = await repository.changeRole(
          organizationId,
          userId,
          { from: current, to: role, actor: from },
          notification,
        );
        if (outcome === 'last_owner') throw new ConflictError(teamMessages.lastOwner);
        if (outcome === 'not_found') throw new NotFoundError(teamMessages.memberNotFound);
      }
      const member = (await members.listMembers(organizationId)).find((m) => m.userId === userId);
      if (!member) throw new NotFoundError(teamMessages.memberNotFound);
      return toMemberDto(member);
    },

    /**
     * Removes a member, or the caller leaves (their own id). Admins remove members and admins, only an
     * owner removes an owner, and the last owner can neither leave nor be removed (409). Access ends at
     * once: the user's sessions in the organization answer its data 404 from the next request, and
     * every process closes their websockets to it (announced in the removing transaction).
     */
    async removeMember(actor: Membership, userId: string, from: RequestActor): Promise<void> {
      const organizationId = actor.organization.id;
      const current = await memberRole(organizationId, userId);
      if (userId !== actor.user.id) {
        if (!hasRole(actor.role, 'admin')) throw new ForbiddenError(roleRequired('admin'));
        if (current === 'owner' && !hasRole(actor.role, 'owner')) {
          throw new ForbiddenError(roleRequired('owner'));
        }
      }
      const outcome = await repository.removeMember(
        organizationId,
        userId,
        (executor) => auth.membershipEnded(userId, organizationId, executor),
        from,
      );
      if (outcome === 'last_owner') throw new ConflictError(teamMessages.lastOwner);
      if (outcome === 'not_found') throw new NotFoundError(teamMessages.memberNotFound);
      await membersChanged(organizationId, userId);
    },

    /**
     * Invites `email` with `role` (owner only by an owner). A pending invitation to the same address is
     * revoked; an existing member is refused (409). The token is answered once and only its hash kept;
     * with an active SendGrid connection the link is emailed too (a failure to send does not undo the
     * invitation: `emailSent` says whether it went).
     */
    async invite(
      actor: Membership,
      input: { email: string; role: OrganizationRole },
      onEmailFailed: (err: unknown) => void,
      from: RequestActor,
    ): Promise<CreatedInvitation> {
      const organizationId = actor.organization.id;
      if (input.role === 'owner' && !hasRole(actor.role, 'owner')) {
        throw new ForbiddenError(roleRequired('owner'));
      }
      if (await members.isMemberByEmail(organizationId, input.email)) {
        throw new ConflictError(teamMessages.alreadyMember);
      }
      const token = newLinkToken();
      // Checked and written under the organization's lock: concurrent invitations cannot pass the limit.
      const row = await repository.createInvitation(
        {
          organizationId,
          email: input.email,
          role: input.role,
          tokenHash: hashLinkToken(token),
          invitedBy: actor.user.id,
          expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
        },
        (tx) => limits.checkMemberLimit(organizationId, input.email, tx),
        from,
      );
      await membersChanged(organizationId);
      const inviteUrl = `${config.publicUrl}/invite/${token}`;
      const emailSent = await emailInvitation(actor, row.email, inviteUrl, row.role).catch((err: unknown) => {
        onEmailFailed(err);
        return false;
      });
      return {
        id: row.id,
        email: row.email,
        role: row.role,
        inviteUrl,
        token,
        expiresAt: row.expiresAt.toISOString(),
        emailSent,
        verificationMailed: verificationMailed(),
      };
    },

    async invitations(organizationId: string): Promise<Invitation[]> {
      return (await repository.listPendingInvitations(organizationId)).map((i) => ({
        ...i,
        createdAt: i.createdAt.toISOString(),
        expiresAt: i.expiresAt.toISOString(),
        verificationMailed: verificationMailed(),
      }));
    },

    async revokeInvitation(organizationId: string, id: string, from: RequestActor): Promise<void> {
      if (!isUuid(id) || !(await repository.revokeInvitation(organizationId, id, from))) {
        throw new NotFoundError(teamMessages.invitationGone);
      }
      await membersChanged(organizationId);
    },

    /**
     * Without a mail transport, a verification link for the address of a pending invitation, which the
     * admin passes on with the invitation link (docs/security.md, Tenancy and roles): the admin vouches for
     * the address as the mailed link would. Minted on request for the invited address's account only,
     * single use; 404 until that account exists, 409 once it is verified or when the server mails.
     */
    async verificationLink(actor: Membership, id: string): Promise<VerificationLink> {
      if (verificationMailed() || !deps.verificationLinks) {
        throw new ConflictError(teamMessages.verificationMailedByServer);
      }
      await deps.verificationLinks.limitVerificationLinks(actor.user.id);
      const email = isUuid(id)
        ? await repository.findPendingInvitationEmail(actor.organization.id, id)
        : undefined;
      if (!email) throw new NotFoundError(teamMessages.invitationGone);
      const account = await members.findAccountByEmail(email);
      if (!account) throw new NotFoundError(teamMessages.inviteeHasNoAccount);
      if (account.emailVerifiedAt) throw new ConflictError(teamMessages.inviteeVerified);
      return { link: await deps.verificationLinks.verificationLinkFor(account) };
    },

    /** What the invitee sees; unknown, used, revoked and expired tokens all answer the same 404. */
    async preview(token: string): Promise<InvitationPreview> {
      const invitation = await repository.findPendingInvitation(hashLinkToken(token));
      if (!invitation) throw new NotFoundError(teamMessages.invitationNotFound);
      return {
        organization: { name: invitation.organizationName },
        invitedBy: invitation.invitedBy,
        email: invitation.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
        verificationMailed: verificationMailed(),
      };
    },

    /**
     * The signed-in user joins with the invited role. Their email must be the invitation's, and verified
     * (403 for either: the address is otherwise only the user's word); the token works once (then
     * 404); a user already in the organization gets 409.
     */
    async accept(
      user: Membership['user'],
      token: string,
      ip: string | null,
    ): Promise<{ organization: Organization }> {
      const result = await repository.acceptInvitation(
        hashLinkToken(token),
        { userId: user.id, ip },
        async (invitation, tx) => {
          if (invitation.email !== user.email.toLowerCase()) {
            throw new ForbiddenError(teamMessages.invitationEmailMismatch);
          }
          if (!user.emailVerifiedAt) throw new ForbiddenError(accountMessages.verifyToAcceptInvitation);
          // Under the organization's lock until the membership commits: concurrent acceptances
          // cannot pass the limit.
          await limits.checkMemberLimit(invitation.organizationId, undefined, tx);
        },
      );
      if (result.outcome === 'not_found') throw new NotFoundError(teamMessages.invitationNotFound);
      if (result.outcome === 'already_member') throw new ConflictError(teamMessages.alreadyMember);
      await membersChanged(result.organizationId);
      const organization = await auth.organization(result.organizationId, result.role);
      if (!organization) throw new NotFoundError(teamMessages.invitationNotFound);
      return { organization };
    },
  };
}
export type TeamService = ReturnType<typeof createTeamService>;
