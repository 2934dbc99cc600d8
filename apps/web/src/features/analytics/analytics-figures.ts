// The analytics page's rules, kept pure for the tests: the range options and export name, the chart's
// per-day success rate and bar height, the success-rate trend, the utilization dot, the wording of a
// run's status and the "… from last period" lines of the metric cards.
// Types only from the contracts: importing a value would pull zod into this page's chunk.
import type { AgentAnalytics, AnalyticsPeriod, AnalyticsRange, DailyExecutions } from '@crewline/contracts';

import { formatSeconds } from '@/lib/format';

export interface RangeOption {
  value: AnalyticsRange;
  label: string;
  /** The range in the export's file name. */
  short: string;
}

export const RANGE_OPTIONS: readonly RangeOption[] = [
  { value: '24', label: 'Last 24h', short: '24h' },
  { value: '7', label: 'Last 7 days', short: '7d' },
  { value: '30', label: 'Last 30 days', short: '30d' },
  { value: '90', label: 'Last 90 days', short: '90d' },
];

export const DEFAULT_RANGE: AnalyticsRange = '7';

export function isAnalyticsRange(value: string): value is AnalyticsRange {
  return RANGE_OPTIONS.some((option) => option.value === value);
}

function rangeOption(range: AnalyticsRange): RangeOption {
  return RANGE_OPTIONS.find((option) => option.value === range) ?? RANGE_OPTIONS[1];
}

export function rangeLabel(range: AnalyticsRange): string {
  return rangeOption(range).label;
}

/** crewline-analytics-24h.json, -7d, -30d, -90d. */
export function analyticsFileName(range: AnalyticsRange): string {
  return `crewline-analytics-${rangeOption(range).short}.json`;
}

// ---- Chart ---------------------------------------------------------------------------------------

/** The shortest bar, in percent of the chart's height, so a day is never invisible. */
export const MIN_BAR_HEIGHT = 10;

/** Successful runs of the day in percent of its runs, rounded; 0 for a day without runs. */
export function daySuccessRate(day: Pick<DailyExecutions, 'executions' | 'successful'>): number {
  if (day.executions <= 0) return 0;
  return Math.round((day.successful / day.executions) * 100);
}

/** A bar's height in percent: the rate, but at least MIN_BAR_HEIGHT and at most 100. */
export function barHeight(rate: number): number {
  return Math.min(100, Math.max(MIN_BAR_HEIGHT, rate));
}

/** The chart's days together: runs, successful runs and their rate (null without runs). */
export function chartTotals(days: readonly DailyExecutions[]): {
  executions: number;
  successful: number;
  successRate: number | null;
} {
  const executions = days.reduce((sum, day) => sum + day.executions, 0);
  const successful = days.reduce((sum, day) => sum + day.successful, 0);
  return {
    executions,
    successful,
    successRate: executions > 0 ? daySuccessRate({ executions, successful }) : null,
  };
}

/** YYYY-MM-DD (a calendar day, no time zone) as a Date at UTC midnight. */
function calendarDay(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** 'Mon 16 Nov' (in the user's locale unless one is given). */
export function dayLabel(date: string, locale?: string): string {
  const day = calendarDay(date);
  if (Number.isNaN(day.getTime())) return date;
  const format = (options: Intl.DateTimeFormatOptions) =>
    day.toLocaleDateString(locale, { ...options, timeZone: 'UTC' });
  return `${format({ weekday: 'short' })} ${format({ day: 'numeric', month: 'short' })}`;
}

/** 'Mon': the label under a bar. */
export function weekdayLabel(date: string, locale?: string): string {
  const day = calendarDay(date);
  if (Number.isNaN(day.getTime())) return date;
  return day.toLocaleDateString(locale, { weekday: 'short', timeZone: 'UTC' });
}

/** What a bar says to a screen reader and in its tooltip: 'Mon 16 Nov: 75% success, 4 runs'. */
export function barDescription(day: DailyExecutions, locale?: string): string {
  const label = dayLabel(day.date, locale);
  if (day.executions === 0) return `${label}: no runs`;
  return `${label}: ${daySuccessRate(day)}% success, ${runs(day.executions)}`;
}

/** Value in percent of the largest value (0 when the largest is 0), e.g. a token bar's width. */
export function shareOf(value: number, max: number): number {
  if (max <= 0 || value <= 0) return 0;
  return Math.min(100, (value / max) * 100);
}

// ---- Trend and utilization -----------------------------------------------------------------------

export type Trend = 'up' | 'neutral' | 'down';

/** 80 % or more is up, 60 to 79 % neutral, below 60 % down. */
export function successTrend(rate: number): Trend {
  if (rate >= 80) return 'up';
  if (rate >= 60) return 'neutral';
  return 'down';
}

export type UtilizationLevel = 'high' | 'medium' | 'low';

/** The dot next to an agent: green above 10 runs, yellow above 5, grey otherwise. */
export function utilizationLevel(executions: number): UtilizationLevel {
  if (executions > 10) return 'high';
  if (executions > 5) return 'medium';
  return 'low';
}

/** The agents that ran, slowest average step first. */
export function slowestAgents(agents: readonly AgentAnalytics[], limit = 5): AgentAnalytics[] {
  return agents
    .filter((agent) => agent.executions > 0 && agent.avgStepTime > 0)
    .sort((a, b) => b.avgStepTime - a.avgStepTime)
    .slice(0, limit);
}

// ---- Recent activity -----------------------------------------------------------------------------

const RECENT_ACTIVITY_ITEMS = 5;

/** 'completed successfully', 'failed execution', 'is running'; any other status as it is. */
export function executionStatusText(status: string): string {
  switch (status) {
    case 'completed':
      return 'completed successfully';
    case 'failed':
      return 'failed execution';
    case 'running':
      return 'is running';
    default:
      return status;
  }
}

/** The newest runs first, at most `limit`. */
export function recentExecutions<T extends { createdAt: string }>(
  executions: readonly T[],
  limit = RECENT_ACTIVITY_ITEMS,
): T[] {
  return [...executions].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt)).slice(0, limit);
}

// ---- Figures and "… from last period" ------------------------------------------------------------

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** '1 run', '4 runs'. */
export function runs(count: number): string {
  return `${count.toLocaleString()} ${count === 1 ? 'run' : 'runs'}`;
}

/** 75 → '75%', 66.67 → '66.7%', null (nothing finished) → '—'. */
export function formatPercent(rate: number | null): string {
  if (rate === null) return '—';
  return `${oneDecimal(rate).toLocaleString(undefined, { maximumFractionDigits: 1 })}%`;
}

/** A run's duration in seconds: 2.34 → '2.3s', 75 → '1m 15s', 3720 → '1h 2m'. */
export function formatRunTime(seconds: number): string {
  if (seconds < 60) return `${oneDecimal(Math.max(0, seconds))}s`;
  return formatSeconds(Math.round(seconds));
}

/** An agent step's time in milliseconds: 850 → '850 ms', 1234 → '1.2s'. */
export function formatStepTime(ms: number): string {
  if (ms < 1000) return `${Math.round(Math.max(0, ms))} ms`;
  return formatRunTime(ms / 1000);
}

export type ChangeTone = 'positive' | 'negative' | 'neutral';

export interface Change {
  text: string;
  tone: ChangeTone;
}

const FROM_LAST = 'from last period';

/** Agents or workflows created in the range: '+3 from last period'. */
export function createdChange(created: number): Change {
  return { text: `+${created.toLocaleString()} ${FROM_LAST}`, tone: created > 0 ? 'positive' : 'neutral' };
}

/** '+0.5' / '-1.2' / '0' with one decimal. */
function signed(value: number): string {
  const rounded = oneDecimal(value);
  if (rounded === 0) return '0';
  return `${rounded > 0 ? '+' : '-'}${Math.abs(rounded).toFixed(1)}`;
}

/** Without finished runs in either period there is nothing to compare: say which one is missing. */
function missingPeriod(current: AnalyticsPeriod, previous: AnalyticsPeriod): Change | null {
  const none = (period: AnalyticsPeriod, which: string) =>
    period.executions === 0 ? `No runs in ${which}` : `No finished runs in ${which}`;
  if (current.successRate === null) return { text: none(current, 'this period'), tone: 'neutral' };
  if (previous.successRate === null) return { text: none(previous, 'the last period'), tone: 'neutral' };
  return null;
}

/** Difference of the success rates: '+12.5% from last period' (higher is better). */
export function successRateChange(current: AnalyticsPeriod, previous: AnalyticsPeriod): Change {
  const missing = missingPeriod(current, previous);
  if (missing) return missing;
  const diff = oneDecimal((current.successRate ?? 0) - (previous.successRate ?? 0));
  if (diff === 0) return { text: `No change ${FROM_LAST}`, tone: 'neutral' };
  return { text: `${signed(diff)}% ${FROM_LAST}`, tone: diff > 0 ? 'positive' : 'negative' };
}

/**
 * Difference of the average waiting times, as long as waits are: '+3.5s', '-2h 5m from last period'.
 * Neither better nor worse: runs wait for people and delays, not for Crewline.
 */
export function waitTimeChange(current: AnalyticsPeriod, previous: AnalyticsPeriod): Change {
  const missing = missingPeriod(current, previous);
  if (missing) return missing;
  const diff = oneDecimal(current.avgWaitTime - previous.avgWaitTime);
  if (diff === 0) return { text: `No change ${FROM_LAST}`, tone: 'neutral' };
  return { text: `${diff > 0 ? '+' : '-'}${formatRunTime(Math.abs(diff))} ${FROM_LAST}`, tone: 'neutral' };
}

/** Difference of the average run times: '-1.2s from last period' (lower is better). */
export function executionTimeChange(current: AnalyticsPeriod, previous: AnalyticsPeriod): Change {
  const missing = missingPeriod(current, previous);
  if (missing) return missing;
  const diff = oneDecimal(current.avgExecutionTime - previous.avgExecutionTime);
  if (diff === 0) return { text: `No change ${FROM_LAST}`, tone: 'neutral' };
  return { text: `${signed(diff)}s ${FROM_LAST}`, tone: diff < 0 ? 'positive' : 'negative' };
}
