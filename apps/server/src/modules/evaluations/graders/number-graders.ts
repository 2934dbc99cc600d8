// The graders of numbers: within a tolerance, and the run's cost and time ceilings (grade-item.ts has the rules).
import type { Grader } from '@crewline/contracts';
import type { GradingContext } from '@crewline/engine';
import { formatNumber, numberOf, quoted, type Verdict } from './values';

type Of<T extends Grader['type']> = Extract<Grader, { type: T }>;

/**
 * |answer − expected| ≤ tolerance (relative: tolerance × |expected|), both numbers or text that is
 * one. A hair of slack (1e-9 of the value) keeps floating point from failing 0.1 + 0.2 against 0.3.
 */
export function gradeNumeric(grader: Of<'numeric'>, target: unknown, expected: unknown): Verdict {
  const answer = numberOf(target);
  if (answer === null) return { score: 0, reason: `The answer is not a number: ${quoted(target)}` };
  const wanted = numberOf(expected);
  if (wanted === null) return { score: 0, reason: `The expected value is not a number: ${quoted(expected)}` };
  const tolerance = grader.tolerance ?? 0;
  const allowed = grader.relative ? tolerance * Math.abs(wanted) : tolerance;
  const off = Math.abs(answer - wanted);
  const within = off <= allowed + 1e-9 * Math.max(1, Math.abs(wanted));
  const range =
    tolerance === 0
      ? formatNumber(wanted)
      : grader.relative
        ? `${formatNumber(wanted)} ± ${formatNumber(tolerance * 100)} %`
        : `${formatNumber(wanted)} ± ${formatNumber(tolerance)}`;
  if (within) return { score: 1, reason: `${formatNumber(answer)} is within ${range}` };
  return { score: 0, reason: `${formatNumber(answer)} is not within ${range} (off by ${formatNumber(off)})` };
}

/** The run's cost is at most `maxUsd`; a run without priced model calls costs nothing. */
export function gradeMaxCost(grader: Of<'max_cost'>, context: GradingContext): Verdict {
  const limit = `limit ${usd(grader.maxUsd)}`;
  if (context.run.costUsd === null) return { score: 1, reason: `$0: no priced model calls (${limit})` };
  const cost = context.run.costUsd;
  return cost <= grader.maxUsd
    ? { score: 1, reason: `Cost ${usd(cost)} (${limit})` }
    : { score: 0, reason: `Cost ${usd(cost)}, over the ${limit}` };
}

/** The run took at most `maxMs`. */
export function gradeMaxLatency(grader: Of<'max_latency'>, context: GradingContext): Verdict {
  const limit = `limit ${seconds(grader.maxMs)}`;
  const took = context.run.durationMs;
  if (took === null) return { score: 0, reason: `The run's time is not known (${limit})` };
  return took <= grader.maxMs
    ? { score: 1, reason: `Took ${seconds(took)} (${limit})` }
    : { score: 0, reason: `Took ${seconds(took)}, over the ${limit}` };
}

/** Dollars as a cost shows: cents above a dollar, up to 4 significant digits below it. */
function usd(value: number): string {
  if (value === 0) return '$0';
  return value >= 1 ? `$${value.toFixed(2)}` : `$${Number(value.toPrecision(4))}`;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${formatNumber(ms / 1000)} s`;
}
