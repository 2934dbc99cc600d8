import { useEffect, useState } from 'react';

import { driftValue, randomDelta } from '../drift';

export interface DriftingValueOptions {
  /** Initial value. */
  start: number;
  /** Inclusive lower bound. */
  min: number;
  /** Inclusive upper bound. */
  max: number;
  /** How often the value drifts, in milliseconds. */
  intervalMs: number;
  /** Largest step per tick (whole numbers, either direction). Defaults to 6. */
  maxStep?: number;
}

/**
 * A mock "live" number: starts at `start` and every `intervalMs` moves by a random step,
 * clamped to [min, max].
 */
export function useDriftingValue({ start, min, max, intervalMs, maxStep = 6 }: DriftingValueOptions): number {
  const [value, setValue] = useState(() => driftValue(start, 0, min, max));

  useEffect(() => {
    const id = window.setInterval(() => {
      setValue((current) => driftValue(current, randomDelta(maxStep), min, max));
    }, intervalMs);
    return () => window.clearInterval(id);
  }, [min, max, intervalMs, maxStep]);

  return value;
}
