import { isUuid } from '../../platform/ids';
import type { AuthContext } from '../../platform/auth/auth-context';
import type { RealtimeRepository } from './realtime.repository';

export function createRealtimeService(repository: RealtimeRepository) {
  return {
    /**
     * A socket may follow any organization its user belongs to (the data model allows several), never
     * another one. The session's own organization needs no query: authenticating it joined the membership.
     */
    async canSubscribe(auth: AuthContext, organizationId: string): Promise<boolean> {
      if (organizationId === auth.organizationId) return true;
      // Not an id at all: refuse without letting Postgres fail on the uuid cast.
      if (!isUuid(organizationId)) return false;
      return repository.isMember(auth.userId, organizationId);
    },

    followableOrganizations(sessionIds: string[]): Promise<Map<string, Set<string>>> {
      return repository.followableOrganizations(sessionIds);
    },
  };
}
export type RealtimeService = ReturnType<typeof createRealtimeService>;
