import { z } from 'zod';

export const executionStatusValues = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const executionStatusSchema = z.enum(executionStatusValues);
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;

/** How a run started: a person (Execute, Retry) or one of the workflow's triggers (the trigger types). */
export const executionTriggerValues = ['manual', 'schedule', 'webhook', 'email'] as const;
export const executionTriggerSchema = z.enum(executionTriggerValues);
export type ExecutionTrigger = z.infer<typeof executionTriggerSchema>;
/** How a trigger is named where a person's name would stand (Triggered By, Recent Activity). */
export const executionTriggerLabels: Record<ExecutionTrigger, string> = {
  manual: 'Manual',
  schedule: 'Schedule',
  webhook: 'Webhook',
  email: 'Email',
};

/** Tokens one model call used, or a run's steps together. */
export const tokenUsageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

/**
 * One step's entry in the run's output map, keyed by the step's id: the node id, or
 * `${nodeId}#${n}` for the n-th delegation of a hierarchical run. The engine writes it
 * (packages/engine, run-workflow.ts). A step a retry reused from the run it retried (no model call)
 * carries `metadata.reused: true` and `metadata.reusedFrom` (the id of the run whose model call produced it). Keys this schema does
 * not name are accepted and left out of answers.
 */
export const nodeOutputSchema = z.object({
  content: z.string(),
  metadata: z.object({
    agentName: z.string(),
    role: z.string(),
    model: z.string(),
    /**
     * The workflow node the step ran (for a delegation, not its key's `#n` form); absent on steps
     * recorded before it was kept, whose key is the node id unless they were delegations.
     */
    baseNodeId: z.string().optional(),
    /** The hierarchical lead's node id, on a delegation step. */
    delegatedBy: z.string().optional(),
    reused: z.boolean().optional(),
    reusedFrom: z.string().optional(),
  }),
  /** Milliseconds the step's model call took. */
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
};

/**
 * One step of a run as agent_executions stores it (the runner writes it as each step ends; no
 * route serves it yet). A completed step has the output-map entry and its figures; a failed one the
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
  /** Empty until the run completes (a failed or cancelled run has none). */
  metrics: executionMetricsSchema.partial(),
  logs: z.array(executionLogSchema),
  /** The engine's final answer once completed. */
  result: executionResultSchema.nullable(),
  error: z.string().nullable(),
  /** How the run started; `triggeredBy` is the user for manual runs and null for the others. */
  trigger: executionTriggerSchema,
  triggeredBy: z.string().nullable(),
  triggeredByName: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
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
  result: z.string().nullable(),
  trigger: executionTriggerSchema,
  triggeredBy: z.string().nullable(),
  triggeredByName: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ExecutionSummary = z.infer<typeof executionSummarySchema>;

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
 * POST /api/executions/:id/retry: a failed or cancelled run again, on its version, with its input.
 * Without `fromNodeId` every step the run completed is reused; with it (sequential runs only), only
 * the steps before that node along the run's edges are, and it and everything after run again.
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
  unknownRetryNode: (nodeId: string) => `The run's workflow version has no agent step "${nodeId}".`,
  retryFromNotSequential: (processType: string) =>
    `Retrying from a chosen step applies only to sequential workflows; this one is ${processType}. Retry without a step to reuse every completed one.`,
} as const;
