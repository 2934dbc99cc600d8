import type { ExecutionSummary } from '@crewline/contracts';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  fetchExecutionsPage,
  hasMorePages,
  runsOfPages,
  type ExecutionPages,
  type ExecutionsPage,
} from './execution-pages';
import { pagedListFilterOf, storeExecution, upsertIntoPages } from './execution-summaries';
import { queryKeys } from './queries/keys';

// The Executions tab's Load more: pages merged into one list, and runs heard live patched into them.

/** A run summary created at second `second` of the day (a higher second is newer). */
function summary(id: string, second: number, fields: Partial<ExecutionSummary> = {}): ExecutionSummary {
  return {
    id,
    workflowId: 'w1',
    workflowName: 'Flow',
    processType: 'sequential',
    workflowVersion: 1,
    status: 'completed',
    error: null,
    failedStep: null,
    waiting: null,
    untrusted: false,
    retryOf: null,
    retriedBy: null,
    result: null,
    trigger: 'manual',
    triggerDetail: null,
    triggeredBy: null,
    triggeredByName: null,
    startedAt: null,
    completedAt: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    ...fields,
  };
}

const page = (next: string | null, ...items: ExecutionSummary[]): ExecutionsPage => ({ items, next });
const pages = (...list: ExecutionsPage[]): ExecutionPages => ({
  pages: list,
  pageParams: list.map((_, i) => (i === 0 ? null : list[i - 1].next)),
});
const ids = (data: ExecutionPages) => runsOfPages(data.pages).map((r) => r.id);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Load more: merging pages', () => {
  it('lists the runs of every page in order, each once, and says whether more may follow', () => {
    const first = page('c1', summary('r9', 9), summary('r8', 8));
    const second = page(null, summary('r7', 7), summary('r6', 6));
    expect(runsOfPages([first, second]).map((r) => r.id)).toEqual(['r9', 'r8', 'r7', 'r6']);
    expect(hasMorePages([first])).toBe(true);
    expect(hasMorePages([first, second])).toBe(false);
    expect(hasMorePages(undefined)).toBe(false);
    expect(runsOfPages(undefined)).toEqual([]);

    // A run added live to the first page that the next page also brings is shown once, the first copy.
    const live = summary('r7', 7, { status: 'running' });
    const merged = runsOfPages([page('c1', live, summary('r9', 9)), second]);
    expect(merged.map((r) => r.id)).toEqual(['r7', 'r9', 'r6']);
    expect(merged[0].status).toBe('running');
  });

  it('adds a new run to the top of the first page, whatever the page size, and keeps every loaded run', () => {
    const data = pages(page('c1', summary('r9', 9), summary('r8', 8)), page(null, summary('r7', 7)));
    const added = upsertIntoPages(data, summary('r10', 10, { status: 'pending' }), {}, true);
    expect(ids(added)).toEqual(['r10', 'r9', 'r8', 'r7']);
    expect(added.pages[0].next).toBe('c1');
    expect(added.pageParams).toEqual(data.pageParams);
    // Not a new run (an update of a run not loaded): nothing is added.
    expect(ids(upsertIntoPages(data, summary('r1', 1), {}, false))).toEqual(['r9', 'r8', 'r7']);
    // A new run the filter does not select stays out.
    expect(
      ids(upsertIntoPages(data, summary('r10', 10, { workflowId: 'w2' }), { workflowId: 'w1' }, true)),
    ).toEqual(['r9', 'r8', 'r7']);
  });

  it('updates a run in the page that holds it, and drops it there once the filter no longer selects it', () => {
    const data = pages(
      page('c1', summary('r9', 9, { status: 'running' })),
      page(null, summary('r7', 7, { status: 'running' })),
    );
    const done = upsertIntoPages(data, summary('r7', 7, { status: 'completed' }), {}, true);
    expect(done.pages[1].items.map((r) => [r.id, r.status])).toEqual([['r7', 'completed']]);
    expect(done.pages[0]).toBe(data.pages[0]);
    const running = upsertIntoPages(
      data,
      summary('r7', 7, { status: 'failed' }),
      { status: 'running' },
      false,
    );
    expect(ids(running)).toEqual(['r9']);
  });
});

describe('Load more: the cache', () => {
  it("patches a run heard live into the tab's pages, as into every run list", () => {
    const client = new QueryClient();
    const key = queryKeys.executions.pages({ status: 'running' });
    expect(pagedListFilterOf(key)).toEqual({ status: 'running' });
    expect(pagedListFilterOf(queryKeys.executions.list({ status: 'running' }))).toBeNull();
    client.setQueryData<ExecutionPages>(
      key,
      pages(
        page('c1', summary('r9', 9, { status: 'running' })),
        page(null, summary('r7', 7, { status: 'running' })),
      ),
    );
    const started = {
      ...summary('r10', 10, { status: 'running' }),
      input: {},
      dynamicInstructions: null,
      parameters: {},
      output: {},
      metrics: {},
      logs: [],
      waitedMs: 0,
    };
    storeExecution(client, { ...started, result: null }, { add: true });
    const finished = {
      ...started,
      id: 'r7',
      createdAt: summary('r7', 7).createdAt,
      status: 'completed' as const,
    };
    storeExecution(client, { ...finished, result: null }, { add: false });
    expect(ids(client.getQueryData<ExecutionPages>(key)!)).toEqual(['r10', 'r9']);
  });

  it('asks for a page with the filters and the cursor, and reads the next cursor from the header', async () => {
    const fetchMock = vi.fn(
      async (_url: string) =>
        new Response(JSON.stringify([summary('r9', 9)]), {
          status: 200,
          headers: { 'X-Next-Cursor': 'abc' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('localStorage', { getItem: () => null });
    const first = await fetchExecutionsPage({ status: 'failed', limit: 24 }, null);
    expect(first).toEqual({ items: [summary('r9', 9)], next: 'abc' });
    expect(fetchMock.mock.calls[0][0]).toBe('/api/executions?status=failed&limit=24');

    fetchMock.mockImplementationOnce(async () => new Response('[]', { status: 200 }));
    const last = await fetchExecutionsPage({ status: 'failed', limit: 24 }, 'abc');
    expect(last).toEqual({ items: [], next: null });
    expect(fetchMock.mock.calls[1][0]).toBe('/api/executions?status=failed&limit=24&cursor=abc');
  });
});
