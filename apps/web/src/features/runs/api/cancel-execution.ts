// The execution card's Cancel (docs/product-rules.md): POST /api/executions/:id/cancel → the cancelled
// Execution; 409 when the run has already finished.
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { clientErrorMessage } from '@/lib/client-error';
import { storeExecution } from '@/lib/execution-summaries';
import { queryKeys } from '@/lib/queries/keys';

import { cancelFailedToast, EXECUTION_CANCELLED_TOAST } from '../execution-facts';
import { refreshExecutions } from './refresh-executions';

export function useCancelExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(endpoints.executions.cancel, { params: { id } }),
    onSuccess: (execution) => {
      if (execution?.id) {
        storeExecution(queryClient, execution, { add: false });
      }
      refreshExecutions(queryClient);
      // A waiting run's approval is cancelled with it: the Inbox and its count say so now, not only
      // once the run's event arrives.
      void queryClient.invalidateQueries({ queryKey: queryKeys.approvals.all });
      toast(EXECUTION_CANCELLED_TOAST);
    },
    onError: (error) => {
      // 409: it finished meanwhile; show the server's word and the run's real state.
      refreshExecutions(queryClient);
      toast(cancelFailedToast(clientErrorMessage(error)));
    },
  });
}
