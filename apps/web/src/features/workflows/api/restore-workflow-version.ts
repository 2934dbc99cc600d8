// POST /api/workflows/:id/versions/:version/restore: the version becomes the workflow's saved working
// copy; no version is rewritten, and an active workflow records a new one (docs/product-rules.md).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiRequest } from '@/lib/api';
import { queryKeys } from '@/lib/queries/keys';
import type { WorkflowWithWarnings } from '@/lib/queries/workflows';

import { invalidateWorkflows } from './invalidate-workflows';

export function useRestoreWorkflowVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      apiRequest<WorkflowWithWarnings>(
        'POST',
        `/api/workflows/${encodeURIComponent(id)}/versions/${version}/restore`,
      ),
    onSuccess: (workflow, { id }) => {
      // The builder reads the answer at once; queryKeys.workflows.all (the lists, this workflow and its
      // versions) and the organization's figures are re-read.
      queryClient.setQueryData(queryKeys.workflows.detail(id), workflow);
      invalidateWorkflows(queryClient);
    },
  });
}
