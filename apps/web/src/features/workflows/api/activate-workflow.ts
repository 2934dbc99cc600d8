// The card's Activate, and its Resume of a paused workflow (the server checks both alike):
// PUT /api/workflows/:id { status: 'active' }. Behind an activation gate the server may first run the
// evaluation (202: the card says so and leaves the workflow as it was) or refuse (409 evaluation_failed:
// the server's words; the builder shows the failed items).
import type { Workflow } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

import {
  activationRefusedToast,
  evaluationFailedOf,
  evaluationRunningOf,
  evaluationRunningToast,
  savedWorkflowOf,
} from '../activation-answers';
import { ACTIVATION_FAILED_TOAST, activatedToast, resumedToast } from '../workflow-actions';
import { invalidateWorkflows } from './invalidate-workflows';

export function useActivateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string; resume?: boolean }) =>
      api.call(endpoints.workflows.update, { params: { id }, body: { status: 'active' } }),
    onSuccess: (answer, { id, name, resume }) => {
      const running = evaluationRunningOf(answer);
      if (running) {
        // Not active yet: the version is recorded when the evaluation passes.
        invalidateWorkflows(queryClient);
        toast(evaluationRunningToast(running));
        return;
      }
      const workflow = savedWorkflowOf(answer);
      queryClient.setQueryData<Workflow[]>(queryKeys.workflows.all, (list) =>
        list?.map((item) => (item.id === id ? { ...item, ...(workflow ?? {}), status: 'active' } : item)),
      );
      invalidateWorkflows(queryClient);
      toast((resume ? resumedToast : activatedToast)(workflow?.name || name));
    },
    onError: (error) => {
      const refusal = evaluationFailedOf(error);
      toast(refusal ? activationRefusedToast(refusal) : ACTIVATION_FAILED_TOAST);
    },
  });
}
