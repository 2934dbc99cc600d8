// The Execute dialog's confirm: POST /api/workflows/:id/execute → 202 with the pending Execution
// (docs/product-rules.md). Afterwards the workflow's executions and the general list are refreshed.
import type { ExecuteWorkflowInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { readPlanLimitError } from '@/lib/billing';
import { clientErrorMessage } from '@/lib/client-error';
import { storeExecution } from '@/lib/execution-summaries';

import { refreshExecutions } from '@/features/runs/api/refresh-executions';
import { executionFailedToast, executionStartedToast } from '../list/execute-parameters';

export function useExecuteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; name: string; body: ExecuteWorkflowInput }) =>
      api.call(endpoints.executions.execute, { params: { id }, body }),
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
