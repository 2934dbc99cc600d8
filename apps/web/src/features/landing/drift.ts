/**
 * Pure helpers behind the hero's mock "workflow progress" value.
 * Kept free of React and of the DOM so they can be unit-tested directly.
 */

/** Moves `current` by `delta` and clamps the result to the inclusive range [min, max]. */
export function driftValue(current: number, delta: number, min: number, max: number): number {
  const lower = Math.min(min, max);
  const upper = Math.max(min, max);
  const next = current + delta;
  if (Number.isNaN(next)) return lower;
  return Math.min(upper, Math.max(lower, next));
}

/** A random whole-number step in [-maxStep, maxStep]. `random` is injectable for tests. */
export function randomDelta(maxStep: number, random: () => number = Math.random): number {
  return Math.round((random() * 2 - 1) * maxStep);
}
