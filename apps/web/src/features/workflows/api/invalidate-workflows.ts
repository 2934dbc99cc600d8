// After a workflow is created, saved, activated or deleted: every workflow list and detail (under
// queryKeys.workflows.all, on this page and the dashboard) and the organization's figures.
import type { QueryClient } from '@tanstack/react-query';

import { queryKeys } from '@/lib/queries/keys';

/** `executions`: the workflow's runs went too (a delete), so the run lists are re-read as well. */
export function invalidateWorkflows(queryClient: QueryClient, options: { executions?: boolean } = {}): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.workflows.all });
  void queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all });
  if (options.executions) void queryClient.invalidateQueries({ queryKey: queryKeys.executions.all });
}
