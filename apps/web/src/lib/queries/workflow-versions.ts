// GET /api/workflows/:id/versions and /versions/:n: a workflow's recorded versions (docs/product-rules.md,
// Workflow versions). A version never changes, so one read is enough; the list is refreshed by every
// save, activate or restore (they invalidate queryKeys.workflows.all, a prefix of these keys).
import type { WorkflowVersion, WorkflowVersionSummary } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

/** Newest first. */
export function useWorkflowVersions(
  workflowId: string | null | undefined,
  options: { enabled?: boolean } = {},
) {
  return useQuery<WorkflowVersionSummary[]>({
    queryKey: queryKeys.workflows.versions(workflowId ?? ''),
    enabled: !!workflowId && (options.enabled ?? true),
  });
}

export function useWorkflowVersion(
  workflowId: string | null | undefined,
  version: number | null | undefined,
) {
  return useQuery<WorkflowVersion>({
    queryKey: queryKeys.workflows.version(workflowId ?? '', version ?? 0),
    enabled: !!workflowId && !!version,
  });
}
