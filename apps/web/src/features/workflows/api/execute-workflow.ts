// The Execute dialog's confirm: POST /api/workflows/:id/execute → 202 with the pending Execution
// (docs/product-rules.md). Afterwards the workflow's executions and the general list are refreshed.
import type { Execution, ExecuteWorkflowInput } from '@crewline/contracts';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { apiRequest, parseApiError } from '@/lib/api';
import { readPlanLimitError } from '@/lib/billing';
import { storeExecution } from '@/lib/execution-summaries';
import { queryKeys } from '@/lib/queries/keys';

import { executionFailedToast, executionStartedToast } from '../list/execution-logic';

/**
 * After a run starts or stops: every executions list and detail (queryKeys.executions.all: the
 * general list, each workflow's runs, one run) and the organization's figures.
 */
export function refreshExecutions(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.executions.all });
  void queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all });
}

/** The server's reason for a refused request (409 draft, 400 bad parameters…), never for a 5xx. */
export function clientErrorMessage(error: unknown): string | null {
  const { status, message } = parseApiError(error);
  return status !== null && status >= 400 && status < 500 && status !== 401 ? message : null;
}

export function useExecuteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; name: string; body: ExecuteWorkflowInput }) =>
      apiRequest<Execution>('POST', `/api/workflows/${encodeURIComponent(id)}/execute`, body),
    onSuccess: (execution, { name, body }) => {
      // Show the new run at once (its summary in the lists); the refetch below brings the server's view.
      if (execution?.id) storeExecution(queryClient, execution, { add: true });
      refreshExecutions(queryClient);
      toast(executionStartedToast(name, body.dynamicInstructions));
    },
    onError: (error) => {
      // The plan's monthly executions are used up: the Execute dialog shows it with 'Upgrade'.
      if (readPlanLimitError(error)) return;
      toast(executionFailedToast(clientErrorMessage(error)));
    },
  });
}
