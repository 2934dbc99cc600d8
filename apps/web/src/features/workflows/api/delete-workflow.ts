// The card's Delete Workflow: DELETE /api/workflows/:id, which also removes its executions
// (docs/product-rules.md).
import type { ExecutionSummary, Workflow } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

import { DELETE_FAILED_TOAST, DELETED_TOAST } from '../workflow-actions';
import { invalidateWorkflows } from './invalidate-workflows';

export function useDeleteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; name: string }) =>
      api.call(endpoints.workflows.remove, { params: { id } }),
    onSuccess: (_data, { id }) => {
      queryClient.setQueryData<Workflow[]>(queryKeys.workflows.all, (list) =>
        list?.filter((workflow) => workflow.id !== id),
      );
      queryClient.setQueryData<ExecutionSummary[]>(queryKeys.executions.newest, (list) =>
        list?.filter((execution) => execution.workflowId !== id),
      );
      queryClient.removeQueries({ queryKey: queryKeys.workflows.detail(id) });
      invalidateWorkflows(queryClient, { executions: true });
      toast(DELETED_TOAST);
    },
    onError: () => toast(DELETE_FAILED_TOAST),
  });
}
