import { describe, expect, it } from 'vitest';

import {
  filterCounts,
  filterItems,
  formatCostDelta,
  formatLatencyDelta,
  formatPointsDelta,
  formatScoreDelta,
  isChanged,
  lowerIsBetter,
  passRateTrend,
  type CompareItem,
} from './compare-figures';

const side = (output: unknown, passed: boolean | null, score: number | null = passed ? 1 : 0) => ({
  executionId: 'x',
  output,
  passed,
  score,
  grades: [],
  costUsd: 0,
  durationMs: 100,
  error: null,
});

function anItem(overrides: Partial<CompareItem>): CompareItem {
  return {
    itemId: 'i',
    input: { message: 'hi' },
    expected: null,
    a: side('Hello', true),
    b: side('Hello', true),
    regressed: false,
    improved: false,
    scoreDelta: 0,
    ...overrides,
  };
}

describe('the comparison figures', () => {
  it('writes a pass rate change in points with a true minus sign', () => {
    expect(formatPointsDelta(0.05)).toBe('+5 pts');
    expect(formatPointsDelta(-0.1)).toBe('\u221210 pts');
    expect(formatPointsDelta(0)).toBe('0 pts');
    expect(formatPointsDelta(0.0004)).toBe('0 pts');
    expect(formatPointsDelta(null)).toBe('—');
    expect(passRateTrend(0.05)).toBe('better');
    expect(passRateTrend(-0.1)).toBe('worse');
    expect(passRateTrend(0.001)).toBe('same');
  });

  it('writes cost, latency and score changes with their sign; less cost or time is better', () => {
    expect(formatCostDelta(0.0012)).toBe('+$0.0012');
    expect(formatCostDelta(-0.5)).toBe('\u2212$0.50');
    expect(formatCostDelta(0)).toBe('$0.00');
    expect(formatCostDelta(-0.000043)).toBe('\u2212$0.00004');
    expect(formatLatencyDelta(120)).toBe('+120 ms');
    expect(formatLatencyDelta(-1200)).toBe('\u22121.2 s');
    expect(formatLatencyDelta(null)).toBe('—');
    expect(formatScoreDelta(-0.5)).toBe('\u22120.50');
    expect(formatScoreDelta(0.25)).toBe('+0.25');
    expect(formatScoreDelta(null)).toBe('—');
    expect(lowerIsBetter(-3)).toBe('better');
    expect(lowerIsBetter(3)).toBe('worse');
  });

  it('filters regressions, improvements and what changed', () => {
    const same = anItem({ itemId: 'same' });
    const regressed = anItem({ itemId: 'reg', b: side('Bye', false), regressed: true, scoreDelta: -1 });
    const improved = anItem({ itemId: 'imp', a: side('Bye', false), improved: true, scoreDelta: 1 });
    const reworded = anItem({ itemId: 'words', b: side('Hello there', true) });
    const onlyInA = anItem({ itemId: 'gone', b: null, scoreDelta: null });
    const items = [regressed, improved, reworded, same, onlyInA];

    expect(filterItems(items, 'all')).toHaveLength(5);
    expect(filterItems(items, 'regressions').map((item) => item.itemId)).toEqual(['reg']);
    expect(filterItems(items, 'improvements').map((item) => item.itemId)).toEqual(['imp']);
    expect(filterItems(items, 'changed').map((item) => item.itemId)).toEqual(['reg', 'imp', 'words', 'gone']);
    expect(isChanged(same)).toBe(false);
    expect(filterCounts(items)).toEqual({ all: 5, regressions: 1, improvements: 1, changed: 4 });
  });
});
