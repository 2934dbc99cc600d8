// The card's Activate: PUT /api/workflows/:id { status: 'active' } (spec part 1 §4, §8).
import type { Workflow } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { apiRequest } from '@/lib/api';

import { ACTIVATION_FAILED_TOAST, activatedToast } from '../list/workflow-list-logic';
import { refreshWorkflowLists, workflowListKeys } from './list-workflows';

export function useActivateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) =>
      apiRequest<Workflow>('PUT', `/api/workflows/${encodeURIComponent(id)}`, { status: 'active' }),
    onSuccess: (workflow, { id, name }) => {
      queryClient.setQueryData<Workflow[]>(workflowListKeys.workflows, (list) =>
        list?.map((item) => (item.id === id ? { ...item, ...(workflow ?? {}), status: 'active' } : item)),
      );
      refreshWorkflowLists(queryClient);
      toast(activatedToast(workflow?.name || name));
    },
    onError: () => toast(ACTIVATION_FAILED_TOAST),
  });
}
