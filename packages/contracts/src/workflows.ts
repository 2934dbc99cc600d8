import { z } from 'zod';
import { processTypeValues, triggerTypeValues, workflowStatusValues } from './enums';

export const workflowStatusSchema = z.enum(workflowStatusValues);
export const processTypeSchema = z.enum(processTypeValues);
export const triggerTypeSchema = z.enum(triggerTypeValues);

export const workflowNodeSchema = z.object({
  id: z.string(),
  type: z.enum(['start', 'end', 'agent']),
  agentId: z.string().nullish(),
  position: z.object({ x: z.number(), y: z.number() }),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type WorkflowNode = z.infer<typeof workflowNodeSchema>;

export const workflowEdgeSchema = z.object({ id: z.string(), source: z.string(), target: z.string() });
export type WorkflowEdge = z.infer<typeof workflowEdgeSchema>;

export const triggerConfigSchema = z.object({
  cron: z.string().optional(),
  secret: z.string().optional(),
  emailAddress: z.string().optional(),
  subjectFilter: z.string().optional(),
});

/** A workflow as the API answers it (spec part 2 §3). */
export const workflowSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  processType: processTypeSchema,
  triggerType: triggerTypeSchema,
  triggerConfig: triggerConfigSchema,
  nodes: z.array(workflowNodeSchema),
  edges: z.array(workflowEdgeSchema),
  config: z.record(z.string(), z.unknown()),
  status: workflowStatusSchema,
  templateCategory: z.string().nullable(),
  templateTags: z.array(z.string()),
  organizationId: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Workflow = z.infer<typeof workflowSchema>;
