import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { OrganizationRole } from '@crewline/contracts';
import {
  organizationInvitations,
  transactionWithExecutor,
  type Db,
  type SqlExecutor,
  type Tx,
} from '@crewline/db';
import {
  deliverReturnedRows,
  notified,
  type StatementNotification,
} from '../../platform/notifications/statement';
import {
  addMembershipSql,
  deleteMembershipSql,
  lockOwnersSql,
  organizationNameSql,
  renameOrganizationSql,
  setRoleSql,
} from '../auth/memberships.columns';
import { userDisplayName } from '../auth/users.columns';
import type { RequestActor } from '../../platform/request-actor';
import type { AuditRecorder } from '../audit/audit.service';

/** Why a membership change was refused inside its transaction. */
export type MembershipOutcome = 'done' | 'not_found' | 'last_owner';

// Named in full: Drizzle leaves a column of a one-table read unqualified, which inside these
// subqueries would not name the invitation's row.
/** Who sent the invitation, by their display name. */
const inviterName = userDisplayName(sql.raw('"organization_invitations"."invited_by"'));

/** Still pending: neither accepted nor revoked, and not expired. */
const pending = () =>
  and(
    isNull(organizationInvitations.acceptedAt),
    isNull(organizationInvitations.revokedAt),
    gt(organizationInvitations.expiresAt, sql`now()`),
  );

/**
 * Locks the organization's owner rows and tells whether `userId` is its only owner (lockOwnersSql):
 * every change that can take away an owner runs this first in its transaction.
 */
async function isLastOwner(
  tx: Pick<Tx, 'execute'>,
  organizationId: string,
  userId: string,
): Promise<boolean> {
  const { rows } = await tx.execute<{ user_id: string }>(lockOwnersSql(organizationId));
  return rows.length === 1 && rows[0].user_id === userId;
}

/** A member as an audit event's target: their id, and their display name read by the insert. */
const memberTarget = (userId: string) =>
  ({ type: 'member', id: userId, name: userDisplayName(sql`${userId}::uuid`) }) as const;

export function createTeamRepository(db: Db, audit: AuditRecorder) {
  return {
    /** Renames the organization (the slug stays); false when there is none. */
    async rename(organizationId: string, name: string): Promise<boolean> {
      const { rows } = await db.execute(renameOrganizationSql(organizationId, name));
      return rows.length > 0;
    },

    /**
     * Sets the member's role, unless that demotes the last owner ('last_owner'). `notify` leaves from
     * the update itself, on commit, when the new role is readable (EventBus.statementNotification).
     */
    async changeRole(
      organizationId: string,
      userId: string,
      change: { from: string | undefined; to: OrganizationRole; actor: RequestActor },
      notify?: StatementNotification,
    ) {
      const role = change.to;
      return transactionWithExecutor(db, async (tx): Promise<MembershipOutcome> => {
        if (role !== 'owner' && (await isLastOwner(tx, organizationId, userId))) return 'last_owner';
        const { rows } = await tx.execute(setRoleSql(organizationId, userId, role, notified(notify)));
        if (rows.length === 0) return 'not_found';
        await audit.record(tx, {
          organizationId,
          actor: change.actor,
          action: 'member.role_changed',
          target: memberTarget(userId),
          details: { from: change.from ?? null, to: role },
        });
        deliverReturnedRows(rows);
        return 'done';
      });
    },

    /**
     * Deletes the membership, unless the user is the last owner ('last_owner'). `announce` runs in the
     * same transaction (its NOTIFY leaves on commit, when every process sees the membership gone).
     * The user's sessions are not revoked: they still list their organizations, switch and sign out.
     */
    async removeMember(
      organizationId: string,
      userId: string,
      announce: (executor: SqlExecutor) => Promise<void>,
      actor: RequestActor,
    ): Promise<MembershipOutcome> {
      return transactionWithExecutor(db, async (tx, executor) => {
        if (await isLastOwner(tx, organizationId, userId)) return 'last_owner';
        const { rows } = await tx.execute(deleteMembershipSql(organizationId, userId));
        if (rows.length === 0) return 'not_found';
        await audit.record(tx, {
          organizationId,
          actor,
          action: 'member.removed',
          target: memberTarget(userId),
          details: actor.userId === userId ? { left: true } : {},
        });
        await announce(executor);
        return 'done';
      });
    },

    /**
     * Revokes the pending invitation to the same email (if any) and records the new one, in one
     * transaction with `check` (the plan's member limit), which runs first on it and may throw to
     * refuse: what it locks stays locked until the invitation is committed.
     */
    async createInvitation(
      input: {
        organizationId: string;
        email: string;
        role: OrganizationRole;
        tokenHash: string;
        invitedBy: string;
        expiresAt: Date;
      },
      check: (tx: Pick<Db, 'select'>) => Promise<void>,
      actor: RequestActor,
    ) {
      return db.transaction(async (tx) => {
        await check(tx);
        await tx
          .update(organizationInvitations)
          .set({ revokedAt: sql`now()` })
          .where(
            and(
              eq(organizationInvitations.organizationId, input.organizationId),
              eq(organizationInvitations.email, input.email),
              isNull(organizationInvitations.acceptedAt),
              isNull(organizationInvitations.revokedAt),
            ),
          );
        const [row] = await tx.insert(organizationInvitations).values(input).returning();
        await audit.record(tx, {
          organizationId: input.organizationId,
          actor,
          action: 'member.invited',
          target: { type: 'invitation', id: row.id, name: row.email },
          details: { role: row.role },
        });
        return row;
      });
    },

    async listPendingInvitations(organizationId: string) {
      return db
        .select({
          id: organizationInvitations.id,
          email: organizationInvitations.email,
          role: organizationInvitations.role,
          invitedBy: inviterName,
          createdAt: organizationInvitations.createdAt,
          expiresAt: organizationInvitations.expiresAt,
        })
        .from(organizationInvitations)
        .where(and(eq(organizationInvitations.organizationId, organizationId), pending()))
        .orderBy(organizationInvitations.createdAt);
    },

    /** Revokes a pending invitation of the organization; false when there is none with that id. */
    async revokeInvitation(organizationId: string, id: string, actor: RequestActor): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [revoked] = await tx
          .update(organizationInvitations)
          .set({ revokedAt: sql`now()` })
          .where(
            and(
              eq(organizationInvitations.id, id),
              eq(organizationInvitations.organizationId, organizationId),
              pending(),
            ),
          )
          .returning({
            id: organizationInvitations.id,
            email: organizationInvitations.email,
            role: organizationInvitations.role,
          });
        if (!revoked) return false;
        await audit.record(tx, {
          organizationId,
          actor,
          action: 'invitation.revoked',
          target: { type: 'invitation', id: revoked.id, name: revoked.email },
          details: { role: revoked.role },
        });
        return true;
      });
    },

    /** The address of the organization's pending invitation `id`; undefined when there is none. */
    async findPendingInvitationEmail(organizationId: string, id: string): Promise<string | undefined> {
      const [row] = await db
        .select({ email: organizationInvitations.email })
        .from(organizationInvitations)
        .where(
          and(
            eq(organizationInvitations.id, id),
            eq(organizationInvitations.organizationId, organizationId),
            pending(),
          ),
        )
        .limit(1);
      return row?.email;
    },

    /** The pending invitation with this token hash, with its organization's name and inviter. */
    async findPendingInvitation(tokenHash: string) {
      const [row] = await db
        .select({
          id: organizationInvitations.id,
          organizationId: organizationInvitations.organizationId,
          organizationName: organizationNameSql(sql.raw('"organization_invitations"."organization_id"')),
          email: organizationInvitations.email,
          role: organizationInvitations.role,
          invitedBy: inviterName,
          expiresAt: organizationInvitations.expiresAt,
        })
        .from(organizationInvitations)
        .where(and(eq(organizationInvitations.tokenHash, tokenHash), pending()))
        .limit(1);
      return row;
    },

    /**
     * Marks the pending invitation accepted and adds the membership with its role, in one transaction
     * (the invitation row is locked, so a token is used once). `check` runs first on that transaction
     * with the invitation's organization and email, and may throw to refuse (wrong email, member
     * limit); what it locks (the organization, for the limit) stays locked until the membership is
     * committed. It runs before the invitation is locked, so every path takes the organization's lock
     * first (an invitation sent meanwhile revokes invitations under it). 'already_member' leaves the
     * invitation pending.
     */
    async acceptInvitation(
      tokenHash: string,
      actor: RequestActor & { userId: string },
      check: (invitation: { organizationId: string; email: string }, tx: Pick<Db, 'select'>) => Promise<void>,
    ) {
      return transactionWithExecutor(db, async (tx) => {
        const invitationOf = () =>
          tx
            .select()
            .from(organizationInvitations)
            .where(and(eq(organizationInvitations.tokenHash, tokenHash), pending()));
        const [found] = await invitationOf();
        if (!found) return { outcome: 'not_found' as const };
        await check(found, tx);
        // Read again, locked: it may have been accepted, revoked or replaced while `check` waited.
        const [invitation] = await invitationOf().for('update');
        if (!invitation) return { outcome: 'not_found' as const };
        const { rows } = await tx.execute<{ role: OrganizationRole }>(
          addMembershipSql(actor.userId, invitation.organizationId, invitation.role),
        );
        if (rows.length === 0) return { outcome: 'already_member' as const };
        await tx
          .update(organizationInvitations)
          .set({ acceptedAt: sql`now()` })
          .where(eq(organizationInvitations.id, invitation.id));
        await audit.record(tx, {
          organizationId: invitation.organizationId,
          actor,
          action: 'invitation.accepted',
          target: { type: 'invitation', id: invitation.id, name: invitation.email },
          details: { role: rows[0].role },
        });
        return {
          outcome: 'accepted' as const,
          organizationId: invitation.organizationId,
          role: rows[0].role,
        };
      });
    },
  };
}
export type TeamRepository = ReturnType<typeof createTeamRepository>;
