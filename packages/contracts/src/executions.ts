import { z } from 'zod';

export const executionStatusValues = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const executionStatusSchema = z.enum(executionStatusValues);
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;

/**
 * One step's entry in the output map. A step a retry reused from the run it retried (no model call)
 * carries `metadata.reused: true` and `metadata.reusedFrom` (that run's id).
 */
export const nodeOutputSchema = z.object({
  content: z.string(),
  metadata: z.object({ agentName: z.string() }).catchall(z.unknown()),
  executionTime: z.number(),
  usage: z
    .object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() })
    .optional(),
});

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
  output: z.record(z.string(), z.unknown()),
  metrics: z.record(z.string(), z.unknown()),
  logs: z.array(z.unknown()),
  /** The engine's final answer once completed: text, or every agent's text for parallel runs. */
  result: z.union([z.string(), z.record(z.string(), z.string())]).nullable(),
  error: z.string().nullable(),
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
  triggeredBy: z.string().nullable(),
  triggeredByName: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ExecutionSummary = z.infer<typeof executionSummarySchema>;

/** The GET /api/executions response header with the next page's `cursor`; absent on the last page. */
export const EXECUTIONS_NEXT_CURSOR_HEADER = 'x-next-cursor';

/** One line of an execution's log (what happened, for people reading the run). */
export const executionLogSchema = z.object({
  at: z.string(),
  level: z.enum(['info', 'warn', 'error']),
  message: z.string(),
  nodeId: z.string().optional(),
});
export type ExecutionLog = z.infer<typeof executionLogSchema>;

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
