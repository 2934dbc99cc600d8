// GET /api/workflows (the workflows page, the dashboard) and GET /api/workflows/:id (the builder).
import type { Workflow } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { isApiStatus } from '../api';
import { queryKeys } from './keys';

/** A workflow as the builder reads and saves it: with the non-blocking warnings of its definition. */
export type WorkflowWithWarnings = Workflow & { warnings?: string[] };

/** The list is re-read when a screen showing it opens and the copy is older than this. */
const WORKFLOWS_STALE_TIME = 30_000;

export function useWorkflows() {
  return useQuery<Workflow[]>({ queryKey: queryKeys.workflows.all, staleTime: WORKFLOWS_STALE_TIME });
}

/** One workflow for the builder. */
export function useWorkflow(id: string | undefined) {
  return useQuery<WorkflowWithWarnings>({
    queryKey: queryKeys.workflows.detail(id ?? ''),
    enabled: !!id,
    // The builder edits its own copy: a refetch must not reset the canvas, and a 404 is final.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: (count, error) => !isApiStatus(error, 404) && !isApiStatus(error, 403) && count < 2,
  });
}
