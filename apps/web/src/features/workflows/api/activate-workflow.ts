// The card's Activate, and its Resume of a paused workflow (the server checks both alike):
// PUT /api/workflows/:id { status: 'active' }.
import type { Workflow } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

import { ACTIVATION_FAILED_TOAST, activatedToast, resumedToast } from '../workflow-actions';
import { invalidateWorkflows } from './invalidate-workflows';

export function useActivateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string; resume?: boolean }) =>
      api.call(endpoints.workflows.update, { params: { id }, body: { status: 'active' } }),
    onSuccess: (workflow, { id, name, resume }) => {
      queryClient.setQueryData<Workflow[]>(queryKeys.workflows.all, (list) =>
        list?.map((item) => (item.id === id ? { ...item, ...(workflow ?? {}), status: 'active' } : item)),
      );
      invalidateWorkflows(queryClient);
      toast((resume ? resumedToast : activatedToast)(workflow?.name || name));
    },
    onError: () => toast(ACTIVATION_FAILED_TOAST),
  });
}
