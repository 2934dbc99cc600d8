import { describe, expect, it } from 'vitest';
import { withoutOverlaps } from './spans';

describe('withoutOverlaps', () => {
  it('keeps the longer of overlapping spans, then the more specific, sorted by start', () => {
    const spans = withoutOverlaps(
      [
        { kind: 'phone', start: 10, end: 20 },
        { kind: 'card', start: 5, end: 25 },
        { kind: 'email', start: 30, end: 40 },
        { kind: 'phone', start: 30, end: 40 },
        { kind: 'ip', start: 0, end: 3 },
      ],
      ['card', 'email', 'phone'],
    );
    expect(spans).toEqual([
      { kind: 'ip', start: 0, end: 3 },
      { kind: 'card', start: 5, end: 25 },
      { kind: 'email', start: 30, end: 40 },
    ]);
  });

  it('keeps touching spans and drops empty ones', () => {
    expect(
      withoutOverlaps([
        { kind: 'a', start: 3, end: 6 },
        { kind: 'b', start: 0, end: 3 },
        { kind: 'c', start: 6, end: 6 },
      ]),
    ).toEqual([
      { kind: 'b', start: 0, end: 3 },
      { kind: 'a', start: 3, end: 6 },
    ]);
  });

  it('stays fast with thousands of spans', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ kind: 'x', start: i * 2, end: i * 2 + 3 }));
    const started = performance.now();
    const kept = withoutOverlaps(many);
    expect(performance.now() - started).toBeLessThan(1000);
    // Every second span overlaps both its neighbours; the kept ones never overlap each other.
    expect(kept.every((s, i) => i === 0 || kept[i - 1].end <= s.start)).toBe(true);
    expect(kept).toHaveLength(10_000);
  });
});
