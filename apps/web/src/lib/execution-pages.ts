// The Executions tab's run list a page at a time: GET /api/executions answers one page, newest first,
// and its X-Next-Cursor header (absent on the last page) is where the next one starts. The pages sit in
// one infinite query (queryKeys.executions.pages(filter)); realtime events patch them like every other
// run list (lib/execution-summaries.ts).
import { EXECUTIONS_NEXT_CURSOR_HEADER, type ExecutionSummary } from '@crewline/contracts';
import type { InfiniteData } from '@tanstack/react-query';

import { apiGetWithHeaders } from './api';
import { queryKeys, type ExecutionListFilter } from './queries/keys';
import { requestUrlOf } from './queries/query-fn';

/** One page of runs and the cursor of the next one (null on the last page). */
export type ExecutionsPage = { items: ExecutionSummary[]; next: string | null };
/** The pages loaded so far, as the infinite query keeps them. */
export type ExecutionPages = InfiniteData<ExecutionsPage, string | null>;

export function isExecutionPages(data: unknown): data is ExecutionPages {
  return (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray((data as { pages?: unknown }).pages) &&
    (data as ExecutionPages).pages.every((page) => Array.isArray(page?.items))
  );
}

/**
 * The runs of every loaded page in page order, each once: a run added live to the first page may
 * also come back on a later page, and the copy seen first (the newer one) is kept.
 */
export function runsOfPages(pages: readonly ExecutionsPage[] | undefined): ExecutionSummary[] {
  const seen = new Set<string>();
  const runs: ExecutionSummary[] = [];
  for (const page of pages ?? []) {
    for (const run of page.items) {
      if (seen.has(run.id)) continue;
      seen.add(run.id);
      runs.push(run);
    }
  }
  return runs;
}

/** Whether another page may hold more runs: the last page loaded came with a cursor. */
export function hasMorePages(pages: readonly ExecutionsPage[] | undefined): boolean {
  return !!pages?.length && pages[pages.length - 1].next !== null;
}

/** One page of GET /api/executions for `filter`, starting after `cursor` (the first page without one). */
export async function fetchExecutionsPage(
  filter: ExecutionListFilter,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<ExecutionsPage> {
  const url = requestUrlOf([...queryKeys.executions.all, cursor ? { ...filter, cursor } : filter]);
  const { data, headers } = await apiGetWithHeaders<ExecutionSummary[]>(url, { signal });
  return { items: data ?? [], next: headers.get(EXECUTIONS_NEXT_CURSOR_HEADER) || null };
}
