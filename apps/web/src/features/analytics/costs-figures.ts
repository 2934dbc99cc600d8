// The Costs tab's rules, kept pure for the tests: the range it asks GET /api/usage/costs for, the
// days of its chart (the server leaves out days without spend), the totals of its cards and the
// note on calls whose model had no price.
// Types only from the contracts: importing a value would pull zod into this module's chunk.
import type { AnalyticsRange, CostGrouping, CostRow } from '@crewline/contracts';

import { formatNumber } from '@/lib/format';

export const GROUP_OPTIONS: readonly { value: CostGrouping; label: string }[] = [
  { value: 'day', label: 'Day' },
  { value: 'workflow', label: 'Workflow' },
  { value: 'agent', label: 'Agent' },
  { value: 'model', label: 'Model' },
  { value: 'source', label: 'Source' },
  { value: 'trigger', label: 'Trigger' },
];

export function isCostGrouping(value: string): value is CostGrouping {
  return GROUP_OPTIONS.some((option) => option.value === value);
}

/** Where Set a price in Settings → Costs leads. */
export const SETTINGS_COSTS = '/settings/profile?tab=costs';

const HOUR_MS = 60 * 60 * 1000;

/** A Date's calendar day in the viewer's (the browser's) time zone: YYYY-MM-DD. */
export function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export interface CostsWindow {
  range: AnalyticsRange;
  /** The instants sent as `from` and `to` ([from, to), ISO). */
  from: string;
  to: string;
  /** The first and last calendar day the window covers (the chart's days, the CSV's name). */
  firstDay: string;
  lastDay: string;
}

/**
 * The window the Costs tab adds up for a range, at `now`: 24h is the last 24 hours in whole hours
 * (the current one included); 7, 30 and 90 days are as many whole calendar days of the viewer,
 * today included, so the chart has one bar per day. `to` is the end of the current hour or day: the
 * window, and so the query key, stays the same while the page is open, and a refetch still sees
 * spend that came after the window was chosen.
 */
export function costsWindow(range: AnalyticsRange, now: Date): CostsWindow {
  let from: Date;
  let to: Date;
  if (range === '24') {
    to = new Date(now);
    to.setMinutes(0, 0, 0);
    to = new Date(to.getTime() + HOUR_MS);
    from = new Date(to.getTime() - 24 * HOUR_MS);
  } else {
    // Local midnights (Date's own arithmetic, so a day with a clock change is still one day).
    to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    from = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1 - Number(range));
  }
  return {
    range,
    from: from.toISOString(),
    to: to.toISOString(),
    firstDay: localDay(from),
    lastDay: localDay(new Date(to.getTime() - 1)),
  };
}

export interface CostDay {
  date: string;
  costUsd: number;
  calls: number;
  unpricedCalls: number;
}

/** YYYY-MM-DD after `date` (calendar arithmetic, no time zone). */
function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** Each day from firstDay to lastDay with its spend (the rows grouped by day); a day without any has 0. */
export function costDays(rows: readonly CostRow[], firstDay: string, lastDay: string): CostDay[] {
  const byDay = new Map(rows.map((row) => [row.key, row]));
  const days: CostDay[] = [];
  for (let date = firstDay; date <= lastDay && days.length <= 400; date = nextDay(date)) {
    const row = byDay.get(date);
    days.push({
      date,
      costUsd: row?.costUsd ?? 0,
      calls: row?.calls ?? 0,
      unpricedCalls: row?.unpricedCalls ?? 0,
    });
  }
  return days;
}

export interface CostTotals {
  /** What the priced calls cost; null when every call was of a model without a price. */
  costUsd: number | null;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  unpricedCalls: number;
  unpricedModels: string[];
}

/** The rows together (any grouping: each call is in one row). */
export function costTotals(rows: readonly CostRow[]): CostTotals {
  const calls = rows.reduce((sum, row) => sum + row.calls, 0);
  const unpricedCalls = rows.reduce((sum, row) => sum + row.unpricedCalls, 0);
  return {
    costUsd: rowCost({ calls, unpricedCalls, costUsd: rows.reduce((sum, row) => sum + row.costUsd, 0) }),
    calls,
    inputTokens: rows.reduce((sum, row) => sum + row.inputTokens, 0),
    outputTokens: rows.reduce((sum, row) => sum + row.outputTokens, 0),
    unpricedCalls,
    unpricedModels: [...new Set(rows.flatMap((row) => row.unpricedModels))].sort(),
  };
}

/** A row's cost, or null (unknown) when none of its calls had a price: never 0 for those. */
export function rowCost(row: Pick<CostRow, 'calls' | 'unpricedCalls' | 'costUsd'>): number | null {
  return row.calls > 0 && row.unpricedCalls >= row.calls ? null : row.costUsd;
}

/** '3 calls of models without a price (llama3, my-model)': the start of the unpriced note. */
export function unpricedCallsText(totals: Pick<CostTotals, 'unpricedCalls' | 'unpricedModels'>): string {
  const calls = `${formatNumber(totals.unpricedCalls)} ${totals.unpricedCalls === 1 ? 'call' : 'calls'}`;
  return `${calls} of models without a price (${totals.unpricedModels.join(', ')})`;
}

/** A bar's height in percent of the most expensive day (at least 2 for a day with spend). */
export function costBarHeight(costUsd: number, maxUsd: number): number {
  if (costUsd <= 0 || maxUsd <= 0) return 0;
  return Math.max(2, Math.min(100, (costUsd / maxUsd) * 100));
}
