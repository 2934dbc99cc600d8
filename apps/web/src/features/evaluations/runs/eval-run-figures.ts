// How an eval run's figures read: pass rates and scores as whole percents ('85 %'), progress as
// '42/120', a grade as 'name 0.75', an item's answer as one short line of text.
import type { EvalItemResult, EvalRunSummary, WorkflowVersionSummary } from '@crewline/contracts';

import { formatDate, formatMilliseconds } from '@/lib/format';

/** A share (0–1) as a whole percent, '85 %'; '—' before anything is graded. */
export function formatShare(share: number | null): string {
  return share === null || !Number.isFinite(share) ? '—' : `${Math.round(share * 100)} %`;
}

export function formatProgress(progress: EvalRunSummary['progress']): string {
  return `${progress.done}/${progress.total}`;
}

/** The run's progress as a percent for the bar (0 when it has no items). */
export function progressPercent(progress: EvalRunSummary['progress']): number {
  return progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
}

/** A latency ('1.2 s', '850 ms'); '—' when nothing ran yet. */
export function formatLatency(ms: number | null): string {
  return (ms === null ? null : formatMilliseconds(ms)) ?? '—';
}

/** A grade's chip: its grader's name and score, 'Exact match 0.75'. */
export function gradeLabel(grade: { name: string; score: number }): string {
  return `${grade.name} ${grade.score.toFixed(2)}`;
}

export type ItemState = 'passed' | 'failed' | 'pending' | 'not_run';

/**
 * An item's verdict. One without a verdict is still to come while its eval run runs (unless its run
 * already failed), and did not run once the eval run has ended (cancelled, or its run failed).
 */
export function itemState(item: Pick<EvalItemResult, 'passed' | 'error'>, runRunning = false): ItemState {
  if (item.passed === true) return 'passed';
  if (item.passed === false) return 'failed';
  return runRunning && !item.error ? 'pending' : 'not_run';
}

export const ITEM_STATE_LABELS: Record<ItemState, string> = {
  passed: 'Passed',
  failed: 'Failed',
  pending: 'Running',
  not_run: 'Not run',
};

/**
 * A value as text: a string as it is, an input of one text field as that text (`{ message: 'Hi' }` →
 * 'Hi'), anything else as JSON; '' for none.
 */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length === 1 && typeof entries[0]![1] === 'string') return entries[0]![1];
  }
  return JSON.stringify(value, null, 2) ?? String(value);
}

/** A value on one line, cut at `max` characters ('…'). */
export function shortText(value: unknown, max = 80): string {
  const text = valueText(value).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A recorded version in the Run evaluation dialog: 'v7 · Dec 3, 2026 · Shorter answers'. */
export function versionOptionLabel(version: WorkflowVersionSummary): string {
  return [`v${version.version}`, formatDate(version.createdAt), version.note?.trim()]
    .filter(Boolean)
    .join(' · ');
}

/** The two picked runs in the order a comparison reads them: the older first (a), the newer (b). */
export function compareOrder(runs: Pick<EvalRunSummary, 'id' | 'createdAt'>[]): [string, string] | null {
  if (runs.length !== 2) return null;
  const [first, second] = [...runs].sort((x, y) => Date.parse(x.createdAt) - Date.parse(y.createdAt));
  return [first!.id, second!.id];
}

export function comparePath(a: string, b: string): string {
  return `/evaluations/compare?${new URLSearchParams({ a, b }).toString()}`;
}
