import type { Connection } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from '@/lib/queries/keys';

/** GET /api/tools/configurations — the organization's connections (secrets masked). */
export function useConnections() {
  return useQuery<Connection[]>({ queryKey: queryKeys.connections, staleTime: 30_000 });
}
