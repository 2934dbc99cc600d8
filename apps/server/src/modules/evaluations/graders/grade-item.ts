// Grading one item of an eval run: each grader scores the finished run, and the item passes when
// its graders' weighted share of passes reaches the evaluation's threshold (issue 39, Graders).
//
// The rules:
// - A grader reads its `target`, a CEL expression over run, nodes, input and item (default
//   `run.result`), and compares it with its `expected`: the grader's own when it has one, else the
//   case's. A grader that compares and has nothing to compare with scores 0 and says so. Cost and
//   latency ceilings read the run, not a target. The item's `output` is `run.result` as it is.
// - Every grade has a score in 0–1, `passed = score >= threshold` (the grader's, else its type's
//   default: 1; similarity 0.8; a 1–5 judge 0.75), a reason in plain words (values quoted at most
//   200 characters, cut with '…'), and the grader's name (else its type's label).
// - A value's text: a string as it is, anything else as JSON.
// - exact: the texts equal once trimmed; case counts unless caseSensitive is false. 1 or 0.
// - contains: the answer's text holds the expected text; case is ignored unless caseSensitive.
// - regex: `expected` is an RE2 pattern found anywhere in the answer's text (case-insensitive when
//   caseSensitive is false; it counts by default). A pattern that does not compile scores 0 with why.
// - json_equals: the answer (text holding JSON is parsed; text that holds none scores 0) at `field`
//   (a dotted path, `a.b.0.c`; the whole value without one) deep-equals `expected` (parsed too when
//   it is text holding JSON). Key order does not matter.
// - json_schema: the answer (parsed as above) is valid against `schema`; the reason lists the first
//   errors.
// - numeric: the answer and `expected` are numbers or text that is one (else 0, with why); passes
//   when |answer − expected| ≤ tolerance (relative: tolerance × |expected|). 1 or 0.
// - similarity: the cosine of the two texts' embeddings (each cut at 20,000 characters), clamped to
//   0–1, through the organization's connection of the grader's provider, metered.
// - llm_judge: one call of the judge model with the rubric, the case's input, the expected answer
//   (if any) and the answer, which is data and not instructions; its structured answer is pass/fail
//   (1 or 0) or 1–5 ((n − 1) / 4); the reason is its reasoning (cut at 1,000 characters).
// - max_cost: the run's cost ≤ maxUsd (a run without priced model calls costs 0); max_latency: the
//   run's time ≤ maxMs (a run whose time is not known fails).
// - A grader that throws (its target cannot be read, a model call fails) scores 0 and fails, with
//   the error's message as the reason: gradeItem throws only when ports.signal aborted.
// - Graders run at once; the grades come in the graders' order.
// - The item's score: Σ weight × (passed ? 1 : 0) / Σ weight (weight 1 by default); it passes when
//   score ≥ passThreshold (with 1e-9 of slack for floating point).
import {
  DEFAULT_GRADER_TARGET,
  DEFAULT_SIMILARITY_THRESHOLD,
  graderTypeLabels,
  type Grade,
  type Grader,
} from '@crewline/contracts';
import { ExpressionError, evaluateGraderTarget, type GradingContext } from '@crewline/engine';
import type { LlmConnection, LlmGateway, LlmMeter, LlmProvider } from '../../../platform/llm';
import { gradeJsonEquals, gradeJsonSchema } from './json-graders';
import { gradeWithJudge } from './llm-judge';
import { gradeMaxCost, gradeMaxLatency, gradeNumeric } from './number-graders';
import { gradeSimilarity } from './similarity-grader';
import { gradeContains, gradeExact, gradeRegex } from './text-graders';
import type { Verdict } from './values';

export type GradingPorts = {
  /** Model calls, metered by the caller's meter (source 'evaluation'). */
  llm: Pick<LlmGateway, 'generate' | 'embed'>;
  connectionFor(organizationId: string, provider: LlmProvider): Promise<LlmConnection>;
  /** { organizationId, source: 'evaluation', workflowId, executionId } */
  meter: LlmMeter;
  signal?: AbortSignal;
};

export type ItemGrading = { grades: Grade[]; score: number; passed: boolean; output: unknown };

/** Slack when an item's score is compared with the pass threshold: 2/3 of the weight must pass 0.6667. */
const SCORE_EPSILON = 1e-9;
/** The pass threshold of a 1–5 judge: 4 out of 5. */
const JUDGE_SCALE_THRESHOLD = 0.75;

/** Grades one finished run of an item with every grader of the evaluation. */
export async function gradeItem(
  graders: Grader[],
  passThreshold: number,
  context: GradingContext,
  ports: GradingPorts,
): Promise<ItemGrading> {
  ports.signal?.throwIfAborted();
  const grades = await Promise.all(graders.map((grader) => gradeOne(grader, context, ports)));
  ports.signal?.throwIfAborted();
  let total = 0;
  let passedWeight = 0;
  graders.forEach((grader, index) => {
    const weight = grader.weight ?? 1;
    total += weight;
    if (grades[index].passed) passedWeight += weight;
  });
  const score = total > 0 ? passedWeight / total : 0;
  return { grades, score, passed: score >= passThreshold - SCORE_EPSILON, output: context.run.result };
}

async function gradeOne(grader: Grader, context: GradingContext, ports: GradingPorts): Promise<Grade> {
  let verdict: Verdict;
  try {
    verdict = await verdictOf(grader, context, ports);
  } catch (error) {
    verdict = { score: 0, reason: reasonOf(error) };
  }
  const score = Number.isFinite(verdict.score) ? Math.min(1, Math.max(0, verdict.score)) : 0;
  return {
    type: grader.type,
    name: grader.name ?? graderTypeLabels[grader.type],
    score,
    passed: score >= thresholdOf(grader),
    reason: verdict.reason,
  };
}

async function verdictOf(grader: Grader, context: GradingContext, ports: GradingPorts): Promise<Verdict> {
  // The ceilings read the run itself.
  if (grader.type === 'max_cost') return gradeMaxCost(grader, context);
  if (grader.type === 'max_latency') return gradeMaxLatency(grader, context);

  const target = evaluateGraderTarget(grader.target ?? DEFAULT_GRADER_TARGET, context);
  if (grader.type === 'json_schema') return gradeJsonSchema(grader, target);
  const expected = grader.expected !== undefined ? grader.expected : (context.item.expected ?? undefined);
  if (grader.type === 'llm_judge') {
    return gradeWithJudge(grader, { input: context.item.input, expected, answer: target }, ports);
  }
  if (expected === undefined) {
    return {
      score: 0,
      reason: 'Nothing to compare with: the case has no expected answer and the grader names none',
    };
  }
  switch (grader.type) {
    case 'exact':
      return gradeExact(grader, target, expected);
    case 'contains':
      return gradeContains(grader, target, expected);
    case 'regex':
      return gradeRegex(grader, target, expected);
    case 'json_equals':
      return gradeJsonEquals(grader, target, expected);
    case 'numeric':
      return gradeNumeric(grader, target, expected);
    case 'similarity':
      return gradeSimilarity(grader, target, expected, ports);
  }
}

/** The score a grade must reach: the grader's threshold, else its type's default. */
function thresholdOf(grader: Grader): number {
  if (grader.threshold !== undefined) return grader.threshold;
  if (grader.type === 'similarity') return DEFAULT_SIMILARITY_THRESHOLD;
  if (grader.type === 'llm_judge' && grader.scale === '1-5') return JUDGE_SCALE_THRESHOLD;
  return 1;
}

/** An error as a grade's reason: its message, which the engine and the gateway write for people. */
function reasonOf(error: unknown): string {
  if (error instanceof ExpressionError) return `The target cannot be read: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return message.trim() || 'The grader failed without saying why';
}
