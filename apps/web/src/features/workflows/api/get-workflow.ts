// GET /api/workflows/:id for the builder (spec part 2 §2, §7): the workflow and its warnings.
import type { Workflow } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { isApiStatus } from '@/lib/api';

export type WorkflowWithWarnings = Workflow & { warnings?: string[] };

export const workflowDetailKey = (id: string) => ['/api/workflows', id] as const;

export function useWorkflow(id: string | undefined) {
  return useQuery<WorkflowWithWarnings>({
    queryKey: workflowDetailKey(id ?? ''),
    enabled: !!id,
    // The builder edits its own copy: a refetch must not reset the canvas, and a 404 is final.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: (count, error) => !isApiStatus(error, 404) && !isApiStatus(error, 403) && count < 2,
  });
}
