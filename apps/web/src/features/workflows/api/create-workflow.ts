// POST /api/workflows: Save Draft / Activate of a new workflow, and Import.
import type { CreateWorkflowInput } from '@crewline/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import type { WorkflowWithWarnings } from '@/lib/queries/workflows';

import { invalidateWorkflows } from './invalidate-workflows';

export function useCreateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWorkflowInput) =>
      apiRequest<WorkflowWithWarnings>('POST', '/api/workflows', input),
    onSuccess: () => invalidateWorkflows(queryClient),
  });
}
