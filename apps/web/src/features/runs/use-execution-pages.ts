// The Executions tab's list a page at a time (lib/execution-pages.ts): the first page when the tab
// opens or a filter changes, the next one on Load more. Kept beside the tab, out of lib/queries: the
// page reads the contracts (the cursor header's name), which the dashboard's first load does without.
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';

import { fetchExecutionsPage, type ExecutionsPage } from '@/lib/execution-pages';
import { queryKeys, type ExecutionListFilter } from '@/lib/queries/keys';

/**
 * Runs a page holds: a multiple of the list's two- and three-column grids, so every full page fills
 * its rows before Load more.
 */
const EXECUTIONS_PAGE_SIZE = 24;

/**
 * The runs `filter` selects, newest first, EXECUTIONS_PAGE_SIZE at a time. The page size is left out
 * of the key: a run added live to the first page must not push one of its runs out of every page.
 */
export function useExecutionPages(filter: ExecutionListFilter, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: queryKeys.executions.pages(filter),
    queryFn: ({ pageParam, signal }) =>
      fetchExecutionsPage({ ...filter, limit: EXECUTIONS_PAGE_SIZE }, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ExecutionsPage) => last.next,
    enabled: options.enabled,
    staleTime: 30_000,
    // The previous filter's runs stay while the next filter's first page loads: no flash to skeletons.
    placeholderData: keepPreviousData,
  });
}
