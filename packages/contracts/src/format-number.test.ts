import { describe, expect, it } from 'vitest';
import { formatNumber } from './format-number';

describe('formatNumber', () => {
  it('writes numbers as en-US does, without ICU', () => {
    const samples = [
      0, 7, 999, 1000, 10_000, 123_456, 1_000_000, 9_007_199_254_740, -1234, -5, 2.5, 0.125, 1234.5678,
      30.0004,
    ];
    for (const value of samples)
      expect(formatNumber(value), String(value)).toBe(value.toLocaleString('en-US'));
  });
});
