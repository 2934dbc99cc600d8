// GET /api/workflows and GET /api/executions for the workflows page. Keys are the request paths
// (the default query function joins them with '/'), so the dashboard's lists share these entries.
import type { ExecutionSummary, Workflow } from '@crewline/contracts';
import { useQuery, type QueryClient } from '@tanstack/react-query';

export const workflowListKeys = {
  workflows: ['/api/workflows'] as const,
  executions: ['/api/executions'] as const,
  organizations: ['/api/organizations'] as const,
};

/** The lists re-read data older than this when the page is opened again. */
const LIST_STALE_TIME = 30_000;

export function useWorkflowList() {
  return useQuery<Workflow[]>({ queryKey: workflowListKeys.workflows, staleTime: LIST_STALE_TIME });
}

/** The organization's newest run summaries (the server's default page): the Executions tab and each card's Last Result. */
export function useExecutionList() {
  return useQuery<ExecutionSummary[]>({ queryKey: workflowListKeys.executions, staleTime: LIST_STALE_TIME });
}

/** After an activate or delete: the workflow lists (here and on the dashboard) and the stats. */
export function refreshWorkflowLists(queryClient: QueryClient, options: { executions?: boolean } = {}) {
  void queryClient.invalidateQueries({ queryKey: workflowListKeys.workflows });
  void queryClient.invalidateQueries({ queryKey: workflowListKeys.organizations });
  if (options.executions) void queryClient.invalidateQueries({ queryKey: workflowListKeys.executions });
}
