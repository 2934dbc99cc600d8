import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { authSessions, userOrganizations, type Db } from '@crewline/db';

export function createRealtimeRepository(db: Db) {
  return {
    /** Whether the user belongs to the organization (any membership role). */
    async isMember(userId: string, organizationId: string): Promise<boolean> {
      const rows = await db
        .select({ id: userOrganizations.id })
        .from(userOrganizations)
        .where(
          and(eq(userOrganizations.userId, userId), eq(userOrganizations.organizationId, organizationId)),
        )
        .limit(1);
      return rows.length > 0;
    },

    /**
     * For each session that is still live (not revoked, not expired, its user still a member of its
     * organization), the organizations its user may follow. A session missing from the map is over.
     */
    async followableOrganizations(sessionIds: string[]): Promise<Map<string, Set<string>>> {
      if (sessionIds.length === 0) return new Map();
      const rows = await db
        .select({
          sessionId: authSessions.id,
          sessionOrganizationId: authSessions.organizationId,
          organizationId: userOrganizations.organizationId,
        })
        .from(authSessions)
        .innerJoin(userOrganizations, eq(userOrganizations.userId, authSessions.userId))
        .where(
          and(
            inArray(authSessions.id, sessionIds),
            isNull(authSessions.revokedAt),
            gt(authSessions.expiresAt, sql`now()`),
          ),
        );
      const followable = new Map<string, Set<string>>();
      const ownOrganization = new Map<string, string>();
      for (const row of rows) {
        let orgs = followable.get(row.sessionId);
        if (!orgs) followable.set(row.sessionId, (orgs = new Set()));
        orgs.add(row.organizationId);
        ownOrganization.set(row.sessionId, row.sessionOrganizationId);
      }
      // A session whose user left its own organization no longer authenticates.
      return new Map([...followable].filter(([id, orgs]) => orgs.has(ownOrganization.get(id)!)));
    },
  };
}
export type RealtimeRepository = ReturnType<typeof createRealtimeRepository>;
