// PUT /api/workflows/:id: Save Draft / Activate of an existing workflow (spec part 2 §2, §4).
import type { UpdateWorkflowInput } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';

import { invalidateWorkflows } from './create-workflow';
import type { WorkflowWithWarnings } from './get-workflow';

export function useUpdateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: UpdateWorkflowInput }) =>
      apiRequest<WorkflowWithWarnings>('PUT', `/api/workflows/${encodeURIComponent(id)}`, input),
    onSuccess: () => invalidateWorkflows(queryClient),
  });
}
