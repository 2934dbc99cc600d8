// PUT /api/workflows/:id: Save Draft / Activate of an existing workflow.
import type { UpdateWorkflowInput } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import type { WorkflowWithWarnings } from '@/lib/queries/workflows';

import { invalidateWorkflows } from './invalidate-workflows';

export function useUpdateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateWorkflowInput }) =>
      apiRequest<WorkflowWithWarnings>('PUT', `/api/workflows/${encodeURIComponent(id)}`, input),
    onSuccess: () => invalidateWorkflows(queryClient),
  });
}
