import { describe, expect, it } from 'vitest';
import { formatCost, formatDuration, formatMilliseconds, formatSeconds } from './format';

describe('durations', () => {
  it('formats whole seconds, and a run not started as a dash', () => {
    expect(formatSeconds(null)).toBe('—');
    expect(formatSeconds(0)).toBe('0s');
    expect(formatSeconds(42)).toBe('42s');
    expect(formatSeconds(185)).toBe('3m 5s');
    expect(formatSeconds(3720)).toBe('1h 2m');
  });

  it('measures from start to end, or to now while running', () => {
    const start = '2026-01-01T00:00:00.000Z';
    expect(formatDuration(start, '2026-01-01T00:03:05.900Z')).toBe('3m 5s');
    expect(formatDuration(start, null, Date.parse(start) + 42_000)).toBe('42s');
    expect(formatDuration(null, null)).toBeNull();
  });
});

describe('formatMilliseconds', () => {
  it('says a model call or step time in ms, seconds, then minutes', () => {
    expect(formatMilliseconds(850)).toBe('850 ms');
    expect(formatMilliseconds(0)).toBe('0 ms');
    expect(formatMilliseconds(1234)).toBe('1.2 s');
    expect(formatMilliseconds(12_400)).toBe('12 s');
    expect(formatMilliseconds(125_000)).toBe('2m 5s');
    expect(formatMilliseconds(undefined)).toBeNull();
    expect(formatMilliseconds(-1)).toBeNull();
  });
});

describe('formatCost', () => {
  it('shows cents from a dollar, and up to four decimals below it', () => {
    expect(formatCost(1.25)).toBe('$1.25');
    expect(formatCost(1)).toBe('$1.00');
    expect(formatCost(1204.5)).toBe('$1,204.50');
    expect(formatCost(0.0042)).toBe('$0.0042');
    expect(formatCost(0.52)).toBe('$0.52');
    expect(formatCost(0.000375)).toBe('$0.0004');
    expect(formatCost(0.123456)).toBe('$0.1235');
  });

  it('says a tiny cost is not nothing, and nothing is $0.00', () => {
    expect(formatCost(0.00004)).toBe('< $0.0001');
    expect(formatCost(0.000001)).toBe('< $0.0001');
    expect(formatCost(0)).toBe('$0.00');
  });

  it('says a cost no price could tell is unknown, never 0', () => {
    expect(formatCost(null)).toBe('unknown');
  });
});
