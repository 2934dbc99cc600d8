import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';

import { queryKeys } from '@/lib/queries/keys';

/** The Refresh button spins at least this long, so a quick answer is still seen to happen. */
const MIN_REFRESH_MS = 1000;

/**
 * Refresh: re-reads what the page shows (the organization's analytics and stats, the Costs tab's
 * spend, the recent runs, the system status) and reports `refreshing` for at least MIN_REFRESH_MS.
 */
export function useRefreshAnalytics(orgId: string) {
  const queryClient = useQueryClient();
  const [refreshing, setRefreshing] = useState(false);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    try {
      await Promise.all([
        queryClient.refetchQueries({ queryKey: queryKeys.organizations.of(orgId), type: 'active' }),
        queryClient.refetchQueries({ queryKey: queryKeys.costs.all, type: 'active' }),
        queryClient.refetchQueries({ queryKey: queryKeys.executions.newest, exact: true, type: 'active' }),
        queryClient.refetchQueries({ queryKey: queryKeys.systemStatus, type: 'active' }),
        new Promise((resolve) => setTimeout(resolve, MIN_REFRESH_MS)),
      ]);
    } finally {
      setRefreshing(false);
    }
  }, [queryClient, orgId]);

  return { refreshing, refresh };
}
