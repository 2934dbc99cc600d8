// GET /api/approvals beyond the viewer's pending ones (approvals.ts): the organization's decided
// approvals (the Inbox's Decided tab) and one run's (its details), and the members who may decide.
// Screens load this module lazily; the shell reads only approvals.ts.
import type { Approval, Member } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { APPROVALS_STALE_TIME } from '@/lib/queries/approvals';
import { queryKeys } from '@/lib/queries/keys';

/** The organization's recently decided approvals, newest first (the Inbox's Decided tab). */
export function useDecidedApprovals(enabled: boolean) {
  return useQuery<Approval[]>({
    queryKey: queryKeys.approvals.list({ status: 'decided' }),
    enabled,
    staleTime: APPROVALS_STALE_TIME,
  });
}

/** One run's approvals: the pending one(s) and those decided (its details' approval panel and audit). */
export function useExecutionApprovals(executionId: string, enabled: boolean) {
  const pending = useQuery<Approval[]>({
    queryKey: queryKeys.approvals.list({ executionId, status: 'pending' }),
    enabled: enabled && !!executionId,
    staleTime: 0,
  });
  const decided = useQuery<Approval[]>({
    queryKey: queryKeys.approvals.list({ executionId, status: 'decided' }),
    enabled: enabled && !!executionId,
    staleTime: 0,
  });
  return { pending, decided };
}

/** The organization's members, to name who an approval waits for (read only when it names people). */
export function useApprovalMembers(orgId: string, enabled: boolean) {
  return useQuery<Member[]>({
    queryKey: queryKeys.organizations.members(orgId),
    enabled: enabled && !!orgId,
    staleTime: APPROVALS_STALE_TIME,
  });
}
