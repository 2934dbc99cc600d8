import { graderSchema, type Grader, type GraderInput } from '@crewline/contracts';
import type { GradingContext } from '@crewline/engine';
import { describe, expect, it } from 'vitest';
import { gradeMaxCost, gradeMaxLatency, gradeNumeric } from './number-graders';

const grader = <T extends Grader['type']>(input: GraderInput & { type: T }) =>
  graderSchema.parse(input) as Extract<Grader, { type: T }>;

const run = (costUsd: number | null, durationMs: number | null): GradingContext => ({
  run: {
    id: 'r',
    status: 'completed',
    result: null,
    output: {},
    input: {},
    costUsd,
    durationMs,
    error: null,
  },
  nodes: {},
  input: {},
  item: { input: {}, expected: null, tags: [] },
});

describe('numeric', () => {
  it('compares exactly by default, numbers and numeric text alike', () => {
    const g = grader({ type: 'numeric' });
    expect(gradeNumeric(g, ' 42 ', 42)).toEqual({ score: 1, reason: '42 is within 42' });
    expect(gradeNumeric(g, 0.1 + 0.2, '0.3').score).toBe(1);
    expect(gradeNumeric(g, 43, 42)).toEqual({ score: 0, reason: '43 is not within 42 (off by 1)' });
  });

  it('allows an absolute tolerance', () => {
    const g = grader({ type: 'numeric', tolerance: 0.5 });
    expect(gradeNumeric(g, 42.5, 42)).toEqual({ score: 1, reason: '42.5 is within 42 ± 0.5' });
    expect(gradeNumeric(g, 41.4, 42).score).toBe(0);
  });

  it('allows a tolerance relative to the expected value', () => {
    const g = grader({ type: 'numeric', tolerance: 0.05, relative: true });
    expect(gradeNumeric(g, 104, 100)).toEqual({ score: 1, reason: '104 is within 100 ± 5 %' });
    expect(gradeNumeric(g, 106, 100)).toEqual({ score: 0, reason: '106 is not within 100 ± 5 % (off by 6)' });
    expect(gradeNumeric(g, -95.5, -100).score).toBe(1);
  });

  it('scores 0 when either side is not a number', () => {
    const g = grader({ type: 'numeric', tolerance: 1 });
    expect(gradeNumeric(g, 'about forty', 42)).toEqual({
      score: 0,
      reason: 'The answer is not a number: "about forty"',
    });
    expect(gradeNumeric(g, 42, { value: 42 })).toEqual({
      score: 0,
      reason: 'The expected value is not a number: "{\\"value\\":42}"',
    });
    expect(gradeNumeric(g, '', 0).score).toBe(0);
  });
});

describe('cost and latency ceilings', () => {
  it('passes a run that cost at most the ceiling, and counts no priced calls as nothing', () => {
    const g = grader({ type: 'max_cost', maxUsd: 0.05 });
    expect(gradeMaxCost(g, run(0.0123, 100))).toEqual({ score: 1, reason: 'Cost $0.0123 (limit $0.05)' });
    expect(gradeMaxCost(g, run(0.06, 100))).toEqual({ score: 0, reason: 'Cost $0.06, over the limit $0.05' });
    expect(gradeMaxCost(g, run(null, 100))).toEqual({
      score: 1,
      reason: '$0: no priced model calls (limit $0.05)',
    });
  });

  it('passes a run that took at most the ceiling', () => {
    const g = grader({ type: 'max_latency', maxMs: 2000 });
    expect(gradeMaxLatency(g, run(0, 1800))).toEqual({ score: 1, reason: 'Took 1.8 s (limit 2 s)' });
    expect(gradeMaxLatency(g, run(0, 2500))).toEqual({ score: 0, reason: 'Took 2.5 s, over the limit 2 s' });
    expect(gradeMaxLatency(g, run(0, null)).score).toBe(0);
  });
});
