import type { CostGrouping, CostRow } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-call';
import { queryKeys } from '@/lib/queries/keys';
import { browserTimeZone } from '@/lib/queries/organizations';

import type { CostsWindow } from '../costs-figures';

/** Spend moves with every model call: a copy is re-read when the tab opens after this long. */
const COSTS_STALE_TIME = 30_000;

/**
 * GET /api/usage/costs for the window, grouped, with the viewer's time zone (the days are theirs);
 * the previous answer stays on screen while another grouping or range loads.
 */
export function useCosts(spendWindow: Pick<CostsWindow, 'from' | 'to'>, groupBy: CostGrouping) {
  const query = { from: spendWindow.from, to: spendWindow.to, groupBy, tz: browserTimeZone() };
  return useQuery<CostRow[]>({
    queryKey: queryKeys.costs.usage(query),
    queryFn: ({ signal }) => api.call(endpoints.costs.usage, { query, signal }),
    staleTime: COSTS_STALE_TIME,
    placeholderData: keepPreviousData,
  });
}
