import { describe, expect, it } from 'vitest';

import { driftValue, randomDelta } from './drift';

describe('driftValue', () => {
  it('adds the delta when the result stays inside the range', () => {
    expect(driftValue(78, 4, 60, 95)).toBe(82);
    expect(driftValue(78, -5, 60, 95)).toBe(73);
    expect(driftValue(78, 0, 60, 95)).toBe(78);
  });

  it('clamps at the upper bound', () => {
    expect(driftValue(93, 5, 60, 95)).toBe(95);
    expect(driftValue(95, 1, 60, 95)).toBe(95);
    expect(driftValue(78, 1000, 60, 95)).toBe(95);
  });

  it('clamps at the lower bound', () => {
    expect(driftValue(62, -5, 60, 95)).toBe(60);
    expect(driftValue(60, -1, 60, 95)).toBe(60);
    expect(driftValue(78, -1000, 60, 95)).toBe(60);
  });

  it('keeps the bounds themselves reachable', () => {
    expect(driftValue(90, 5, 60, 95)).toBe(95);
    expect(driftValue(65, -5, 60, 95)).toBe(60);
  });

  it('pulls a value that starts outside the range back inside', () => {
    expect(driftValue(10, 0, 60, 95)).toBe(60);
    expect(driftValue(120, 0, 60, 95)).toBe(95);
  });

  it('stays within the range over many random steps', () => {
    let value = 78;
    const seen = new Set<number>();
    for (let i = 0; i < 10_000; i += 1) {
      value = driftValue(value, randomDelta(6), 60, 95);
      expect(value).toBeGreaterThanOrEqual(60);
      expect(value).toBeLessThanOrEqual(95);
      expect(Number.isInteger(value)).toBe(true);
      seen.add(value);
    }
    // It really drifts rather than sticking to one value.
    expect(seen.size).toBeGreaterThan(10);
  });

  it('stays within the range for arbitrary (fractional, large) deltas', () => {
    let value = 78;
    for (let i = 0; i < 5_000; i += 1) {
      value = driftValue(value, (Math.random() - 0.5) * 200, 60, 95);
      expect(value).toBeGreaterThanOrEqual(60);
      expect(value).toBeLessThanOrEqual(95);
    }
  });
});

describe('randomDelta', () => {
  it('returns whole steps between -maxStep and maxStep', () => {
    expect(randomDelta(5, () => 0)).toBe(-5);
    expect(randomDelta(5, () => 0.5)).toBe(0);
    expect(randomDelta(5, () => 0.999999)).toBe(5);
  });
});
