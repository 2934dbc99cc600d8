import type { QueryClient } from '@tanstack/react-query';

import { queryKeys } from '@/lib/queries/keys';

/**
 * After a run starts or stops: every executions list and detail (queryKeys.executions.all: the
 * general list, each workflow's runs, one run) and the organization's figures.
 */
export function refreshExecutions(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.executions.all });
  void queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all });
}
