// The card's Pause: PUT /api/workflows/:id { status: 'paused' } (its triggers stop firing at once).
import type { Workflow } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

import { savedWorkflowOf } from '../activation-answers';
import { PAUSE_FAILED_TOAST, pausedToast } from '../workflow-actions';
import { invalidateWorkflows } from './invalidate-workflows';

export function usePauseWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) =>
      api.call(endpoints.workflows.update, { params: { id }, body: { status: 'paused' } }),
    onSuccess: (answer, { id, name }) => {
      // A pause is never an activation: the gate's 202 does not come, but the answer's type has it.
      const workflow = savedWorkflowOf(answer);
      queryClient.setQueryData<Workflow[]>(queryKeys.workflows.all, (list) =>
        list?.map((item) => (item.id === id ? { ...item, ...(workflow ?? {}), status: 'paused' } : item)),
      );
      invalidateWorkflows(queryClient);
      toast(pausedToast(workflow?.name || name));
    },
    onError: () => toast(PAUSE_FAILED_TOAST),
  });
}
