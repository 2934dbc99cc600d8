import type { AuthContext } from '../auth/auth.service';
import type { RealtimeRepository } from './realtime.repository';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createRealtimeService(repository: RealtimeRepository) {
  return {
    /**
     * A socket may follow any organization its user belongs to (the data model allows several), never
     * another one. The session's own organization needs no query: authenticating it joined the membership.
     */
    async canSubscribe(auth: AuthContext, organizationId: string): Promise<boolean> {
      if (organizationId === auth.organizationId) return true;
      // Not an id at all: refuse without letting Postgres fail on the uuid cast.
      if (!uuidPattern.test(organizationId)) return false;
      return repository.isMember(auth.userId, organizationId);
    },

    followableOrganizations(sessionIds: string[]): Promise<Map<string, Set<string>>> {
      return repository.followableOrganizations(sessionIds);
    },
  };
}
export type RealtimeService = ReturnType<typeof createRealtimeService>;
