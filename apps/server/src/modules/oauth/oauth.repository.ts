import { and, desc, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { oauthClients, oauthGrants, oauthTokens, type Db } from '@crewline/db';

/**
 * The SQL of auth's tables these statements need (auth/memberships.columns.ts, auth/users.columns.ts),
 * handed over by the composition root: `isMember` true while the user belongs to the organization,
 * `displayName` the user's display name.
 */
export type GrantUserSql = {
  isMember: (user: SQL, organization: SQL) => SQL;
  displayName: (user: SQL) => SQL<string | null>;
};

export type OAuthClientRow = typeof oauthClients.$inferSelect;

/** A code or refresh token just used up, with what the exchange checks against it. */
export type UsedToken = {
  grantId: string;
  clientId: string;
  codeChallenge: string | null;
  redirectUri: string | null;
  resource: string | null;
  expired: boolean;
  grantRevoked: boolean;
};

/** What an access token stands for while it works. */
export type AccessTokenGrant = {
  grantId: string;
  organizationId: string;
  userId: string;
  clientName: string;
  lastUsedAt: Date | null;
};

export type GrantRow = {
  id: string;
  clientName: string;
  userId: string;
  userName: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
};

// Named in full: inside auth's subqueries an unqualified column would name their own tables'.
const grantUser = sql.raw('"oauth_grants"."user_id"');
const grantOrganization = sql.raw('"oauth_grants"."organization_id"');

/** OAuth clients, member grants and their hashed codes and tokens (docs/security.md, OAuth for MCP clients). */
export function createOAuthRepository(db: Db, users: GrantUserSql) {
  return {
    async createClient(values: { id: string; clientName: string; redirectUris: string[] }) {
      const [row] = await db.insert(oauthClients).values(values).returning();
      return row;
    },

    async getClient(id: string): Promise<OAuthClientRow | undefined> {
      const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id));
      return row;
    },

    /**
     * The member's live grant of the client for the organization, made if there is none, and a code
     * of it: one transaction, so a code never names a grant that is not there.
     */
    async grantWithCode(
      grant: { clientId: string; organizationId: string; userId: string },
      code: {
        tokenHash: string;
        codeChallenge: string;
        redirectUri: string;
        resource: string;
        expiresAt: Date;
      },
    ): Promise<string> {
      return db.transaction(async (tx) => {
        const [live] = await tx
          .select({ id: oauthGrants.id })
          .from(oauthGrants)
          .where(
            and(
              eq(oauthGrants.clientId, grant.clientId),
              eq(oauthGrants.organizationId, grant.organizationId),
              eq(oauthGrants.userId, grant.userId),
              isNull(oauthGrants.revokedAt),
            ),
          )
          .limit(1);
        const grantId = live?.id ?? (await tx.insert(oauthGrants).values(grant).returning())[0].id;
        await tx.insert(oauthTokens).values({ ...code, grantId, kind: 'code' });
        return grantId;
      });
    },

    /** Stores an access and a refresh token of a grant (their hashes). */
    async addTokens(
      grantId: string,
      tokens: { tokenHash: string; kind: 'access' | 'refresh'; resource: string; expiresAt: Date }[],
    ): Promise<void> {
      await db.insert(oauthTokens).values(tokens.map((t) => ({ ...t, grantId })));
    },

    /**
     * Uses up the code or refresh token of hash `tokenHash` (one statement: of two concurrent
     * exchanges only one gets it). `reused` when it was used before: the caller revokes its grant.
     */
    async useToken(
      tokenHash: string,
      kind: 'code' | 'refresh',
    ): Promise<{ token: UsedToken } | { reused: string } | undefined> {
      const [row] = await db
        .update(oauthTokens)
        .set({ usedAt: sql`now()` })
        .where(
          and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, kind), isNull(oauthTokens.usedAt)),
        )
        .returning({
          grantId: oauthTokens.grantId,
          codeChallenge: oauthTokens.codeChallenge,
          redirectUri: oauthTokens.redirectUri,
          resource: oauthTokens.resource,
          expired: sql<boolean>`${oauthTokens.expiresAt} <= now()`,
          clientId: sql<string>`(select g.client_id from oauth_grants g where g.id = ${oauthTokens.grantId})`,
          grantRevoked: sql<boolean>`exists (select 1 from oauth_grants g where g.id = ${oauthTokens.grantId} and g.revoked_at is not null)`,
        });
      if (row) return { token: row };
      const [used] = await db
        .select({ grantId: oauthTokens.grantId })
        .from(oauthTokens)
        .where(and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, kind)));
      return used ? { reused: used.grantId } : undefined;
    },

    /** Revokes a grant: every token of it stops working at once. False when it was not live. */
    async revokeGrant(grantId: string, organizationId?: string): Promise<boolean> {
      const rows = await db
        .update(oauthGrants)
        .set({ revokedAt: sql`now()` })
        .where(
          and(
            eq(oauthGrants.id, grantId),
            isNull(oauthGrants.revokedAt),
            organizationId ? eq(oauthGrants.organizationId, organizationId) : undefined,
          ),
        )
        .returning({ id: oauthGrants.id });
      return rows.length > 0;
    },

    /** An access or refresh token of the client, for RFC 7009 revocation. */
    async findToken(tokenHash: string) {
      const [row] = await db
        .select({ kind: oauthTokens.kind, grantId: oauthTokens.grantId, clientId: oauthGrants.clientId })
        .from(oauthTokens)
        .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
        .where(eq(oauthTokens.tokenHash, tokenHash));
      return row;
    },

    /** Ends one access token now. */
    async expireToken(tokenHash: string): Promise<void> {
      await db
        .update(oauthTokens)
        .set({ expiresAt: sql`now()` })
        .where(eq(oauthTokens.tokenHash, tokenHash));
    },

    /**
     * The grant an access token stands for, while the token is unexpired, its grant live and its
     * member still in the organization.
     */
    async accessTokenGrant(tokenHash: string): Promise<AccessTokenGrant | undefined> {
      const [row] = await db
        .select({
          grantId: oauthGrants.id,
          organizationId: oauthGrants.organizationId,
          userId: oauthGrants.userId,
          clientName: oauthClients.clientName,
          lastUsedAt: oauthGrants.lastUsedAt,
        })
        .from(oauthTokens)
        .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
        .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
        .where(
          and(
            eq(oauthTokens.tokenHash, tokenHash),
            eq(oauthTokens.kind, 'access'),
            gt(oauthTokens.expiresAt, sql`now()`),
            isNull(oauthGrants.revokedAt),
            users.isMember(grantUser, grantOrganization),
          ),
        );
      return row;
    },

    /** Stamps a grant's last use, unless it was stamped within the last `seconds`. */
    async touchGrant(grantId: string, seconds: number): Promise<void> {
      await db
        .update(oauthGrants)
        .set({ lastUsedAt: sql`now()` })
        .where(
          and(
            eq(oauthGrants.id, grantId),
            or(
              isNull(oauthGrants.lastUsedAt),
              lt(oauthGrants.lastUsedAt, sql`now() - make_interval(secs => ${seconds})`),
            ),
          ),
        );
    },

    /** The organization's live grants, newest first; only `userId`'s when given. */
    async listGrants(organizationId: string, userId?: string): Promise<GrantRow[]> {
      return db
        .select({
          id: oauthGrants.id,
          clientName: oauthClients.clientName,
          userId: oauthGrants.userId,
          userName: users.displayName(grantUser),
          createdAt: oauthGrants.createdAt,
          lastUsedAt: oauthGrants.lastUsedAt,
        })
        .from(oauthGrants)
        .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
        .where(
          and(
            eq(oauthGrants.organizationId, organizationId),
            isNull(oauthGrants.revokedAt),
            userId ? eq(oauthGrants.userId, userId) : undefined,
          ),
        )
        .orderBy(desc(oauthGrants.createdAt));
    },

    /** A live grant of the organization: who granted it. */
    async getGrant(organizationId: string, id: string) {
      const [row] = await db
        .select({ id: oauthGrants.id, userId: oauthGrants.userId })
        .from(oauthGrants)
        .where(
          and(
            eq(oauthGrants.id, id),
            eq(oauthGrants.organizationId, organizationId),
            isNull(oauthGrants.revokedAt),
          ),
        );
      return row;
    },

    /** Whether the user belongs to the organization (the consent's choice). */
    async isMember(userId: string, organizationId: string): Promise<boolean> {
      const { rows } = await db.execute<{ member: boolean }>(
        sql`select ${users.isMember(sql`${userId}::uuid`, sql`${organizationId}::uuid`)} as member`,
      );
      return rows[0]?.member === true;
    },
  };
}
export type OAuthRepository = ReturnType<typeof createOAuthRepository>;
