import { z } from 'zod';
import { nodeKindValues } from './node-kinds';
import { executionStatusValues } from './vocabulary/run-statuses';
import { triggerTypeLabels, triggerTypeValues, type TriggerType } from './vocabulary/trigger-kinds';

export const executionStatusSchema = z.enum(executionStatusValues);

/**
 * How a run started: a person (Execute, Retry), one of the workflow's triggers (the trigger types), a
 * client of the organization's MCP server calling the workflow's published tool (`mcp`), an eval run
 * running one item of a dataset (`eval`), or a message to the workflow's chat app (`chat`: its page,
 * its widget or the OpenAI-compatible endpoint).
 */
export const executionTriggerValues = [...triggerTypeValues, 'mcp', 'eval', 'chat'] as const;
export const executionTriggerSchema = z.enum(executionTriggerValues);
export type ExecutionTrigger = TriggerType | 'mcp' | 'eval' | 'chat';
/** How a trigger is named where a person's name would stand (Triggered By, Recent Activity). */
export const executionTriggerLabels: Record<ExecutionTrigger, string> = {
  ...triggerTypeLabels,
  mcp: 'MCP',
  eval: 'Evaluation',
  chat: 'Chat',
};

/**
 * A run's trigger as people read it: its label, and after a middle dot what started it when the
 * trigger names it (`MCP · Claude`: the MCP client's name).
 */
export const executionTriggerText = (run: { trigger: ExecutionTrigger; triggerDetail?: string | null }) =>
  run.triggerDetail
    ? `${executionTriggerLabels[run.trigger]} · ${run.triggerDetail}`
    : executionTriggerLabels[run.trigger];

/** Tokens one model call used, or a run's steps together. */
export const tokenUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  /** Of the prompt tokens, those the provider served from its cache (priced apart); absent when none were reported. */
  cachedInputTokens: z.number().optional(),
  /** The model calls made (a tool loop makes several); absent on figures from before they were counted. */
  calls: z.number().optional(),
  /**
   * What the calls cost in USD at the prices in force when they ran (packages/contracts prices.ts):
   * null when a call's model had no price (`unpricedModels` names it), absent where no model was
   * called or the figures predate costs.
   */
  costUsd: z.number().nullable().optional(),
  /** The models called without a price (their cost is unknown, never 0). */
  unpricedModels: z.array(z.string()).optional(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/**
 * One step's entry in the run's output map, keyed by the step's id: the node id, or
 * `${nodeId}#${n}` for the n-th delegation of a hierarchical run. The engine writes it
 * (packages/engine, run-workflow.ts). A step a retry reused from the run it retried (no model call)
 * carries `metadata.reused: true` and `metadata.reusedFrom` (the id of the run whose model call produced it). Keys this schema does
 * not name are accepted and left out of answers.
 */
export const stepStatusValues = ['completed', 'failed', 'skipped'] as const;

/** One item of a map's data, or one pass of a loop's, in item order: `[{ index, status, content, data, error? }]`. */
export const stepItemResultSchema = z
  .object({
    index: z.number().int(),
    status: z.enum(['completed', 'failed']),
    content: z.string(),
    data: z.unknown(),
    error: z.string().optional(),
  })
  .meta({ description: "One map item's or loop pass's result, in item order." });
export type StepItemResult = z.infer<typeof stepItemResultSchema>;

export const nodeOutputSchema = z.object({
  /** The step's text (an agent's answer; may be empty for kinds that produce data only). */
  content: z.string(),
  /** The node kind that produced it; absent on steps stored before kinds existed (agent steps). */
  kind: z
    .enum(nodeKindValues)
    .optional()
    .meta({ description: 'The node kind that produced it; absent on older agent steps.' }),
  /**
   * The structured value: an agent's parsed answer (with an output schema), a condition's
   * `{ branch }`, a tool's result, a transform's assigned values, a map's or loop's list of results.
   */
  data: z
    .unknown()
    .optional()
    .meta({
      description:
        "The structured value, by kind: an agent's parsed answer (with an output schema); a condition's `{ branch }` (a branch id or `else`); a tool's result; a transform's assigned values; a map's or loop's `[{ index, status, content, data, error? }]`; an `all` merge's `[{ nodeId, content, data }]`.",
      examples: [
        { category: 'billing', urgent: true, orders: ['A-1001', 'A-1002'] },
        { branch: 'billing' },
        { orderCount: 2, priority: 'high' },
        [{ index: 0, status: 'completed', content: 'Order A-1001 shipped on 3 March.', data: null }],
      ],
    }),
  /** A node whose path was not taken is `skipped` (never sent to a model); absent on older steps. */
  status: z
    .enum(stepStatusValues)
    .optional()
    .meta({ description: 'A node whose path was not taken is `skipped` (never sent to a model).' }),
  metadata: z.object({
    /** Agent steps: the agent's name, its role and the model that answered. */
    agentName: z.string().optional(),
    role: z.string().optional(),
    model: z.string().optional(),
    /**
     * The workflow node the step ran (for a delegation, not its key's `#n` form); absent on steps
     * recorded before it was kept, whose key is the node id unless they were delegations.
     */
    baseNodeId: z.string().optional(),
    /** The hierarchical lead's node id, on a delegation step. */
    delegatedBy: z.string().optional(),
    reused: z.boolean().optional(),
    reusedFrom: z.string().optional(),
    /**
     * Agent steps one of the agent's guardrails blocked, whose node has a Blocked path: the check
     * that blocked ('PII'); the step's content is then 'Blocked by guardrail: PII' and the run goes on
     * along that path (docs/product-rules.md, Guardrails).
     */
    blockedBy: z.string().optional(),
  }),
  /** Milliseconds the step took (an agent step: its model call). */
  executionTime: z.number(),
  usage: tokenUsageSchema,
});
export type NodeOutput = z.infer<typeof nodeOutputSchema>;

/** The workflow node an output-map entry belongs to (a delegation's entry belongs to its co-worker's node). */
export const stepNodeId = (stepId: string, step: NodeOutput): string => step.metadata.baseNodeId ?? stepId;

/** A completed run's figures. Older runs may lack `reusedSteps` and `attempts`. */
export const executionMetricsSchema = tokenUsageSchema.extend({
  durationMs: z.number(),
  /** Steps in the output map, reused ones included. */
  steps: z.number(),
  /** Steps reused from the retried run; their tokens are not in the run's totals. */
  reusedSteps: z.number().optional(),
  /** Attempts the run took (more than one when a worker stopped and another resumed it). */
  attempts: z.number().optional(),
});
export type ExecutionMetrics = z.infer<typeof executionMetricsSchema>;

/** The engine's final answer: sequential and hierarchical runs, the last agent's text; parallel runs, every agent's text by node id. */
export const executionResultSchema = z.union([z.string(), z.record(z.string(), z.string())]);
export type ExecutionResult = z.infer<typeof executionResultSchema>;

/** One line of an execution's log (what happened, for people reading the run). */
export const executionLogSchema = z.object({
  at: z.string(),
  level: z.enum(['info', 'warn', 'error']),
  message: z.string(),
  nodeId: z.string().optional(),
});
export type ExecutionLog = z.infer<typeof executionLogSchema>;

/** A completed step's figures in agent_executions (per-agent analytics read them). */
export const executionStepMetricsSchema = tokenUsageSchema.extend({
  executionTime: z.number(),
  /** Set on the copy a retry made (executions.repository.ts, reuseSteps). */
  reused: z.boolean().optional(),
  reusedFrom: z.string().optional(),
});
export type ExecutionStepMetrics = z.infer<typeof executionStepMetricsSchema>;

/** The longest tool result a step record keeps (characters); a longer one is cut and marked `truncated`. */
export const STEP_TOOL_RESULT_LIMIT = 4000;

/** A message the model received, exactly as sent (the system prompt, then the user prompt with the run's context). */
export const stepMessageSchema = z.object({
  role: z.enum(['system', 'user']),
  content: z.string(),
});
export type StepMessage = z.infer<typeof stepMessageSchema>;

/** The longest excerpt of a retrieved passage a step record keeps (characters, '…' included). */
export const STEP_RETRIEVAL_EXCERPT_LIMIT = 300;

/**
 * A knowledge search a tool call made (a `vector_store` tool): the query and each passage found, with
 * its source, score and the start of its text. Kept apart from the cut result text so that every hit
 * shows, however long the passages were.
 */
export const stepRetrievalSchema = z.object({
  query: z.string(),
  hits: z.array(
    z.object({
      /** The document (or Pinecone record) the passage came from. */
      source: z.string(),
      /** The passage's position in its document, from 1, when the store knows it. */
      passage: z.number().optional(),
      /** Similarity, 0 to 1. */
      score: z.number(),
      /** The passage's start, whitespace collapsed, cut at a word before STEP_RETRIEVAL_EXCERPT_LIMIT. */
      excerpt: z.string(),
    }),
  ),
});
export type StepRetrieval = z.infer<typeof stepRetrievalSchema>;

/** One tool call the model made during a step, with what the tool answered (credentials masked). */
export const stepToolCallSchema = z.object({
  name: z.string(),
  /** The arguments the model gave, as it gave them. */
  arguments: z.unknown(),
  /** The tool's answer as text (JSON for structured answers), or its error message. */
  result: z.string(),
  /** The result was longer than STEP_TOOL_RESULT_LIMIT and was cut. */
  truncated: z.boolean(),
  isError: z.boolean(),
  durationMs: z.number(),
  /** Set when the tool was a knowledge search that answered: its query and every hit, compactly. */
  retrieval: stepRetrievalSchema.optional(),
});
export type StepToolCall = z.infer<typeof stepToolCallSchema>;

/**
 * What a step's model call was asked and did (the step inspector). Stored in the step's `input`;
 * served only by a run's details, never by list endpoints. Steps from before it existed have none.
 */
export const stepRecordSchema = z.object({
  /** The agent's name when the step ran (a failed step has no output entry to name it). */
  agentName: z.string(),
  messages: z.array(stepMessageSchema),
  /** The model's final answer; null when the call failed. */
  answer: z.string().nullable(),
  toolCalls: z.array(stepToolCallSchema),
  /** Model requests the gateway repeated after a retryable failure (rate limit, 5xx, network). */
  retries: z.number(),
  provider: z.string(),
  model: z.string(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  /** A hierarchical run's lead: the co-workers it could delegate to and how many times it did. */
  team: z.object({ coworkers: z.array(z.string()), delegations: z.number() }).optional(),
});
export type StepRecord = z.infer<typeof stepRecordSchema>;

/** One expression a step evaluated, with its value or why it could not be evaluated. */
export const evaluatedExpressionSchema = z.object({
  /** What it is for: a branch's label, an assigned name, a tool argument, `items`, `until`, `prompt`. */
  name: z.string(),
  expression: z.string(),
  value: z.unknown().optional(),
  error: z.string().optional(),
});
export type EvaluatedExpression = z.infer<typeof evaluatedExpressionSchema>;

/**
 * What a step that is not a model call did (the step inspector): a condition's branches with each
 * expression's value, a transform's values, a tool's arguments and result. Stored where an agent
 * step keeps its record.
 */
export const evaluationRecordSchema = z
  .object({
    kind: z.enum(nodeKindValues),
    evaluated: z.array(evaluatedExpressionSchema),
    /** A tool step's result, a condition's branch taken. */
    result: z.unknown().optional(),
    /** A Code step's captured `console.log` lines (at most CODE_LOG_LINES_MAX). */
    logs: z.array(z.string()).optional(),
  })
  .meta({
    description:
      "What a step that calls no model evaluated: each expression with its value (a condition's branches, a transform's values, a tool's arguments), and its result.",
  });
export type EvaluationRecord = z.infer<typeof evaluationRecordSchema>;

const executionStepBase = {
  /** The step's id, as in the output map (`${nodeId}#${n}` for a delegation). */
  nodeId: z.string(),
  /** The workflow node the step ran (the step's id without a delegation's `#n`). */
  baseNodeId: z.string(),
  /** Null once the agent was deleted. */
  agentId: z.string().nullable(),
  logs: z.array(executionLogSchema),
  startedAt: z.string(),
  completedAt: z.string(),
  /** What the model was asked and did; absent on steps stored before records were kept (a reused step keeps its original's). */
  record: stepRecordSchema.optional(),
  /** What a step that is not a model call evaluated (conditions, transforms, tools). */
  evaluation: evaluationRecordSchema.optional(),
};

/**
 * One step of a run as agent_executions stores it (the runner writes it as each step ends; a run's
 * details serve them, in the order they ended). A completed step has the output-map entry and its figures; a failed one the
 * readable error.
 */
export const executionStepSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('completed'),
    ...executionStepBase,
    output: nodeOutputSchema,
    metrics: executionStepMetricsSchema,
  }),
  z.object({ status: z.literal('failed'), ...executionStepBase, error: z.string() }),
]);
export type ExecutionStep = z.infer<typeof executionStepSchema>;

/**
 * What a waiting run waits for: an approval (its title) or a delay (its end), since when and until
 * when (an approval's timeout; null when it has none). A card reads 'Waiting for approval · <title>'.
 */
export const executionWaitSchema = z.object({
  kind: z.enum(['approval', 'delay']),
  /** The waiting step's id. */
  nodeId: z.string(),
  title: z.string(),
  since: z.string(),
  until: z.string().nullable(),
  approvalId: z.string().nullable(),
});
export type ExecutionWait = z.infer<typeof executionWaitSchema>;

/** An execution as the list and details views read it. */
export const executionSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string().nullable(),
  processType: z.string().nullable(),
  status: executionStatusSchema,
  /** The workflow version the run executes (null only for runs from before versions existed). */
  workflowVersion: z.number().int().nullable(),
  input: z.record(z.string(), z.unknown()),
  dynamicInstructions: z.string().nullable(),
  parameters: z.record(z.string(), z.unknown()),
  /** Every finished step's output by step id; filled in as the steps finish. */
  output: z.record(z.string(), nodeOutputSchema),
  /** The stored steps with their records, in the order they ended: only in a run's details (GET /api/executions/:id). */
  steps: z.array(executionStepSchema).optional(),
  /**
   * A completed run's figures; a failed or cancelled run's details count its completed steps
   * (tokens of its own model calls, `steps`, `durationMs`). Empty while it runs.
   */
  metrics: executionMetricsSchema.partial(),
  logs: z.array(executionLogSchema),
  /** The engine's final answer once completed. */
  result: executionResultSchema.nullable(),
  error: z.string().nullable(),
  /** The name (node label) of the step whose failure ended a failed run; null otherwise. */
  failedStep: z.string().nullable(),
  /** A waiting run: what it waits for; null otherwise. */
  waiting: executionWaitSchema.nullable(),
  /**
   * Started from outside the organization (an email from a sender outside its trusted domains, an
   * unsigned webhook call): its write tool calls wait for approval and agent memory learns nothing
   * from it. A retry keeps its run's.
   */
  untrusted: z.boolean(),
  /** The run this one retries, and the run that retried this one (a run is retried at most once). */
  retryOf: z.string().nullable(),
  retriedBy: z.string().nullable(),
  /** How the run started; `triggeredBy` is the user for manual runs and null for the others. */
  trigger: executionTriggerSchema,
  /** What started it, when the trigger names it: an MCP client's name (`clientInfo.name`); else null. */
  triggerDetail: z.string().nullable(),
  triggeredBy: z.string().nullable(),
  triggeredByName: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  /**
   * Milliseconds the run spent waiting (for an approval, a delay's end) in the waits it has gone on
   * from; the rest of its duration is working time. 0 for a run that never waited.
   */
  waitedMs: z.number(),
  createdAt: z.string(),
});
export type Execution = z.infer<typeof executionSchema>;

/** The longest `result` text a run summary carries; the whole result is in the execution. */
export const EXECUTION_RESULT_PREVIEW_LENGTH = 2000;

/**
 * A run as GET /api/executions lists it: what an execution card shows, and the final result as text
 * (cut at EXECUTION_RESULT_PREVIEW_LENGTH), without the output map, logs or steps (GET /api/executions/:id
 * has those).
 */
export const executionSummarySchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  workflowName: z.string().nullable(),
  processType: z.string().nullable(),
  workflowVersion: z.number().int().nullable(),
  status: executionStatusSchema,
  error: z.string().nullable(),
  /** The name (node label) of the step whose failure ended a failed run; null otherwise. */
  failedStep: z.string().nullable(),
  /** A waiting run: what it waits for; null otherwise. */
  waiting: executionWaitSchema.nullable(),
  /**
   * Started from outside the organization (an email from a sender outside its trusted domains, an
   * unsigned webhook call): its write tool calls wait for approval and agent memory learns nothing
   * from it. A retry keeps its run's.
   */
  untrusted: z.boolean(),
  /** The run this one retries, and the run that retried this one (a run is retried at most once). */
  retryOf: z.string().nullable(),
  retriedBy: z.string().nullable(),
  result: z.string().nullable(),
  trigger: executionTriggerSchema,
  /** What started it, when the trigger names it: an MCP client's name (`clientInfo.name`); else null. */
  triggerDetail: z.string().nullable(),
  triggeredBy: z.string().nullable(),
  triggeredByName: z.string().nullable(),
  /** What the run's own model calls cost in USD (its metrics' `costUsd`): null when a model had no price, absent before it ends. */
  costUsd: z.number().nullable().optional(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ExecutionSummary = z.infer<typeof executionSummarySchema>;

/**
 * The filters of GET /api/executions (and of the Executions tab's address): one workflow, status and
 * trigger, and a creation window `from` (inclusive) to `to` (exclusive) as ISO instants, so a day
 * picked in the viewer's time zone is sent as that day's exact bounds.
 */
export const executionListFiltersSchema = z.object({
  workflowId: z.string().uuid().optional(),
  status: executionStatusSchema.optional(),
  trigger: executionTriggerSchema.optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
/** A window whose end is not after its start matches nothing: the list answers 400 instead. */
export const executionListWindowIsValid = (filters: { from?: string; to?: string }): boolean =>
  !filters.from || !filters.to || Date.parse(filters.from) < Date.parse(filters.to);
export const executionListMessages = { window: '"from" must be before "to"' } as const;
export type ExecutionListFilters = z.infer<typeof executionListFiltersSchema>;

/** The GET /api/executions response header with the next page's `cursor`; absent on the last page. */
export const EXECUTIONS_NEXT_CURSOR_HEADER = 'x-next-cursor';

/** POST /api/workflows/:id/execute (docs/product-rules.md: input and parameters default to empty maps). */
export const executeWorkflowSchema = z.object({
  input: z.record(z.string(), z.unknown()).default({}),
  dynamicInstructions: z.string().trim().max(20_000).nullish(),
  parameters: z.record(z.string().trim().min(1).max(100), z.unknown()).default({}),
});
export type ExecuteWorkflowInput = z.input<typeof executeWorkflowSchema>;
export type ExecuteWorkflowData = z.output<typeof executeWorkflowSchema>;

/**
 * POST /api/executions/:id/retry: a failed or cancelled run again, on its version, with its input
 * (or a completed one from its rejected or timed-out approval: `fromNodeId` names that step).
 * Without `fromNodeId` every step the run completed is reused; with it (sequential runs only, an agent
 * or an approval node), only the steps before that node along the run's edges are, and it and
 * everything after run again.
 */
export const retryExecutionSchema = z.object({
  fromNodeId: z.string().trim().min(1).max(200).optional(),
});
export type RetryExecutionData = z.output<typeof retryExecutionSchema>;

export const executionMessages = {
  notFound: 'Execution not found',
  draft: 'This workflow is a draft. Activate it before running it.',
  notRunnable: (status: string) => `This workflow is ${status} and cannot be run.`,
  alreadyFinished: (status: string) =>
    `This execution has already ${status === 'cancelled' ? 'been cancelled' : status}.`,
  notRetryable: (status: string) =>
    `Only a failed or cancelled execution can be retried; this one is ${status}.`,
  alreadyRetried: (retryId: string) =>
    `This execution was already retried as run ${retryId.slice(0, 8)}. Retry that run instead.`,
  unknownRetryNode: (nodeId: string) =>
    `The run's workflow version has no agent or approval step "${nodeId}".`,
  retryFromNotSequential: (processType: string) =>
    `Retrying from a chosen step applies only to sequential workflows; this one is ${processType}. Retry without a step to reuse every completed one.`,
} as const;
