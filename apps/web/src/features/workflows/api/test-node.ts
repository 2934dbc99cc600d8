// "Test this node": POST /api/workflows/:id/nodes/:nodeId/test runs one step outside any run (nothing
// is stored, so nothing is refreshed afterwards). The dialog shows the result or the refusal inline.
import type { TestNodeInput } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-call';

export function useTestNode() {
  return useMutation({
    mutationFn: ({ workflowId, nodeId, body }: { workflowId: string; nodeId: string; body: TestNodeInput }) =>
      api.call(endpoints.workflows.testNode, { params: { id: workflowId, nodeId }, body }),
  });
}
