import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { apiKeys, type Db } from '@crewline/db';

/** The length of the rate-limit window, in seconds. */
export const API_KEY_WINDOW_SECONDS = 60;

/** A key that authenticated a call: who it acts for, and its calls in the current window. */
export type UsedApiKey = {
  id: string;
  organizationId: string;
  userId: string;
  windowStart: Date;
  windowCount: number;
};

/**
 * True while the user `user` names belongs to the organization `organization` names, as SQL: auth
 * owns memberships and offers it (auth/memberships.columns.ts); the composition root hands it over,
 * as auth imports this module for its guard.
 */
export type IsMemberSql = (user: SQL, organization: SQL) => SQL;

// Named in full: in a one-table update drizzle leaves columns unqualified, which inside the
// membership subquery would name the membership's own organization_id.
const keyCreator = sql.raw('"api_keys"."created_by"');
const keyOrganization = sql.raw('"api_keys"."organization_id"');

export function createApiKeysRepository(db: Db, isMember: IsMemberSql) {
  const live = (organizationId: string) =>
    and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt));

  return {
    async create(values: {
      organizationId: string;
      name: string;
      prefix: string;
      keyHash: string;
      createdBy: string;
      expiresAt: Date | null;
    }) {
      const [key] = await db.insert(apiKeys).values(values).returning();
      return key;
    },

    /** Revokes at once: the next call with the key is refused. False when there is no such live key. */
    async revoke(organizationId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(live(organizationId), eq(apiKeys.id, id)))
        .returning({ id: apiKeys.id });
      return rows.length > 0;
    },

    /**
     * One statement per call with the key of hash `keyHash`: while the key is live, unexpired and its
     * creator still a member of its organization, stamps its last use and counts the call in its
     * current window (a new window starts when the last one is over). Undefined when it is not usable.
     */
    async use(keyHash: string): Promise<UsedApiKey | undefined> {
      const fresh = sql`${apiKeys.windowStart} > now() - make_interval(secs => ${API_KEY_WINDOW_SECONDS})`;
      const [row] = await db
        .update(apiKeys)
        .set({
          lastUsedAt: sql`now()`,
          windowStart: sql`CASE WHEN ${fresh} THEN ${apiKeys.windowStart} ELSE now() END`,
          windowCount: sql`CASE WHEN ${fresh} THEN ${apiKeys.windowCount} + 1 ELSE 1 END`,
        })
        .where(
          and(
            eq(apiKeys.keyHash, keyHash),
            isNull(apiKeys.revokedAt),
            sql`(${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > now())`,
            isMember(keyCreator, keyOrganization),
          ),
        )
        .returning({
          id: apiKeys.id,
          organizationId: apiKeys.organizationId,
          userId: apiKeys.createdBy,
          windowStart: apiKeys.windowStart,
          windowCount: apiKeys.windowCount,
        });
      if (!row?.userId) return undefined;
      return { ...row, userId: row.userId, windowStart: row.windowStart ?? new Date() };
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
