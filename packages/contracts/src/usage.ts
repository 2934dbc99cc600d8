import { z } from 'zod';
import { workflowStatusSchema } from './workflows';

/**
 * GET /api/agents/:id/usage, /api/tools/:id/usage and /api/knowledge-bases/:id/usage: what uses the
 * resource, so its delete dialog can say what stops working (docs/product-rules.md, Safe deletes).
 * An agent: the workflows whose working copy or newest version has a step on it. A tool: the agents
 * linked to it. A knowledge base: the vector-store tools searching it and the agents linked to those.
 */
export const usageSchema = z.object({
  workflows: z.array(z.object({ id: z.string(), name: z.string(), status: workflowStatusSchema })),
  agents: z.array(z.object({ id: z.string(), name: z.string() })),
  tools: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
});
export type Usage = z.infer<typeof usageSchema>;
