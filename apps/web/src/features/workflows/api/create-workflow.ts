// POST /api/workflows: Save Draft / Activate of a new workflow, and Import.
import type { CreateWorkflowInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';

import { invalidateWorkflows } from './invalidate-workflows';

export function useCreateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWorkflowInput) => api.call(endpoints.workflows.create, { body: input }),
    onSuccess: () => invalidateWorkflows(queryClient),
  });
}
