// Retry of a failed or cancelled run, or of a completed one from an approval that said no: POST
// /api/executions/:id/retry → 202 with the new pending run, which reuses the steps the retried run
// completed (or, with `fromNodeId`, the steps before that node). The new run is shown in the lists
// at once; the lists and the organization's figures are then re-read.
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { clientErrorMessage } from '@/lib/client-error';
import { storeExecution } from '@/lib/execution-summaries';
import { queryKeys } from '@/lib/queries/keys';

import { retryFailedToast, retryStartedToast } from '../run-review';

export interface RetryExecutionVariables {
  id: string;
  /** For the toast. */
  workflowName: string;
  /**
   * Sequential runs only: run again from this step (an agent, an approval); the steps before it
   * are reused.
   */
  fromNodeId?: string;
  /** The step's name, for the toast. */
  fromStepName?: string;
}

export function useRetryExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fromNodeId }: RetryExecutionVariables) =>
      api.call(endpoints.executions.retry, { params: { id }, body: fromNodeId ? { fromNodeId } : {} }),
    onSuccess: (execution, { workflowName, fromStepName }) => {
      if (execution?.id) storeExecution(queryClient, execution, { add: true });
      void queryClient.invalidateQueries({ queryKey: queryKeys.executions.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all });
      toast(retryStartedToast(workflowName, fromStepName));
    },
    onError: (error) => {
      // 409/400: the run changed meanwhile or the step is unknown; show the server's word and the real state.
      void queryClient.invalidateQueries({ queryKey: queryKeys.executions.all });
      toast(retryFailedToast(clientErrorMessage(error)));
    },
  });
}
