// GET /api/system/status: the live health figures shown by the dashboard's System Status card and
// the analytics page's System Health panel (one cache entry for both).
import type { SystemStatus } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

/** Live health figures; re-checked every 30 seconds while a screen shows them. */
export function useSystemStatus() {
  return useQuery<SystemStatus>({
    queryKey: queryKeys.systemStatus,
    staleTime: 30_000,
    refetchInterval: 30_000,
  });
}
