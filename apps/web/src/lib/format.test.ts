import { describe, expect, it } from 'vitest';
import { formatDuration, formatMilliseconds, formatSeconds } from './format';

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
