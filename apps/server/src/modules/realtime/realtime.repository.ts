import { and, eq } from 'drizzle-orm';
import { userOrganizations, type Db } from '@crewline/db';

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
  };
}
export type RealtimeRepository = ReturnType<typeof createRealtimeRepository>;
