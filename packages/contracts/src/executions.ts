import { z } from 'zod';

export const executionStatusValues = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const executionStatusSchema = z.enum(executionStatusValues);
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;

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
  input: z.record(z.string(), z.unknown()),
  dynamicInstructions: z.string().nullable(),
  output: z.record(z.string(), z.unknown()),
  metrics: z.record(z.string(), z.unknown()),
  logs: z.array(z.unknown()),
  error: z.string().nullable(),
  triggeredBy: z.string().nullable(),
  triggeredByName: z.string().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Execution = z.infer<typeof executionSchema>;
