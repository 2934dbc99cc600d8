import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, users, type Db } from '@crewline/db';
import type { ApiKey } from '@crewline/contracts';

/*
 * The API keys beside their creators' names (users belong to auth, which imports this module for its
 * guard, so they are read here, read only, rather than through auth's SQL).
 */

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

export function createApiKeysPresenter(db: Db) {
  return {
    /** The organization's keys not revoked, newest first (an expired key stays listed until revoked). */
    async list(organizationId: string): Promise<ApiKey[]> {
      const rows = await db
        .select({ key: apiKeys, creatorId: users.id, creatorName })
        .from(apiKeys)
        .leftJoin(users, eq(users.id, apiKeys.createdBy))
        .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.createdAt));
      return rows.map(toApiKey);
    },

    /** A key `creatorId` just made, as the list shows it (with its creator's name). */
    async withCreator(key: typeof apiKeys.$inferSelect, creatorId: string): Promise<ApiKey> {
      const [creator] = await db
        .select({ id: users.id, name: creatorName })
        .from(users)
        .where(eq(users.id, creatorId));
      return toApiKey({ key, creatorId: creator?.id ?? null, creatorName: creator?.name ?? null });
    },
  };
}
export type ApiKeysPresenter = ReturnType<typeof createApiKeysPresenter>;
