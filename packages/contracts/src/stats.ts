import { z } from 'zod';

/** GET /api/organizations/:orgId/stats — the dashboard's counters. */
export const organizationStatsSchema = z.object({
  totalAgents: z.number().int(),
  activeAgents: z.number().int(),
  totalWorkflows: z.number().int(),
  activeWorkflows: z.number().int(),
  totalExecutions: z.number().int(),
  /** Executions created in the last 24 hours. */
  recentExecutions: z.number().int(),
  /** Percent (0–100, one decimal) of finished runs that completed; null before any run finished. */
  successRate: z.number().nullable(),
  failedExecutions: z.number().int(),
  /** Mean working time of finished runs in seconds (their duration less their waiting; one decimal); 0 before any run finished. */
  avgExecutionTime: z.number(),
});
export type OrganizationStats = z.infer<typeof organizationStatsSchema>;

export const activityItemSchema = z.object({
  id: z.string(),
  kind: z.enum(['agent_created', 'agent_updated', 'workflow_created', 'workflow_updated', 'execution']),
  title: z.string(),
  detail: z.string(),
  status: z.string().nullable(),
  /** Who did it: the person who saved the agent or workflow, started the run, or the run's trigger. */
  actor: z.string().nullable(),
  at: z.string(),
});
export type ActivityItem = z.infer<typeof activityItemSchema>;

export const systemStatusSchema = z.object({
  api: z.object({ status: z.enum(['operational', 'degraded']) }),
  database: z.object({ status: z.enum(['operational', 'down']), latencyMs: z.number() }),
  workflowEngine: z.object({ status: z.enum(['operational', 'degraded', 'down']), detail: z.string() }),
  llmProviders: z.object({ status: z.enum(['active', 'not_configured']), configured: z.array(z.string()) }),
  /** Mean server time of the last API requests, in milliseconds. */
  responseTimeMs: z.number(),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;
