import {
  executionStatusValues,
  executionTriggerValues,
  type ExecutionStatus,
  type ExecutionTrigger,
} from '@crewline/contracts';

/**
 * The Executions tab's filters as the page address keeps them (docs/product-rules.md, Run list
 * filters): `?tab=executions&workflow=…&status=…&trigger=…&from=YYYY-MM-DD&to=YYYY-MM-DD`. Dates are
 * calendar days in the viewer's time zone; the list request gets their exact instants.
 */
export type ExecutionFilters = {
  workflowId: string | null;
  status: ExecutionStatus | null;
  trigger: ExecutionTrigger | null;
  /** First day shown (inclusive), YYYY-MM-DD. */
  from: string | null;
  /** Last day shown (inclusive), YYYY-MM-DD. */
  to: string | null;
};

export const NO_EXECUTION_FILTERS: ExecutionFilters = {
  workflowId: null,
  status: null,
  trigger: null,
  from: null,
  to: null,
};

/** The page's tabs as the address names them; the Workflows tab is the default and is left out. */
export type WorkflowsPageTab = 'workflows' | 'executions';

const PARAM = {
  workflowId: 'workflow',
  status: 'status',
  trigger: 'trigger',
  from: 'from',
  to: 'to',
} as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A YYYY-MM-DD that names a real day (2026-02-30 does not). */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(y, m - 1, d);
  return date.getFullYear() === y && date.getMonth() === m - 1 && date.getDate() === d;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;

/** The tab an address shows. */
export function tabFromSearch(search: URLSearchParams): WorkflowsPageTab {
  return search.get('tab') === 'executions' ? 'executions' : 'workflows';
}

/** The filters an address holds; a value that is not one the list knows (an edited link) is ignored. */
export function filtersFromSearch(search: URLSearchParams): ExecutionFilters {
  const day = (name: string) => {
    const value = search.get(name);
    return value && isCalendarDay(value) ? value : null;
  };
  const workflowId = search.get(PARAM.workflowId);
  return {
    workflowId: workflowId && UUID.test(workflowId) ? workflowId : null,
    status: oneOf(executionStatusValues, search.get(PARAM.status)),
    trigger: oneOf(executionTriggerValues, search.get(PARAM.trigger)),
    from: day(PARAM.from),
    to: day(PARAM.to),
  };
}

/**
 * The address for a tab and filters, keeping any other parameters of `current`. The filters are
 * written only with the Executions tab, so switching tabs and back does not keep a stale filter in
 * the Workflows tab's address.
 */
export function searchFor(
  tab: WorkflowsPageTab,
  filters: ExecutionFilters,
  current: URLSearchParams = new URLSearchParams(),
): URLSearchParams {
  const next = new URLSearchParams(current);
  next.delete('tab');
  for (const name of Object.values(PARAM)) next.delete(name);
  if (tab === 'workflows') return next;
  next.set('tab', 'executions');
  for (const [key, name] of Object.entries(PARAM) as [keyof ExecutionFilters, string][]) {
    const value = filters[key];
    if (value) next.set(name, value);
  }
  return next;
}

/** The link to one workflow's runs (a workflow card's menu). */
export function workflowRunsPath(workflowId: string): string {
  return `/workflows?${searchFor('executions', { ...NO_EXECUTION_FILTERS, workflowId }).toString()}`;
}

export function hasExecutionFilters(filters: ExecutionFilters): boolean {
  return Object.values(filters).some((value) => value !== null);
}

/** Local midnight at the start of a YYYY-MM-DD day, as an instant. */
function startOfLocalDay(day: string, addDays = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + addDays).toISOString();
}

/** GET /api/executions's filter parameters (queryKeys.executions.list). */
export type ExecutionListRequest = {
  workflowId?: string;
  status?: ExecutionStatus;
  trigger?: ExecutionTrigger;
  from?: string;
  to?: string;
};

/**
 * What the list is asked for: the days become the instants of the viewer's local midnights, `to`
 * being the midnight after the last day (the server's bound is exclusive). A range whose end comes
 * before its start is read the other way round rather than matching nothing.
 */
export function listRequestOf(filters: ExecutionFilters): ExecutionListRequest {
  let { from, to } = filters;
  if (from && to && to < from) [from, to] = [to, from];
  const request: ExecutionListRequest = {};
  if (filters.workflowId) request.workflowId = filters.workflowId;
  if (filters.status) request.status = filters.status;
  if (filters.trigger) request.trigger = filters.trigger;
  if (from) request.from = startOfLocalDay(from);
  if (to) request.to = startOfLocalDay(to, 1);
  return request;
}

export const EXECUTION_STATUS_LABELS: Record<ExecutionStatus, string> = {
  pending: 'Pending',
  running: 'Running',
  waiting: 'Waiting',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
