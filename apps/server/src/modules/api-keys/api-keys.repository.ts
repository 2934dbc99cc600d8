import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, userOrganizations, users, type Db } from '@crewline/db';
import type { ApiKey } from '@crewline/contracts';

/** The length of the rate-limit window, in seconds. */
export const API_KEY_WINDOW_SECONDS = 60;

const creatorName = sql<
  string | null
>`coalesce(nullif(trim(concat_ws(' ', ${users.firstName}, ${users.lastName})), ''), ${users.username})`;

type ListedRow = {
  key: typeof apiKeys.$inferSelect;
  creatorId: string | null;
  creatorName: string | null;
};

function toApiKey({ key, creatorId, creatorName: name }: ListedRow): ApiKey {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    createdBy: creatorId ? { id: creatorId, name: name ?? '' } : null,
  };
}

/** A key that authenticated a call: who it acts for, and its calls in the current window. */
export type UsedApiKey = {
  id: string;
  organizationId: string;
  userId: string;
  windowStart: Date;
  windowCount: number;
};

export function createApiKeysRepository(db: Db) {
  const live = (organizationId: string) =>
    and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt));

  return {
    /** The organization's keys not revoked, newest first (an expired key stays listed until revoked). */
    async list(organizationId: string): Promise<ApiKey[]> {
      const rows = await db
        .select({ key: apiKeys, creatorId: users.id, creatorName })
        .from(apiKeys)
        .leftJoin(users, eq(users.id, apiKeys.createdBy))
        .where(live(organizationId))
        .orderBy(desc(apiKeys.createdAt));
      return rows.map(toApiKey);
    },

    async create(values: {
      organizationId: string;
      name: string;
      prefix: string;
      keyHash: string;
      createdBy: string;
      expiresAt: Date | null;
    }): Promise<ApiKey> {
      const [key] = await db.insert(apiKeys).values(values).returning();
      const [creator] = await db
        .select({ id: users.id, name: creatorName })
        .from(users)
        .where(eq(users.id, values.createdBy));
      return toApiKey({ key, creatorId: creator?.id ?? null, creatorName: creator?.name ?? null });
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
     * One statement per call: finds the live, unexpired key whose creator is still a member of its
     * organization, stamps its last use and counts the call in its current window (a new window
     * starts when the last one is over). Undefined for anything else.
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
        .from(userOrganizations)
        .where(
          and(
            eq(apiKeys.keyHash, keyHash),
            isNull(apiKeys.revokedAt),
            sql`(${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > now())`,
            eq(userOrganizations.userId, apiKeys.createdBy),
            eq(userOrganizations.organizationId, apiKeys.organizationId),
          ),
        )
        .returning({
          id: apiKeys.id,
          organizationId: apiKeys.organizationId,
          userId: userOrganizations.userId,
          windowStart: apiKeys.windowStart,
          windowCount: apiKeys.windowCount,
        });
      return row ? { ...row, windowStart: row.windowStart ?? new Date() } : undefined;
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
