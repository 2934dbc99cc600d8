// GET /api/approvals: what waits for people's decisions (docs/product-rules.md, People in the loop).
// The viewer's pending ones feed the Inbox and the count in the navigation (one cache entry for both:
// the shell reads it through the default query function, so no zod comes with it); a run's own feed
// its details (lib/approvals/approval-lists.ts, outside lib/queries so the dashboard does not carry them). The approval events refresh
// them all (lib/realtime-invalidation.ts).
import type { Approval } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { useRealtimeStatus } from '../realtime';
import { queryKeys } from './keys';

/** The lists are re-read when a screen showing them opens and the copy is older than this. */
export const APPROVALS_STALE_TIME = 30_000;
/** Without a live connection the viewer's pending approvals are re-read this often. */
const FALLBACK_POLL_MS = 60_000;

const MINE_PENDING = queryKeys.approvals.list({ status: 'pending', mine: 'true' });

function useMinePending<T>(select: (list: Approval[]) => T, enabled: boolean) {
  const live = useRealtimeStatus() === 'open';
  return useQuery<Approval[], Error, T>({
    queryKey: MINE_PENDING,
    enabled,
    select,
    staleTime: APPROVALS_STALE_TIME,
    refetchInterval: live ? false : FALLBACK_POLL_MS,
  });
}

const all = (list: Approval[]) => list;
// Those decided here are patched in until the list is read again (lib/approvals/decide-approval.ts).
const count = (list: Approval[]) => list.filter((approval) => approval.canDecide).length;

/** What waits for the viewer's decision, oldest first (the Inbox). */
export function useMyPendingApprovals() {
  return useMinePending(all, true);
}

/** How many approvals wait for the viewer (the navigation's badge); 0 while unknown. */
export function useMyPendingApprovalCount(enabled = true): number {
  return useMinePending(count, enabled).data ?? 0;
}
