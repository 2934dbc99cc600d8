// Eval runs as the API answers them, for the component tests.
import type {
  EvalComparison,
  EvalItemResult,
  EvalRun,
  EvalRunSummary,
  Evaluation,
} from '@crewline/contracts';

export function aRunSummary(overrides: Partial<EvalRunSummary> = {}): EvalRunSummary {
  return {
    id: 'r1',
    evaluationId: 'e1',
    evaluationName: 'Refund answers',
    workflowId: 'w1',
    versionLabel: 'v7',
    version: 7,
    datasetVersion: 3,
    status: 'completed',
    reason: 'manual',
    concurrency: 5,
    progress: { done: 2, total: 2 },
    passRate: 0.5,
    costUsd: 0.0123,
    latencyMs: { p50: 1200, p95: 3400 },
    scores: [{ name: 'Exact match', type: 'exact', mean: 0.5, passRate: 0.5 }],
    error: null,
    createdAt: '2026-12-01T10:00:00Z',
    completedAt: '2026-12-01T10:01:00Z',
    ...overrides,
  };
}

export function anItem(overrides: Partial<EvalItemResult> = {}): EvalItemResult {
  return {
    itemId: 'i1',
    executionId: 'x1',
    input: { message: 'Can I get a refund?' },
    expected: 'Yes',
    output: 'Yes',
    passed: true,
    score: 1,
    grades: [
      {
        type: 'exact',
        name: 'Exact match',
        score: 1,
        passed: true,
        reason: 'The answer equals the expected text',
      },
    ],
    costUsd: 0.002,
    durationMs: 1200,
    error: null,
    ...overrides,
  };
}

export function aRun(overrides: Partial<EvalRun> = {}): EvalRun {
  return { ...aRunSummary(overrides), items: [anItem()], ...overrides };
}

export function anEvaluation(overrides: Partial<Evaluation> = {}): Evaluation {
  return {
    id: 'e1',
    name: 'Refund answers',
    workflowId: 'w1',
    workflowName: 'Support bot',
    datasetId: 'd1',
    datasetName: 'Refund questions',
    graders: [{ type: 'exact', name: 'Exact match', weight: 2 }],
    passThreshold: 1,
    schedule: null,
    lastRun: null,
    createdAt: '2026-12-01T09:00:00Z',
    updatedAt: '2026-12-01T09:00:00Z',
    ...overrides,
  };
}

export function aComparison(overrides: Partial<EvalComparison> = {}): EvalComparison {
  return {
    a: aRunSummary({ id: 'ra', versionLabel: 'v7', passRate: 0.75 }),
    b: aRunSummary({ id: 'rb', versionLabel: 'Draft', version: null, passRate: 0.8 }),
    items: [],
    totals: { regressions: 0, improvements: 0, passRateDelta: 0.05, costUsdDelta: 0.001, p50Delta: -200 },
    ...overrides,
  };
}
