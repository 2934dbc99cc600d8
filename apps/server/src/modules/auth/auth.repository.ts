import { and, eq, getTableColumns, gt, isNull, ne, or, sql } from 'drizzle-orm';
import {
  authSessions,
  organizations,
  transactionWithExecutor,
  userOrganizations,
  users,
  type Db,
  type SqlExecutor,
} from '@crewline/db';
import type { StoredSubscription } from '../billing/billing.service';
import { insertSubscription, storedPlanColumns } from '../billing/billing.columns';
import type { AuditRecorder } from '../audit/audit.service';
import { userDisplayName } from './users.columns';

export type UserRow = typeof users.$inferSelect;
/** An organization with its stored plan and trial end (billing's subscriptions). */
export type OrganizationRow = typeof organizations.$inferSelect & { plan: string; trialEndsAt: Date | null };
export type Membership = { user: UserRow; organization: OrganizationRow; role: string };

const uniqueViolation = '23505';

/**
 * An organization as a membership reads it: its row and its stored plan. Its id is named in full:
 * Drizzle leaves a column of a one-table read unqualified, which inside billing's subquery would not
 * name the organization's row.
 */
const organizationColumns = {
  ...getTableColumns(organizations),
  ...storedPlanColumns(sql.raw('"organizations"."id"')),
};

export function createAuthRepository(db: Db, audit: AuditRecorder) {
  /**
   * findActiveSession's statement. Every signed-in request runs it, so drizzle builds it once, here,
   * instead of on each call.
   */
  const activeSession = db
    .select({ user: users, organization: organizationColumns, role: userOrganizations.role })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .innerJoin(organizations, eq(organizations.id, authSessions.organizationId))
    .leftJoin(
      userOrganizations,
      and(eq(userOrganizations.userId, users.id), eq(userOrganizations.organizationId, organizations.id)),
    )
    .where(
      and(
        eq(authSessions.id, sql.placeholder('sessionId')),
        eq(authSessions.userId, sql.placeholder('userId')),
        eq(authSessions.organizationId, sql.placeholder('organizationId')),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, sql`now()`),
      ),
    )
    .limit(1)
    .prepare('find_active_session');

  return {
    async findUserByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      return row;
    },

    /** Which of the two unique fields are already taken. */
    async findTakenIdentity(email: string, username: string) {
      const rows = await db
        .select({ email: users.email, username: users.username })
        .from(users)
        .where(or(eq(users.email, email), sql`lower(${users.username}) = lower(${username})`));
      return {
        email: rows.some((r) => r.email === email),
        username: rows.some((r) => r.username.toLowerCase() === username.toLowerCase()),
      };
    },

    /** User, organization and owner membership in one transaction; the slug gets a suffix when taken. */
    async createAccount(input: {
      user: Omit<typeof users.$inferInsert, 'id'>;
      organizationName: string;
      slugBase: string;
      /** Its plan and trial (billing's signupSubscription), written with it. */
      subscription: StoredSubscription & { trialUsedAt: Date };
    }): Promise<Membership> {
      return db.transaction(async (tx) => {
        const [user] = await tx.insert(users).values(input.user).returning();
        let created: typeof organizations.$inferSelect | undefined;
        for (let attempt = 0; !created; attempt++) {
          const slug = attempt === 0 ? input.slugBase : `${input.slugBase}-${randomSuffix()}`;
          [created] = await tx
            .insert(organizations)
            .values({ name: input.organizationName, slug })
            .onConflictDoNothing({ target: organizations.slug })
            .returning();
          if (attempt > 20) throw new Error('could not allocate an organization slug');
        }
        await insertSubscription(tx, created.id, input.subscription);
        const { plan, trialEndsAt } = input.subscription;
        const organization: OrganizationRow = { ...created, plan, trialEndsAt };
        await tx
          .insert(userOrganizations)
          .values({ userId: user.id, organizationId: organization.id, role: 'owner' });
        return { user, organization, role: 'owner' };
      });
    },

    /** The organization, with its stored plan. */
    async findOrganization(organizationId: string): Promise<OrganizationRow | undefined> {
      const [row] = await db
        .select(organizationColumns)
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .limit(1);
      return row;
    },

    /** The organization a user signs in to: their first membership. */
    async findPrimaryMembership(userId: string): Promise<Membership | undefined> {
      const [row] = await db
        .select({ user: users, organization: organizationColumns, role: userOrganizations.role })
        .from(userOrganizations)
        .innerJoin(users, eq(users.id, userOrganizations.userId))
        .innerJoin(organizations, eq(organizations.id, userOrganizations.organizationId))
        .where(eq(userOrganizations.userId, userId))
        .orderBy(userOrganizations.createdAt)
        .limit(1);
      return row;
    },

    /** The user's membership of one organization. */
    async findMembership(userId: string, organizationId: string): Promise<Membership | undefined> {
      const [row] = await db
        .select({ user: users, organization: organizationColumns, role: userOrganizations.role })
        .from(userOrganizations)
        .innerJoin(users, eq(users.id, userOrganizations.userId))
        .innerJoin(organizations, eq(organizations.id, userOrganizations.organizationId))
        .where(
          and(eq(userOrganizations.userId, userId), eq(userOrganizations.organizationId, organizationId)),
        )
        .limit(1);
      return row;
    },

    /** Every organization the user belongs to, oldest membership first, with their role in it. */
    async listMemberships(userId: string) {
      return db
        .select({
          id: organizations.id,
          name: organizations.name,
          slug: organizations.slug,
          role: userOrganizations.role,
        })
        .from(userOrganizations)
        .innerJoin(organizations, eq(organizations.id, userOrganizations.organizationId))
        .where(eq(userOrganizations.userId, userId))
        .orderBy(userOrganizations.createdAt, organizations.name);
    },

    /**
     * Starts a session. With `signIn` (a sign-in, not a sign-up or a switch of organization) the
     * organization's audit log records it in the same transaction, with the address it came from.
     */
    async createSession(
      input: { userId: string; organizationId: string; expiresAt: Date },
      signIn?: { ip: string | null; method: 'password' },
    ): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(authSessions).values(input).returning({ id: authSessions.id });
        if (signIn) {
          await audit.record(tx, {
            organizationId: input.organizationId,
            actor: { userId: input.userId, ip: signIn.ip },
            action: 'auth.signed_in',
            target: { type: 'user', id: input.userId, name: userDisplayName(sql`${input.userId}::uuid`) },
            details: { method: signIn.method },
          });
        }
        return row.id;
      });
    },

    /**
     * The session's user, organization and membership role, only while the session is neither revoked
     * nor expired. `role` is null when the user no longer belongs to the session's organization (they
     * left or were removed): the session then only reaches the routes that need no membership.
     */
    async findActiveSession(
      sessionId: string,
      userId: string,
      organizationId: string,
    ): Promise<(Omit<Membership, 'role'> & { role: string | null }) | undefined> {
      const [row] = await activeSession.execute({ sessionId, userId, organizationId });
      return row;
    },

    /**
     * Revokes the session, and runs `announce` in the same transaction: its NOTIFY then leaves only
     * on commit, when every process can see the revocation.
     */
    async revokeSession(sessionId: string, announce: (executor: SqlExecutor) => Promise<void>) {
      await transactionWithExecutor(db, async (tx, executor) => {
        await tx
          .update(authSessions)
          .set({ revokedAt: sql`now()` })
          .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
        await announce(executor);
      });
    },

    /** Revokes every live session of the user; `announce` as for revokeSession. */
    async revokeAllSessions(userId: string, announce: (executor: SqlExecutor) => Promise<void>) {
      await transactionWithExecutor(db, async (tx, executor) => {
        await tx
          .update(authSessions)
          .set({ revokedAt: sql`now()` })
          .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
        await announce(executor);
      });
    },

    /** Revokes every live session of the user but `keepSessionId`; `announce` as for revokeSession. */
    async revokeOtherSessions(
      userId: string,
      keepSessionId: string,
      announce: (executor: SqlExecutor) => Promise<void>,
    ): Promise<number> {
      return transactionWithExecutor(db, async (tx, executor) => {
        const revoked = await tx
          .update(authSessions)
          .set({ revokedAt: sql`now()` })
          .where(
            and(
              eq(authSessions.userId, userId),
              ne(authSessions.id, keepSessionId),
              isNull(authSessions.revokedAt),
            ),
          )
          .returning({ id: authSessions.id });
        // Announced even when nothing was left to revoke: sockets of sessions that ended
        // unannounced (expired) close too.
        await announce(executor);
        return revoked.length;
      });
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;

export function isUniqueViolation(error: unknown, constraintPart: string): boolean {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e.cause?.code ? e.cause : e;
  return pg.code === uniqueViolation && (pg.constraint ?? '').includes(constraintPart);
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 6);
}
