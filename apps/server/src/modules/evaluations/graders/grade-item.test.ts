import { graderSchema, type GraderInput } from '@crewline/contracts';
import type { GradingContext } from '@crewline/engine';
import { describe, expect, it } from 'vitest';
import { gradeItem, type GradingPorts } from './grade-item';

const graders = (...inputs: GraderInput[]) => inputs.map((input) => graderSchema.parse(input));

function context(result: unknown, overrides: Partial<GradingContext> = {}): GradingContext {
  return {
    run: {
      id: 'run-1',
      status: 'completed',
      result,
      output: { result },
      input: { question: 'Capital of France?' },
      costUsd: 0.002,
      durationMs: 900,
      error: null,
    },
    nodes: { classify: { content: 'geography', status: 'completed', data: { category: 'geo' } } },
    input: { question: 'Capital of France?' },
    item: { input: { question: 'Capital of France?' }, expected: 'Paris', tags: ['geo'] },
    ...overrides,
  };
}

/** No grader here calls a model: a call would fail the grade and the test. */
const ports: GradingPorts = {
  llm: {
    generate: () => Promise.reject(new Error('no model call expected')),
    embed: () => Promise.reject(new Error('no model call expected')),
  },
  connectionFor: () => Promise.reject(new Error('no connection expected')),
  meter: { organizationId: 'org-1', source: 'evaluation' },
};

describe('gradeItem', () => {
  it("grades the run's result against the case's expected answer, with names and reasons", async () => {
    const graded = await gradeItem(
      graders({ type: 'exact' }, { type: 'contains', name: 'Mentions Paris' }),
      1,
      context('Paris'),
      ports,
    );
    expect(graded).toEqual({
      grades: [
        { type: 'exact', name: 'Exact match', score: 1, passed: true, reason: 'Matches "Paris"' },
        {
          type: 'contains',
          name: 'Mentions Paris',
          score: 1,
          passed: true,
          reason: 'Contains "Paris" (ignoring case)',
        },
      ],
      score: 1,
      passed: true,
      output: 'Paris',
    });
  });

  it("reads a target by CEL, and prefers the grader's own expected value", async () => {
    const graded = await gradeItem(
      graders(
        { type: 'exact', target: 'nodes.classify.data.category', expected: 'geo' },
        { type: 'json_equals', target: 'run.result', field: 'city' },
        { type: 'exact', target: 'item.tags[0]', expected: 'geo' },
      ),
      1,
      context({ city: 'Paris' }),
      ports,
    );
    expect(graded.grades.map((grade) => [grade.passed, grade.reason])).toEqual([
      [true, 'Matches "geo"'],
      [true, 'city equals "Paris"'],
      [true, 'Matches "geo"'],
    ]);
    expect(graded.output).toEqual({ city: 'Paris' });
  });

  it('weighs graders: the item passes when the weighted share of passes reaches the threshold', async () => {
    const mixed = graders(
      { type: 'exact', weight: 3 }, // passes
      { type: 'contains', expected: 'Lyon' }, // fails, weight 1
    );
    const strict = await gradeItem(mixed, 1, context('Paris'), ports);
    expect(strict.score).toBe(0.75);
    expect(strict.passed).toBe(false);
    expect(strict.grades.map((grade) => grade.passed)).toEqual([true, false]);

    expect((await gradeItem(mixed, 0.75, context('Paris'), ports)).passed).toBe(true);
    expect((await gradeItem(mixed, 0.76, context('Paris'), ports)).passed).toBe(false);

    // Two of three equal weights: 0.666…, which passes a threshold of 2/3 despite floating point.
    const thirds = graders({ type: 'exact' }, { type: 'exact' }, { type: 'exact', expected: 'Lyon' });
    const graded = await gradeItem(thirds, 2 / 3, context('Paris'), ports);
    expect(graded.score).toBeCloseTo(2 / 3);
    expect(graded.passed).toBe(true);
  });

  it("applies a grader's own threshold to its score", async () => {
    const similarEnough = graders({ type: 'exact', expected: 'London', threshold: 0 });
    const graded = await gradeItem(similarEnough, 1, context('Paris'), ports);
    expect(graded.grades[0]).toMatchObject({ score: 0, passed: true });
    expect(graded.passed).toBe(true);
  });

  it('turns a target that cannot be read into a failed grade, and grades the others', async () => {
    const graded = await gradeItem(
      graders(
        { type: 'exact', target: 'run.result.missing' },
        { type: 'exact' },
        { type: 'max_latency', maxMs: 500 },
      ),
      0.5,
      context('Paris'),
      ports,
    );
    expect(graded.grades).toEqual([
      {
        type: 'exact',
        name: 'Exact match',
        score: 0,
        passed: false,
        reason: 'The target cannot be read: run.result.missing — run.result has no field "missing"',
      },
      { type: 'exact', name: 'Exact match', score: 1, passed: true, reason: 'Matches "Paris"' },
      {
        type: 'max_latency',
        name: 'Latency ceiling',
        score: 0,
        passed: false,
        reason: 'Took 900 ms, over the limit 500 ms',
      },
    ]);
    expect(graded.score).toBeCloseTo(1 / 3);
    expect(graded.passed).toBe(false);
  });

  it('fails a comparing grader that has nothing to compare with', async () => {
    const noExpected = context('Paris', { item: { input: {}, expected: null, tags: [] } });
    const graded = await gradeItem(
      graders({ type: 'exact' }, { type: 'max_cost', maxUsd: 1 }),
      1,
      noExpected,
      ports,
    );
    expect(graded.grades[0]).toMatchObject({
      passed: false,
      reason: 'Nothing to compare with: the case has no expected answer and the grader names none',
    });
    expect(graded.grades[1]).toMatchObject({ passed: true, reason: 'Cost $0.002 (limit $1.00)' });
  });

  it('throws only when the caller aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      gradeItem(graders({ type: 'exact' }), 1, context('Paris'), { ...ports, signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});
