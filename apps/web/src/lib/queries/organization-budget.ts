// GET /api/organization/budget: the organization's monthly cap and this month's spend, read by the
// budget banner above every page and by Settings → Costs (one cache entry for both). Spend moves with
// every model call, but a banner a minute late is fine: once a minute old it is read again on the
// next page (the banner asks) or when the window regains focus, and at once after the card saves.
import type { OrganizationBudget } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { queryKeys } from './keys';

const BUDGET_STALE_MS = 60_000;

/** `enabled` false: not read (an account without an organization has no budget). */
export function useOrganizationBudget({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery<OrganizationBudget>({
    queryKey: queryKeys.organizationBudget,
    staleTime: BUDGET_STALE_MS,
    // Unlike the app's other reads (lib/query-client.ts): a tab left open for hours is told on return.
    refetchOnWindowFocus: true,
    enabled,
  });
}
