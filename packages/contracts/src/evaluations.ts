// Evaluations (docs/product-rules.md, Evaluations): datasets of cases, graders that score a run's
// answer, eval runs of a dataset against one pinned workflow version, their comparison, and the gate
// that keeps a workflow from recording a version that fails its evaluation.
import { z } from 'zod';
import { formatNumber } from './format-number';
import { llmProviderSchema } from './agents';
import { DEFAULT_EMBEDDING_MODEL, embeddingProviderSchema } from './knowledge';

/** Bounds of what a dataset holds and of what one request adds. */
export const DATASET_MAX_ITEMS = 10_000;
export const DATASET_ITEMS_PER_REQUEST = 1_000;
/** The largest file `POST /api/datasets/:id/import` takes. */
export const DATASET_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The most items an eval run runs at once, and its default. */
export const EVAL_MAX_CONCURRENCY = 20;
export const EVAL_DEFAULT_CONCURRENCY = 5;
export const EVAL_MAX_GRADERS = 20;

const jsonObject = z.record(z.string(), z.unknown());
const tag = z.string().trim().min(1).max(50);

// ---- Datasets -------------------------------------------------------------------------------

export const datasetSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** Raised by every change of its items; an eval run records the version it used. */
  version: z.number().int(),
  itemCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Dataset = z.infer<typeof datasetSchema>;

export const createDatasetSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  description: z.string().trim().max(2000).nullish(),
});
export type CreateDatasetInput = z.input<typeof createDatasetSchema>;
export const updateDatasetSchema = createDatasetSchema.partial();

/** One case: what a run starts with, and optionally what it should answer. */
export const datasetItemInputSchema = z.object({
  /** The run's input (as Execute takes it). */
  input: jsonObject,
  /** Text or any JSON value; null or absent when the graders need none. */
  expected: z.unknown().optional(),
  tags: z.array(tag).max(20).default([]),
});
export type DatasetItemInput = z.input<typeof datasetItemInputSchema>;

export const addDatasetItemsSchema = z.object({
  items: z.array(datasetItemInputSchema).min(1).max(DATASET_ITEMS_PER_REQUEST),
});

export const datasetItemSchema = z.object({
  id: z.string(),
  input: jsonObject,
  expected: z.unknown().nullable(),
  tags: z.array(z.string()),
  /** The run it was taken from ('Add to dataset'), if any. */
  sourceExecutionId: z.string().nullable(),
  createdAt: z.string(),
});
export type DatasetItem = z.infer<typeof datasetItemSchema>;

export const datasetItemListSchema = z.object({
  dataset: datasetSchema,
  items: z.array(datasetItemSchema),
});
export type DatasetItemList = z.infer<typeof datasetItemListSchema>;

/** POST /api/datasets/:id/items/from-executions: cases from past runs. */
export const itemsFromExecutionsSchema = z.object({
  executionIds: z.array(z.string()).min(1).max(DATASET_ITEMS_PER_REQUEST),
  /** Take each run's result as the case's expected answer. */
  useResultAsExpected: z.boolean().default(false),
});

/**
 * How POST /api/datasets/:id/import reads a CSV or JSONL file (query parameters): which column or
 * field is the expected answer and which hold tags; every other one goes into the input. An OpenAI
 * Evals export needs none of it. `preview=true` answers what would be added and adds nothing.
 */
export const datasetImportQuerySchema = z.object({
  expected: z.string().max(200).optional(),
  tags: z.string().max(200).optional(),
  /** Columns or fields left out altogether (comma-separated). */
  ignore: z.string().max(2000).optional(),
  preview: z.enum(['true', 'false']).optional(),
});
export type DatasetImportQuery = z.infer<typeof datasetImportQuerySchema>;

/** The import's content types: CSV, JSONL (also an OpenAI Evals export), or an OpenAI Evals JSON export. */
export const datasetImportContentTypes = ['text/csv', 'application/jsonl', 'application/json'] as const;

export const datasetImportResultSchema = z.object({
  /** What the file was read as. */
  format: z.enum(['csv', 'jsonl', 'openai_evals']),
  /** The columns (CSV) or top-level fields (JSONL) found, for the mapping. */
  columns: z.array(z.string()),
  /** The first items as they are (or would be) added. */
  sample: z.array(datasetItemInputSchema),
  /** Items added (0 for a preview). */
  added: z.number().int(),
  /** Items the file holds. */
  total: z.number().int(),
  /** The OpenAI Evals export's graders converted to Crewline's, for an evaluation. */
  graders: z.array(z.lazy(() => graderSchema)),
  /** What was not taken over, in words (an OpenAI grader of another kind, a line that is not JSON). */
  skipped: z.array(z.string()),
  dataset: datasetSchema,
});
export type DatasetImportResult = z.infer<typeof datasetImportResultSchema>;

// ---- Graders --------------------------------------------------------------------------------

export const graderTypeValues = [
  'exact',
  'contains',
  'regex',
  'json_equals',
  'json_schema',
  'numeric',
  'similarity',
  'llm_judge',
  'max_cost',
  'max_latency',
] as const;
export type GraderType = (typeof graderTypeValues)[number];

export const graderTypeLabels: Record<GraderType, string> = {
  exact: 'Exact match',
  contains: 'Contains',
  regex: 'Regular expression',
  json_equals: 'JSON field equals',
  json_schema: 'JSON Schema valid',
  numeric: 'Number within tolerance',
  similarity: 'Semantic similarity',
  llm_judge: 'LLM as judge',
  max_cost: 'Cost ceiling',
  max_latency: 'Latency ceiling',
};

/** What a grader reads when it names no `target`: the run's result. */
export const DEFAULT_GRADER_TARGET = 'run.result';
export const DEFAULT_SIMILARITY_THRESHOLD = 0.8;

const graderBase = {
  /** A short name for the result tables (the type's label when absent). */
  name: z.string().trim().min(1).max(100).optional(),
  /**
   * A CEL expression over `run` (`result`, `output`, `input`, `costUsd`, `durationMs`, `status`),
   * `nodes` (each step's `content`, `data`, `status`), `input` and `item` (`input`, `expected`,
   * `tags`); default `run.result`.
   */
  target: z.string().trim().min(1).max(2000).optional(),
  /** What the target is compared with; the item's `expected` when absent. */
  expected: z.unknown().optional(),
  /** Its share of the item's score (default 1). */
  weight: z.number().positive().max(100).optional(),
  /** The score (0–1) it must reach to pass; each type has its default. */
  threshold: z.number().min(0).max(1).optional(),
};

export const graderSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('exact'), ...graderBase, caseSensitive: z.boolean().optional() }),
  z.object({ type: z.literal('contains'), ...graderBase, caseSensitive: z.boolean().optional() }),
  /** `expected` is the pattern (RE2 syntax: no backreferences, linear time). */
  z.object({ type: z.literal('regex'), ...graderBase, caseSensitive: z.boolean().optional() }),
  /** The target (JSON, or text holding JSON) at `field` (a dotted path; the whole value when absent) equals `expected`. */
  z.object({ type: z.literal('json_equals'), ...graderBase, field: z.string().trim().max(500).optional() }),
  z.object({ type: z.literal('json_schema'), ...graderBase, schema: jsonObject }),
  /** |target − expected| ≤ tolerance (absolute, or a share of expected when `relative`). */
  z.object({
    type: z.literal('numeric'),
    ...graderBase,
    tolerance: z.number().min(0).default(0),
    relative: z.boolean().optional(),
  }),
  /** Cosine similarity of the two texts' embeddings ≥ threshold (default 0.8). */
  z.object({
    type: z.literal('similarity'),
    ...graderBase,
    provider: embeddingProviderSchema.default('openai'),
    model: z.string().trim().min(1).max(200).default(DEFAULT_EMBEDDING_MODEL),
  }),
  /** A judge model scores the answer against the rubric: pass/fail, or 1–5 (score (n − 1) / 4). */
  z.object({
    type: z.literal('llm_judge'),
    ...graderBase,
    rubric: z.string().trim().min(1, 'A rubric is required').max(8000),
    scale: z.enum(['pass_fail', '1-5']).default('pass_fail'),
    provider: llmProviderSchema,
    model: z.string().trim().min(1).max(200),
  }),
  z.object({ type: z.literal('max_cost'), ...graderBase, maxUsd: z.number().min(0) }),
  z.object({ type: z.literal('max_latency'), ...graderBase, maxMs: z.number().int().min(0) }),
]);
export type Grader = z.output<typeof graderSchema>;
export type GraderInput = z.input<typeof graderSchema>;

/** One grader's verdict on one item. */
export const gradeSchema = z.object({
  type: z.enum(graderTypeValues),
  name: z.string(),
  /** 0–1. */
  score: z.number(),
  passed: z.boolean(),
  /** Why, in words: what was compared, or the judge's reasoning. */
  reason: z.string(),
});
export type Grade = z.infer<typeof gradeSchema>;

// ---- Evaluations ----------------------------------------------------------------------------

/** A nightly run against the active version; owners and admins hear when its pass rate drops below `minPassRate`. */
export const evaluationScheduleSchema = z.object({
  nightly: z.boolean(),
  minPassRate: z.number().min(0).max(1).default(0.9),
});

export const createEvaluationSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(200),
  workflowId: z.string(),
  datasetId: z.string(),
  graders: z.array(graderSchema).min(1, 'Add at least one grader').max(EVAL_MAX_GRADERS),
  /** An item passes when its graders' weighted share of passes reaches this (0–1; 1: every grader passes). */
  passThreshold: z.number().min(0).max(1).default(1),
  schedule: evaluationScheduleSchema.nullish(),
});
export type CreateEvaluationInput = z.input<typeof createEvaluationSchema>;
export const updateEvaluationSchema = createEvaluationSchema.omit({ workflowId: true }).partial();

export const evaluationSchema = z.object({
  id: z.string(),
  name: z.string(),
  workflowId: z.string(),
  workflowName: z.string(),
  datasetId: z.string(),
  datasetName: z.string(),
  graders: z.array(graderSchema),
  passThreshold: z.number(),
  schedule: evaluationScheduleSchema.nullable(),
  /** The newest eval run, if any. */
  lastRun: z
    .object({ id: z.string(), status: z.string(), passRate: z.number().nullable(), createdAt: z.string() })
    .nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Evaluation = z.infer<typeof evaluationSchema>;

export const evaluationListQuerySchema = z.object({ workflowId: z.string().optional() });

// ---- Eval runs ------------------------------------------------------------------------------

export const evalRunStatusValues = ['running', 'completed', 'cancelled', 'failed'] as const;
export type EvalRunStatus = (typeof evalRunStatusValues)[number];

/** Which version an eval run runs: a recorded one, the working copy (`draft`) or the newest (`active`). */
export const evalVersionSchema = z.union([
  z
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1),
  z.enum(['draft', 'active']),
]);

export const startEvalRunSchema = z.object({
  version: evalVersionSchema,
  concurrency: z.number().int().min(1).max(EVAL_MAX_CONCURRENCY).default(EVAL_DEFAULT_CONCURRENCY),
});
export type StartEvalRunInput = z.input<typeof startEvalRunSchema>;

export const evalItemResultSchema = z.object({
  itemId: z.string(),
  executionId: z.string().nullable(),
  input: jsonObject,
  expected: z.unknown().nullable(),
  /** What the graders read as the answer (the default target), null until graded. */
  output: z.unknown().nullable(),
  /** Null until graded (and for items an eval run cancelled before they ran). */
  passed: z.boolean().nullable(),
  score: z.number().nullable(),
  grades: z.array(gradeSchema),
  costUsd: z.number().nullable(),
  durationMs: z.number().nullable(),
  /** Why the item could not be graded normally: its run failed, or was cancelled. */
  error: z.string().nullable(),
});
export type EvalItemResult = z.infer<typeof evalItemResultSchema>;

export const evalRunSummarySchema = z.object({
  id: z.string(),
  evaluationId: z.string(),
  evaluationName: z.string(),
  workflowId: z.string(),
  /** The version it ran, as people read it: 'v7', or 'Draft' for a snapshot of the working copy. */
  versionLabel: z.string(),
  /** The recorded version it ran; null for a snapshot of the working copy. */
  version: z.number().int().nullable(),
  datasetVersion: z.number().int(),
  status: z.enum(evalRunStatusValues),
  /** What started it: a person, the nightly schedule, or an activation behind the gate. */
  reason: z.enum(['manual', 'schedule', 'activation']),
  concurrency: z.number().int(),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  /** Passed items over graded ones (0–1); null until one is graded. */
  passRate: z.number().nullable(),
  costUsd: z.number(),
  latencyMs: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
  /** Each grader's mean score (0–1) and pass rate over the graded items, in the evaluation's order. */
  scores: z.array(
    z.object({ name: z.string(), type: z.enum(graderTypeValues), mean: z.number(), passRate: z.number() }),
  ),
  error: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type EvalRunSummary = z.infer<typeof evalRunSummarySchema>;

/** GET /api/eval-runs/:id: the summary and every item, failures first. */
export const evalRunSchema = evalRunSummarySchema.extend({ items: z.array(evalItemResultSchema) });
export type EvalRun = z.infer<typeof evalRunSchema>;

export const evalRunStartedSchema = z.object({ id: z.string(), status: z.enum(evalRunStatusValues) });

export const evalCompareQuerySchema = z.object({ a: z.string(), b: z.string() });

const compareSide = evalItemResultSchema.omit({ input: true, expected: true, itemId: true }).nullable();
export const evalComparisonSchema = z.object({
  a: evalRunSummarySchema,
  b: evalRunSummarySchema,
  /** Each item of either run, regressions first, then improvements, then the others. */
  items: z.array(
    z.object({
      itemId: z.string(),
      input: jsonObject,
      expected: z.unknown().nullable(),
      a: compareSide,
      b: compareSide,
      /** Passed in a, fails in b. */
      regressed: z.boolean(),
      /** Failed in a, passes in b. */
      improved: z.boolean(),
      /** b's score minus a's, when both are graded. */
      scoreDelta: z.number().nullable(),
    }),
  ),
  totals: z.object({
    regressions: z.number().int(),
    improvements: z.number().int(),
    passRateDelta: z.number().nullable(),
    costUsdDelta: z.number(),
    p50Delta: z.number().nullable(),
  }),
});
export type EvalComparison = z.infer<typeof evalComparisonSchema>;

// ---- The activation gate --------------------------------------------------------------------

/** A workflow's `config.activationGate`: a new version is recorded only when the evaluation passes. */
export const activationGateSchema = z.object({
  evaluationId: z.string(),
  /** The pass rate (0–1) the evaluation must reach. */
  minPassRate: z.number().min(0).max(1),
});
export type ActivationGate = z.infer<typeof activationGateSchema>;

/** An owner's override of the gate, with the note kept with the version. */
export const gateOverrideSchema = z.object({ note: z.string().trim().min(1, 'Say why').max(400) });

/** The 409 of an activation the gate refused. */
export const evaluationFailedSchema = z.object({
  code: z.literal('evaluation_failed'),
  message: z.string(),
  passRate: z.number().nullable(),
  minPassRate: z.number(),
  evalRunId: z.string(),
  /** The items that failed, at most 20 (their dataset item ids and inputs). */
  failedItems: z.array(z.object({ itemId: z.string(), input: jsonObject, reason: z.string() })),
});
/**
 * The 202 of an activation whose evaluation now runs: the version is recorded when it passes (the
 * builder follows its progress; activating again answers 409 once it has failed).
 */
export const evaluationRunningSchema = z.object({
  code: z.literal('evaluation_running'),
  message: z.string(),
  evalRunId: z.string(),
});

export const evaluationMessages = {
  datasetNotFound: 'Dataset not found',
  itemNotFound: 'Item not found',
  evaluationNotFound: 'Evaluation not found',
  evalRunNotFound: 'Eval run not found',
  datasetNameTaken: 'A dataset with this name already exists',
  datasetFull: `A dataset holds at most ${formatNumber(DATASET_MAX_ITEMS)} items`,
  noActiveVersion: 'This workflow has no active version yet: activate it first, or evaluate the draft',
  versionNotFound: 'Version not found',
  notRunning: 'This eval run has already ended',
  differentDatasets: 'These eval runs are of different datasets: compare two runs of the same dataset',
  emptyDataset: 'This dataset has no items yet',
  noExecutions: 'None of these runs was found',
  gateEvaluationNotFound: 'The activation gate names an evaluation of another workflow, or none',
  gateOverrideOwnersOnly: 'Only owners can override the activation gate',
  evaluationRunning: (done: number, total: number) =>
    `The evaluation runs (${done}/${total}): the version is recorded when it passes`,
  evaluationFailed: (passRate: number | null, minPassRate: number) =>
    `The evaluation passed ${passRate === null ? 'no' : `${Math.round(passRate * 100)} % of the`} items; activation needs ${Math.round(minPassRate * 100)} %`,
  unreadableFile: (reason: string) => `This file cannot be imported: ${reason}`,
} as const;
