import { describe, expect, it } from 'vitest';
import { builtInPrices, costMicros, microsOfUsd, usdOfMicros } from './prices';

const gpt4o = builtInPrices.find((p) => p.provider === 'openai' && p.model === 'gpt-4o')!;
/** A price with the same figure for every kind of token. */
const flat = (perMillion: number) => ({
  inputPerMillion: perMillion,
  cachedInputPerMillion: perMillion,
  outputPerMillion: perMillion,
});

describe('costMicros', () => {
  it('prices cached input apart from the rest of the input, and output at its own price', () => {
    // 600 uncached × $2.50 + 400 cached × $1.25 + 500 output × $10 per million tokens.
    expect(costMicros({ inputTokens: 1000, cachedInputTokens: 400, outputTokens: 500 }, gpt4o)).toBe(7000);
    expect(costMicros({ inputTokens: 1000, outputTokens: 500 }, gpt4o)).toBe(7500);
    expect(usdOfMicros(costMicros({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, gpt4o))).toBe(12.5);
  });

  it('rounds the whole call once to micro-dollars, half up, whatever the float noise', () => {
    // 10 × 1.15 is 11.499999999999998 in floating point; 100 × 1.005 is 100.49999999999999.
    expect(costMicros({ inputTokens: 10, outputTokens: 0 }, flat(1.15))).toBe(12);
    expect(costMicros({ inputTokens: 100, outputTokens: 0 }, flat(1.005))).toBe(101);
    expect(costMicros({ inputTokens: 3, outputTokens: 0 }, flat(0.15))).toBe(0);
    // Rounded once from the sum, not per kind: 0.45 + 0.45 is 0.9, so 1.
    expect(costMicros({ inputTokens: 3, outputTokens: 3 }, flat(0.15))).toBe(1);
  });

  it('counts cached tokens beyond the input as input, and negative ones as none', () => {
    expect(costMicros({ inputTokens: 100, cachedInputTokens: 500, outputTokens: 0 }, gpt4o)).toBe(125);
    expect(costMicros({ inputTokens: 100, cachedInputTokens: -50, outputTokens: 0 }, gpt4o)).toBe(250);
  });

  it('costs nothing for no usage', () => {
    expect(costMicros({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 }, gpt4o)).toBe(0);
  });
});

describe('micro-dollars', () => {
  it('convert to and from USD', () => {
    expect(microsOfUsd(0.5)).toBe(500_000);
    expect(microsOfUsd(0.0000015)).toBe(2);
    expect(usdOfMicros(7000)).toBe(0.007);
  });
});
