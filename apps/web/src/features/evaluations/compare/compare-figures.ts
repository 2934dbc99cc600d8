// The comparison's changes as people read them: a pass rate's change in points ('+5 pts', '−10 pts'),
// a cost's and a latency's with their sign, and which items each filter chip shows.
import type { EvalComparison } from '@crewline/contracts';

import { formatCost, formatMilliseconds } from '@/lib/format';

export type CompareItem = EvalComparison['items'][number];
export type Trend = 'better' | 'worse' | 'same';

/** A true minus sign, as a figure reads. */
const MINUS = '\u2212';

function signed(value: number, text: string): string {
  if (value > 0) return `+${text}`;
  if (value < 0) return `${MINUS}${text}`;
  return text;
}

/** A pass rate's change (shares 0–1) in percentage points: '+5 pts', '−10 pts', '0 pts'; '—' when unknown. */
export function formatPointsDelta(delta: number | null): string {
  if (delta === null || !Number.isFinite(delta)) return '—';
  const points = Math.round(delta * 100);
  return signed(points, `${Math.abs(points)} pts`);
}

/** A pass rate's change: more passes is better. */
export function passRateTrend(delta: number | null): Trend {
  const points = delta === null ? 0 : Math.round(delta * 100);
  return points > 0 ? 'better' : points < 0 ? 'worse' : 'same';
}

/** A cost's change: '+$0.0012', '−$0.50', '$0.00'; one significant digit below $0.0001 ('−$0.00004'). */
export function formatCostDelta(delta: number): string {
  const size = Math.abs(delta);
  if (size > 0 && size < 0.0001)
    return signed(delta, `$${Number(size.toPrecision(1)).toFixed(10).replace(/0+$/, '')}`);
  return signed(delta, formatCost(size));
}

/** A latency's change: '+120 ms', '−1.2 s'; '—' when unknown. */
export function formatLatencyDelta(delta: number | null): string {
  if (delta === null || !Number.isFinite(delta)) return '—';
  return signed(Math.round(delta), formatMilliseconds(Math.abs(delta)) ?? '—');
}

/** Less cost or time is better. */
export function lowerIsBetter(delta: number | null): Trend {
  if (delta === null || delta === 0) return 'same';
  return delta < 0 ? 'better' : 'worse';
}

/** A score's change: '+0.25', '−0.50', '0.00'; '—' unless both sides were graded. */
export function formatScoreDelta(delta: number | null): string {
  if (delta === null || !Number.isFinite(delta)) return '—';
  const rounded = Math.round(delta * 100) / 100;
  return signed(rounded, Math.abs(rounded).toFixed(2));
}

export const TREND_TEXT: Record<Trend, string> = {
  better: 'text-emerald-700 dark:text-emerald-400',
  worse: 'text-red-700 dark:text-red-400',
  same: 'text-muted-foreground',
};

export const compareFilters = ['all', 'regressions', 'improvements', 'changed'] as const;
export type CompareFilter = (typeof compareFilters)[number];
export const COMPARE_FILTER_LABELS: Record<CompareFilter, string> = {
  all: 'All',
  regressions: 'Regressions',
  improvements: 'Improvements',
  changed: 'Changed',
};

function outputKey(side: CompareItem['a']): string {
  return side ? JSON.stringify(side.output ?? null) : '';
}

/** An item whose answer, verdict or score differs between the two runs (or that only one of them has). */
export function isChanged(item: CompareItem): boolean {
  if (!item.a || !item.b) return true;
  if (item.regressed || item.improved) return true;
  if (item.a.passed !== item.b.passed) return true;
  if (item.scoreDelta !== null && Math.abs(item.scoreDelta) >= 0.005) return true;
  return outputKey(item.a) !== outputKey(item.b);
}

export function filterItems(items: CompareItem[], filter: CompareFilter): CompareItem[] {
  switch (filter) {
    case 'regressions':
      return items.filter((item) => item.regressed);
    case 'improvements':
      return items.filter((item) => item.improved);
    case 'changed':
      return items.filter(isChanged);
    default:
      return items;
  }
}

export function filterCounts(items: CompareItem[]): Record<CompareFilter, number> {
  return {
    all: items.length,
    regressions: items.filter((item) => item.regressed).length,
    improvements: items.filter((item) => item.improved).length,
    changed: items.filter(isChanged).length,
  };
}
