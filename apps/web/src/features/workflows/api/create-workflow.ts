// POST /api/workflows: Save Draft / Activate of a new workflow, and Import (spec part 2 §2, §4).
import type { CreateWorkflowInput } from '@crewline/contracts';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';

import type { WorkflowWithWarnings } from './get-workflow';

/** Every workflow list and detail (keys start with '/api/workflows') and the organization stats. */
export function invalidateWorkflows(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ['/api/workflows'] });
  void queryClient.invalidateQueries({ queryKey: ['/api/organizations'] });
}

export function useCreateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWorkflowInput) =>
      apiRequest<WorkflowWithWarnings>('POST', '/api/workflows', input),
    onSuccess: () => invalidateWorkflows(queryClient),
  });
}
