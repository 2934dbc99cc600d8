// POST /api/workflows/:id/versions/:version/restore: the version becomes the workflow's saved working
// copy; no version is rewritten, and an active workflow records a new one (docs/product-rules.md).
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

import { invalidateWorkflows } from './invalidate-workflows';

export function useRestoreWorkflowVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, version }: { id: string; version: number }) =>
      api.call(endpoints.workflows.restore, { params: { id, version } }),
    onSuccess: (workflow, { id }) => {
      // The builder reads the answer at once; queryKeys.workflows.all (the lists, this workflow and its
      // versions) and the organization's figures are re-read.
      queryClient.setQueryData(queryKeys.workflows.detail(id), workflow);
      invalidateWorkflows(queryClient);
    },
  });
}
