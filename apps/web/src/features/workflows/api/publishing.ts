// A workflow's publishing on the organization's MCP server: GET /api/workflows/:id/publishing (the
// builder's MCP section reads it), and PUT to publish, change the tool or stop (`{ mcp: null }`;
// owners and admins).
import type { UpdateWorkflowPublishing, WorkflowPublishing } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { mcpKeys } from '@/lib/mcp-keys';

/** Null id (a workflow not saved yet): nothing to read. */
export function useWorkflowPublishing(workflowId: string | null) {
  return useQuery<WorkflowPublishing>({
    queryKey: mcpKeys.publishing(workflowId ?? ''),
    enabled: !!workflowId,
    staleTime: 30_000,
    // The section shows the server's copy until the first edit; a refetch on focus changes nothing typed.
    refetchOnWindowFocus: false,
  });
}

export function useSetPublishing(workflowId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateWorkflowPublishing) => {
      if (!workflowId) throw new Error('The workflow is not saved yet');
      return api.call(endpoints.mcp.setPublishing, { params: { id: workflowId }, body });
    },
    onSuccess: (answer) => {
      if (workflowId) queryClient.setQueryData(mcpKeys.publishing(workflowId), answer);
      // Settings' MCP server card lists the published tools.
      void queryClient.invalidateQueries({ queryKey: mcpKeys.server });
    },
  });
}
