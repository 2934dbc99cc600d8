import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { OrganizationRole } from '@crewline/contracts';
import {
  organizationInvitations,
  organizations,
  transactionWithExecutor,
  userOrganizations,
  users,
  type Db,
  type SqlExecutor,
  type Tx,
} from '@crewline/db';
import { notified, type StatementNotification } from '../../platform/events';

export type OrganizationRow = typeof organizations.$inferSelect;
export type MemberRow = {
  userId: string;
  username: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: string;
  joinedAt: Date;
};

/** Why a membership change was refused inside its transaction. */
export type MembershipOutcome = 'done' | 'not_found' | 'last_owner';

const inviterName = sql<string | null>`coalesce(
  nullif(trim(concat_ws(' ', ${users.firstName}, ${users.lastName})), ''),
  ${users.username}
)`;

/** Still pending: neither accepted nor revoked, and not expired. */
const pending = () =>
  and(
    isNull(organizationInvitations.acceptedAt),
    isNull(organizationInvitations.revokedAt),
    gt(organizationInvitations.expiresAt, sql`now()`),
  );

/**
 * Locks the organization's owner rows and tells whether `userId` is its only owner. Every change that
 * can take away an owner runs this first in its transaction, so two of them cannot both remove "the
 * other" owner and leave none.
 */
async function isLastOwner(tx: Tx, organizationId: string, userId: string): Promise<boolean> {
  const owners = await tx
    .select({ userId: userOrganizations.userId })
    .from(userOrganizations)
    .where(and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.role, 'owner')))
    .for('update');
  return owners.length === 1 && owners[0].userId === userId;
}

export function createTeamRepository(db: Db) {
  return {
    async listMembers(organizationId: string): Promise<MemberRow[]> {
      return db
        .select({
          userId: users.id,
          username: users.username,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          role: userOrganizations.role,
          joinedAt: userOrganizations.createdAt,
        })
        .from(userOrganizations)
        .innerJoin(users, eq(users.id, userOrganizations.userId))
        .where(eq(userOrganizations.organizationId, organizationId))
        .orderBy(userOrganizations.createdAt, users.username);
    },

    async findMemberRole(organizationId: string, userId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ role: userOrganizations.role })
        .from(userOrganizations)
        .where(
          and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, userId)),
        )
        .limit(1);
      return row?.role;
    },

    async isMemberByEmail(organizationId: string, email: string): Promise<boolean> {
      const rows = await db
        .select({ id: userOrganizations.id })
        .from(userOrganizations)
        .innerJoin(users, eq(users.id, userOrganizations.userId))
        .where(
          and(eq(userOrganizations.organizationId, organizationId), sql`lower(${users.email}) = ${email}`),
        )
        .limit(1);
      return rows.length > 0;
    },

    async rename(organizationId: string, name: string): Promise<OrganizationRow | undefined> {
      const [row] = await db
        .update(organizations)
        .set({ name })
        .where(eq(organizations.id, organizationId))
        .returning();
      return row;
    },

    /**
     * Sets the member's role, unless that demotes the last owner ('last_owner'). `notify` leaves from
     * the update itself, on commit, when the new role is readable (EventBus.statementNotification).
     */
    async changeRole(
      organizationId: string,
      userId: string,
      role: OrganizationRole,
      notify?: StatementNotification,
    ) {
      return transactionWithExecutor(db, async (tx): Promise<MembershipOutcome> => {
        if (role !== 'owner' && (await isLastOwner(tx, organizationId, userId))) return 'last_owner';
        const updated = await tx
          .update(userOrganizations)
          .set({ role })
          .where(
            and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, userId)),
          )
          .returning({ id: userOrganizations.id, notified: notified(notify) });
        return updated.length > 0 ? 'done' : 'not_found';
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
    ): Promise<MembershipOutcome> {
      return transactionWithExecutor(db, async (tx, executor) => {
        if (await isLastOwner(tx, organizationId, userId)) return 'last_owner';
        const deleted = await tx
          .delete(userOrganizations)
          .where(
            and(eq(userOrganizations.organizationId, organizationId), eq(userOrganizations.userId, userId)),
          )
          .returning({ id: userOrganizations.id });
        if (deleted.length === 0) return 'not_found';
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
        .leftJoin(users, eq(users.id, organizationInvitations.invitedBy))
        .where(and(eq(organizationInvitations.organizationId, organizationId), pending()))
        .orderBy(organizationInvitations.createdAt);
    },

    /** Revokes a pending invitation of the organization; false when there is none with that id. */
    async revokeInvitation(organizationId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(organizationInvitations)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(organizationInvitations.id, id),
            eq(organizationInvitations.organizationId, organizationId),
            pending(),
          ),
        )
        .returning({ id: organizationInvitations.id });
      return rows.length > 0;
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

    /** The account that uses `email` (invitations store it lower-cased), with whether it is verified. */
    async findAccountByEmail(email: string) {
      const [row] = await db
        .select({ id: users.id, email: users.email, emailVerifiedAt: users.emailVerifiedAt })
        .from(users)
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
        .limit(1);
      return row;
    },

    /** The pending invitation with this token hash, with its organization's name and inviter. */
    async findPendingInvitation(tokenHash: string) {
      const [row] = await db
        .select({
          id: organizationInvitations.id,
          organizationId: organizationInvitations.organizationId,
          organizationName: organizations.name,
          email: organizationInvitations.email,
          role: organizationInvitations.role,
          invitedBy: inviterName,
          expiresAt: organizationInvitations.expiresAt,
        })
        .from(organizationInvitations)
        .innerJoin(organizations, eq(organizations.id, organizationInvitations.organizationId))
        .leftJoin(users, eq(users.id, organizationInvitations.invitedBy))
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
      userId: string,
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
        const [membership] = await tx
          .insert(userOrganizations)
          .values({ userId, organizationId: invitation.organizationId, role: invitation.role })
          .onConflictDoNothing()
          .returning({ role: userOrganizations.role });
        if (!membership) return { outcome: 'already_member' as const };
        await tx
          .update(organizationInvitations)
          .set({ acceptedAt: sql`now()` })
          .where(eq(organizationInvitations.id, invitation.id));
        const [organization] = await tx
          .select()
          .from(organizations)
          .where(eq(organizations.id, invitation.organizationId));
        return { outcome: 'accepted' as const, organization, role: membership.role };
      });
    },
  };
}
export type TeamRepository = ReturnType<typeof createTeamRepository>;
