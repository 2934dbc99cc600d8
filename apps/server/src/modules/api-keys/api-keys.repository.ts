import { and, desc, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm';
import { apiKeys, type Db } from '@crewline/db';
import type { ApiKey } from '@crewline/contracts';
import type { RequestActor } from '../../platform/request-actor';
import type { AuditRecorder } from '../audit/audit.service';

/** The length of the rate-limit window, in seconds. */
export const API_KEY_WINDOW_SECONDS = 60;

/** A key that authenticated a call: who it acts for, and its calls in the current window. */
export type UsedApiKey = {
  id: string;
  name: string;
  organizationId: string;
  userId: string;
  windowStart: Date;
  windowCount: number;
};

/**
 * The SQL of auth's tables a key's statements need (auth/memberships.columns.ts,
 * auth/users.columns.ts): the composition root hands it over, as auth imports this module for its
 * guard. `isMember`: true while the user `user` names belongs to the organization `organization`
 * names; `displayName`: the user's display name, null without such a user.
 */
export type KeyCreatorSql = {
  isMember: (user: SQL, organization: SQL) => SQL;
  displayName: (user: SQL) => SQL<string | null>;
};

// Named in full: in a one-table statement drizzle leaves columns unqualified, which inside auth's
// subqueries would name their own tables' columns (a membership's organization_id).
const keyCreator = sql.raw('"api_keys"."created_by"');
const keyOrganization = sql.raw('"api_keys"."organization_id"');

type KeyRow = typeof apiKeys.$inferSelect & { creatorName: string | null };

function toApiKey(key: KeyRow): ApiKey {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    createdBy: key.createdBy ? { id: key.createdBy, name: key.creatorName ?? '' } : null,
  };
}

export function createApiKeysRepository(db: Db, creator: KeyCreatorSql, audit: AuditRecorder) {
  const live = (organizationId: string) =>
    and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt));
  // A key with its creator's name (created_by is set null when the account goes).
  const withCreatorName = { ...getTableColumns(apiKeys), creatorName: creator.displayName(keyCreator) };

  return {
    /** The organization's keys not revoked, newest first (an expired key stays listed until revoked). */
    async list(organizationId: string): Promise<ApiKey[]> {
      const rows = await db
        .select(withCreatorName)
        .from(apiKeys)
        .where(live(organizationId))
        .orderBy(desc(apiKeys.createdAt));
      return rows.map(toApiKey);
    },

    /**
     * Stores a new key and its audit event (its name and shown prefix, never the key) in one
     * transaction; answers it as the list shows it, with its creator's name.
     */
    async create({
      actor,
      ...values
    }: {
      organizationId: string;
      name: string;
      prefix: string;
      keyHash: string;
      createdBy: string;
      expiresAt: Date | null;
      actor: RequestActor;
    }): Promise<ApiKey> {
      return db.transaction(async (tx) => {
        const [key] = await tx.insert(apiKeys).values(values).returning(withCreatorName);
        await audit.record(tx, {
          organizationId: values.organizationId,
          actor,
          action: 'api_key.created',
          target: { type: 'api_key', id: key.id, name: key.name },
          details: { prefix: key.prefix, expiresAt: key.expiresAt?.toISOString() ?? null },
        });
        return toApiKey(key);
      });
    },

    /** Revokes at once: the next call with the key is refused. False when there is no such live key. */
    async revoke(organizationId: string, id: string, actor: RequestActor): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [revoked] = await tx
          .update(apiKeys)
          .set({ revokedAt: new Date() })
          .where(and(live(organizationId), eq(apiKeys.id, id)))
          .returning({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix });
        if (!revoked) return false;
        await audit.record(tx, {
          organizationId,
          actor,
          action: 'api_key.revoked',
          target: { type: 'api_key', id: revoked.id, name: revoked.name },
          details: { prefix: revoked.prefix },
        });
        return true;
      });
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
            creator.isMember(keyCreator, keyOrganization),
          ),
        )
        .returning({
          id: apiKeys.id,
          name: apiKeys.name,
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
