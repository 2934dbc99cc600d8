// Run summaries (GET /api/executions) in the query cache: the lists (queryKeys.executions.newest,
// .list(filter) and the Executions tab's .pages(filter)) hold summaries, one run's key
// (queryKeys.executions.detail(id)) holds the whole run (GET /api/executions/:id). A change to one run
// patches that run in every cached list instead of refetching them all. The read hooks are in
// lib/queries/executions.ts and features/runs/use-execution-pages.ts.
import { EXECUTION_RESULT_PREVIEW_LENGTH, type Execution, type ExecutionSummary } from '@crewline/contracts';
import { isCancelledError, type QueryClient, type QueryKey } from '@tanstack/react-query';

import { isExecutionPages, type ExecutionPages } from './execution-pages';
import { queryKeys, type ExecutionListFilter } from './queries/keys';

/** The result as the list gives it: text as is, anything else as JSON, cut to the preview length. */
export function executionResultText(result: unknown): string | null {
  if (result === null || result === undefined) return null;
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  return text.slice(0, EXECUTION_RESULT_PREVIEW_LENGTH);
}

/** The summary the list would answer for this run. */
export function executionSummaryOf(execution: Execution): ExecutionSummary {
  return {
    id: execution.id,
    workflowId: execution.workflowId,
    workflowName: execution.workflowName,
    processType: execution.processType,
    workflowVersion: execution.workflowVersion ?? null,
    status: execution.status,
    error: execution.error,
    failedStep: execution.failedStep ?? null,
    waiting: execution.waiting ?? null,
    untrusted: execution.untrusted,
    retryOf: execution.retryOf ?? null,
    retriedBy: execution.retriedBy ?? null,
    result: executionResultText(execution.result),
    trigger: execution.trigger,
    triggerDetail: execution.triggerDetail ?? null,
    triggeredBy: execution.triggeredBy,
    triggeredByName: execution.triggeredByName,
    startedAt: execution.startedAt,
    completedAt: execution.completedAt,
    createdAt: execution.createdAt,
    // The list's cost is the run's metrics' (absent until it ends, or from before costs).
    ...(execution.metrics.costUsd !== undefined ? { costUsd: execution.metrics.costUsd } : {}),
  };
}

/** What a details view shows of a summary until the whole run arrives: no outputs, logs or input yet. */
export function executionPlaceholder(summary: ExecutionSummary): Execution {
  return {
    ...summary,
    input: {},
    dynamicInstructions: null,
    parameters: {},
    output: {},
    metrics: {},
    logs: [],
    // The list does not read it: the run's details bring it.
    waitedMs: 0,
  };
}

/** The filter of a list key: {} for the newest runs, the object part of .list(filter); null for a run's key. */
function listFilterOf(key: QueryKey): ExecutionListFilter | null {
  if (key[0] !== queryKeys.executions.all[0]) return null;
  if (key.length === 1) return {};
  if (key.length === 2 && key[1] !== null && typeof key[1] === 'object') return key[1] as ExecutionListFilter;
  return null;
}

/**
 * The list with this run's summary in it: replaced where it is; added (newest first, within the
 * list's limit) when `add` and the run belongs to the list's filter; otherwise the list unchanged.
 */
export function upsertExecutionSummary(
  list: readonly ExecutionSummary[],
  summary: ExecutionSummary,
  filter: ExecutionListFilter,
  add: boolean,
): ExecutionSummary[] {
  const matches =
    (!filter.workflowId || filter.workflowId === summary.workflowId) &&
    (!filter.status || filter.status === summary.status) &&
    (!filter.trigger || filter.trigger === summary.trigger) &&
    (!filter.from || Date.parse(summary.createdAt) >= Date.parse(filter.from)) &&
    (!filter.to || Date.parse(summary.createdAt) < Date.parse(filter.to));
  const at = list.findIndex((item) => item.id === summary.id);
  if (at >= 0) {
    // A status filter no longer met drops the run; elsewhere it is updated in place.
    if (!matches) return list.filter((item) => item.id !== summary.id);
    return list.map((item, i) => (i === at ? summary : item));
  }
  if (!add || !matches) return [...list];
  const next = [...list];
  const index = next.findIndex(
    (item) =>
      item.createdAt < summary.createdAt || (item.createdAt === summary.createdAt && item.id < summary.id),
  );
  next.splice(index < 0 ? next.length : index, 0, summary);
  return filter.limit ? next.slice(0, filter.limit) : next;
}

/** The filter of a paged list's key (queryKeys.executions.pages(filter)); null for any other key. */
export function pagedListFilterOf(key: QueryKey): ExecutionListFilter | null {
  if (key[0] !== queryKeys.executions.all[0] || key.length !== 3 || key[2] !== 'pages') return null;
  return key[1] !== null && typeof key[1] === 'object' ? (key[1] as ExecutionListFilter) : null;
}

/**
 * The loaded pages with this run's summary in them: patched in the page that holds it; a new run
 * (`add`) that matches the filter goes into the first page, newest first, so it shows at the top.
 */
export function upsertIntoPages(
  data: ExecutionPages,
  summary: ExecutionSummary,
  filter: ExecutionListFilter,
  add: boolean,
): ExecutionPages {
  if (data.pages.length === 0) return data;
  const holder = data.pages.findIndex((page) => page.items.some((item) => item.id === summary.id));
  const target = holder >= 0 ? holder : 0;
  return {
    ...data,
    pages: data.pages.map((page, i) =>
      i === target
        ? { ...page, items: upsertExecutionSummary(page.items, summary, filter, holder < 0 && add) }
        : page,
    ),
  };
}

/** Puts the run into every cached list (adding it where `add`) and its own key. */
export function storeExecution(
  queryClient: QueryClient,
  execution: Execution,
  options: { add: boolean },
): void {
  const summary = executionSummaryOf(execution);
  for (const [key, data] of queryClient.getQueriesData<unknown>({ queryKey: queryKeys.executions.all })) {
    const paged = pagedListFilterOf(key);
    if (paged && isExecutionPages(data)) {
      queryClient.setQueryData<ExecutionPages>(key, (pages) =>
        pages ? upsertIntoPages(pages, summary, paged, options.add) : pages,
      );
      continue;
    }
    const filter = listFilterOf(key);
    if (!filter || !Array.isArray(data)) continue;
    queryClient.setQueryData<ExecutionSummary[]>(key, (list) =>
      list ? upsertExecutionSummary(list, summary, filter, options.add) : list,
    );
  }
  queryClient.setQueryData<Execution>(queryKeys.executions.detail(execution.id), execution);
}

/** Per client and run, the read under way: the next event's read waits for it, so reads land in order. */
const reads = new WeakMap<QueryClient, Map<string, Promise<void>>>();

/**
 * After a run changed (a realtime event): reads that one run and patches it into the cached lists.
 * Nothing is read when no list or view of runs is cached; on a failed read the lists are refetched.
 * Reads of one run go one after another, so a slow read of an earlier state never lands last.
 */
export function refreshOneExecution(
  queryClient: QueryClient,
  executionId: string,
  options: { add: boolean },
): Promise<void> {
  let byRun = reads.get(queryClient);
  if (!byRun) reads.set(queryClient, (byRun = new Map()));
  const runs = byRun;
  const next = (runs.get(executionId) ?? Promise.resolve()).then(() =>
    readAndStore(queryClient, executionId, options),
  );
  runs.set(executionId, next);
  void next.finally(() => {
    if (runs.get(executionId) === next) runs.delete(executionId);
  });
  return next;
}

async function readAndStore(queryClient: QueryClient, executionId: string, options: { add: boolean }) {
  if (queryClient.getQueriesData({ queryKey: queryKeys.executions.all }).length === 0) return;
  const queryKey = queryKeys.executions.detail(executionId);
  try {
    // A details view's read started before the event may answer the older state: read afresh.
    await queryClient.cancelQueries({ queryKey, exact: true });
    const execution = await queryClient.fetchQuery<Execution>({ queryKey, staleTime: 0 });
    storeExecution(queryClient, execution, options);
  } catch (error) {
    if (isCancelledError(error)) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.executions.all });
  }
}
