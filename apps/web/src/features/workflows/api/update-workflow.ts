// PUT /api/workflows/:id: Save Draft / Activate of an existing workflow.
import type { UpdateWorkflowInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';

import { invalidateWorkflows } from './invalidate-workflows';

export function useUpdateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateWorkflowInput }) =>
      api.call(endpoints.workflows.update, { params: { id }, body: input }),
    onSuccess: () => invalidateWorkflows(queryClient),
  });
}
