// GET /api/executions?workflowId=&limit=1: the newest run of one workflow, for a card's Last Result
// when the general list (the newest runs of the organization) may not reach back far enough.
import type { ExecutionSummary } from '@crewline/contracts';
import type { QueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';

import { latestExecutionOf } from '../list/workflow-list-logic';

export const workflowExecutionsKey = (workflowId: string) =>
  ['/api/executions', { workflowId, limit: 1 }] as const;

export async function fetchLatestExecution(
  queryClient: QueryClient,
  workflowId: string,
): Promise<ExecutionSummary | null> {
  const list = await queryClient.fetchQuery({
    queryKey: workflowExecutionsKey(workflowId),
    queryFn: ({ signal }) =>
      apiRequest<ExecutionSummary[]>(
        'GET',
        `/api/executions?workflowId=${encodeURIComponent(workflowId)}&limit=1`,
        undefined,
        { signal },
      ),
    staleTime: 0,
  });
  return latestExecutionOf(list, workflowId);
}
