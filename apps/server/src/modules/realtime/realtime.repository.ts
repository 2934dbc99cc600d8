import { sql } from 'drizzle-orm';
import type { Db } from '@crewline/db';
import { isMemberSql, sessionOrganizationsSql } from '../auth/memberships.columns';

type SessionOrganizationRow = {
  session_id: string;
  session_organization_id: string;
  organization_id: string;
};

/** Who may follow what, read with the statements auth offers over its sessions and memberships. */
export function createRealtimeRepository(db: Db) {
  return {
    /** Whether the user belongs to the organization (any membership role). */
    async isMember(userId: string, organizationId: string): Promise<boolean> {
      const { rows } = await db.execute<{ member: boolean }>(
        sql`select ${isMemberSql(sql`${userId}`, sql`${organizationId}`)} as member`,
      );
      return rows[0].member;
    },

    /**
     * For each session that is still live (not revoked, not expired, its user still a member of its
     * organization), the organizations its user may follow. A session missing from the map is over.
     */
    async followableOrganizations(sessionIds: string[]): Promise<Map<string, Set<string>>> {
      if (sessionIds.length === 0) return new Map();
      const { rows } = await db.execute<SessionOrganizationRow>(sessionOrganizationsSql(sessionIds));
      const followable = new Map<string, Set<string>>();
      const ownOrganization = new Map<string, string>();
      for (const row of rows) {
        let orgs = followable.get(row.session_id);
        if (!orgs) followable.set(row.session_id, (orgs = new Set()));
        orgs.add(row.organization_id);
        ownOrganization.set(row.session_id, row.session_organization_id);
      }
      // A session whose user left its own organization no longer authenticates.
      return new Map([...followable].filter(([id, orgs]) => orgs.has(ownOrganization.get(id)!)));
    },
  };
}
export type RealtimeRepository = ReturnType<typeof createRealtimeRepository>;
