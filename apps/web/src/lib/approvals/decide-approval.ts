// POST /api/approvals/:id/decision: Approve or Reject, from the Inbox or a run's details. The answer
// (the approval with the decision in it) is patched into every cached approval list at once, so the
// card shows the outcome and the navigation's count drops; the lists are marked stale, and the
// approval_decided event (or the next read) takes the decided approval out of the pending ones.
import type { Approval, ApprovalDecisionRequest } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';

export interface DecideApproval {
  approval: Pick<Approval, 'id' | 'executionId'>;
  body: ApprovalDecisionRequest;
}

/** The decided approval in place of its former copy in every cached list and its own entry. */
function patchApproval(queryClient: QueryClient, approval: Approval): void {
  queryClient.setQueriesData<Approval[] | Approval>({ queryKey: queryKeys.approvals.all }, (cached) => {
    if (Array.isArray(cached))
      return cached.some((item) => item.id === approval.id)
        ? cached.map((item) => (item.id === approval.id ? approval : item))
        : cached;
    return cached && cached.id === approval.id ? approval : cached;
  });
}

export function useDecideApproval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ approval, body }: DecideApproval) =>
      api.call(endpoints.approvals.decide, { params: { id: approval.id }, body }),
    onSuccess: (approval) => {
      if (approval) patchApproval(queryClient, approval);
    },
    onSettled: (_answer, _error, { approval }) => {
      // Stale, not refetched here: the card shows the outcome until the event's refetch (or the next read).
      void queryClient.invalidateQueries({ queryKey: queryKeys.approvals.all, refetchType: 'none' });
      // The run goes on (or was refused): its details read it again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.executions.detail(approval.executionId) });
    },
  });
}
