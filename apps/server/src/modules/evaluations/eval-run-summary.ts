import {
  gradeSchema,
  graderSchema,
  graderTypeLabels,
  usdOfMicros,
  type EvalItemResult,
  type EvalRunSummary,
  type Grade,
} from '@crewline/contracts';
import { z } from 'zod';
import type { EvalRunItemRow, EvalRunRow } from './eval-runs.repository';

const graderList = z.array(graderSchema);
const gradeList = z.array(gradeSchema);

/** An item row with its case, as eval-runs.repository.ts reads them. */
export type ItemWithCase = { item: EvalRunItemRow; input: Record<string, unknown>; expected: unknown };
/** What an eval run's figures are made of: each item's verdict, grades, cost and time. */
export type ItemFigures = Pick<
  EvalRunItemRow,
  'gradedAt' | 'passed' | 'costMicros' | 'durationMs' | 'grades'
>;

/** The p-th percentile (0–100) of sorted values, nearest rank; null when there are none. */
function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** 'v7', or 'Draft' for a snapshot of the working copy (a version below zero). */
const versionLabel = (version: number) => (version > 0 ? `v${version}` : 'Draft');

/**
 * An eval run's figures from its items: progress (graded over total), pass rate over the graded
 * items, the runs' cost, p50/p95 of their durations, and each grader's mean score and pass rate.
 */
export function summaryOf(run: EvalRunRow, items: ItemFigures[], evaluationName: string): EvalRunSummary {
  const graded = items.filter((item) => item.gradedAt !== null);
  const verdicts = graded.filter((item) => item.passed !== null);
  const durations = graded
    .map((item) => item.durationMs)
    .filter((ms): ms is number => ms !== null)
    .sort((a, b) => a - b);
  const graders = graderList.parse(run.graders);
  const gradesOf = graded.map((item) => gradeList.parse(item.grades ?? []));
  const scores = graders.map((grader, index) => {
    const mine = gradesOf.map((grades) => grades[index]).filter((grade): grade is Grade => !!grade);
    const mean = mine.length === 0 ? 0 : mine.reduce((sum, grade) => sum + grade.score, 0) / mine.length;
    const passed = mine.filter((grade) => grade.passed).length;
    return {
      name: grader.name ?? graderTypeLabels[grader.type],
      type: grader.type,
      mean,
      passRate: mine.length === 0 ? 0 : passed / mine.length,
    };
  });
  return {
    id: run.id,
    evaluationId: run.evaluationId,
    evaluationName,
    workflowId: run.workflowId,
    versionLabel: versionLabel(run.workflowVersion),
    version: run.workflowVersion > 0 ? run.workflowVersion : null,
    datasetVersion: run.datasetVersion,
    status: run.status,
    reason: run.reason,
    concurrency: run.concurrency,
    progress: { done: graded.length, total: run.total },
    passRate: verdicts.length === 0 ? null : verdicts.filter((item) => item.passed).length / verdicts.length,
    costUsd: usdOfMicros(graded.reduce((sum, item) => sum + (item.costMicros ?? 0), 0)),
    latencyMs: { p50: percentile(durations, 50), p95: percentile(durations, 95) },
    scores,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    completedAt: run.completedAt?.toISOString() ?? null,
  };
}

export function toItemResult({ item, input, expected }: ItemWithCase): EvalItemResult {
  const notRun = item.gradedAt === null && item.startedAt === null;
  return {
    itemId: item.itemId,
    executionId: item.executionId,
    input,
    expected: expected ?? null,
    output: item.output ?? null,
    passed: item.passed,
    score: item.score,
    grades: gradeList.parse(item.grades ?? []),
    costUsd: item.costMicros === null ? null : usdOfMicros(item.costMicros),
    durationMs: item.durationMs,
    error: item.error ?? (notRun ? 'Not run' : null),
  };
}

/** Failed items first, then those not graded, then the passed ones; in dataset order within each. */
export function failuresFirst(a: EvalItemResult, b: EvalItemResult): number {
  const rank = (item: EvalItemResult) => (item.passed === false ? 0 : item.passed === null ? 1 : 2);
  return rank(a) - rank(b);
}
