import { z } from 'zod';

import { processTypeValues, workflowStatusValues } from './enums';

/** The range options of the analytics page: `days=24` means the last 24 hours. */
export const analyticsRanges = ['24', '7', '30', '90'] as const;
export type AnalyticsRange = (typeof analyticsRanges)[number];

/** Days of the success-rate chart, whatever the range (docs/product-rules.md). */
export const ANALYTICS_CHART_DAYS = 7;

export const analyticsQuerySchema = z.object({
  days: z.enum(analyticsRanges, { message: 'days must be 24, 7, 30 or 90' }).default('7'),
  /** The viewer's IANA time zone: the chart's days are its calendar days (default UTC). */
  tz: z
    .string()
    .max(64)
    .refine(isTimeZone, { message: 'tz must be an IANA time zone such as Europe/Paris' })
    .default('UTC'),
});

/** Zones already found valid: a formatter is costly to build, and only real zone names are kept. */
const knownTimeZones = new Set<string>();

/** Whether `name` is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (knownTimeZones.has(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    knownTimeZones.add(name);
    return true;
  } catch {
    return false;
  }
}

/** Figures of the runs created in one period. */
export const analyticsPeriodSchema = z.object({
  executions: z.number().int(),
  successful: z.number().int(),
  failed: z.number().int(),
  /** Percent (one decimal) of finished runs that completed; null when none finished. */
  successRate: z.number().nullable(),
  /**
   * Mean working time of finished runs in seconds (one decimal): each run's duration less the time it
   * spent waiting (for an approval, a delay's end); 0 when none finished.
   */
  avgExecutionTime: z.number(),
  /** Mean time finished runs spent waiting, in seconds (one decimal); 0 when none finished or none waited. */
  avgWaitTime: z.number(),
  totalTokens: z.number().int(),
  agentsCreated: z.number().int(),
  workflowsCreated: z.number().int(),
});
export type AnalyticsPeriod = z.infer<typeof analyticsPeriodSchema>;

export const dailyExecutionsSchema = z.object({
  /** Calendar day in the requested time zone, YYYY-MM-DD. */
  date: z.string(),
  executions: z.number().int(),
  successful: z.number().int(),
  failed: z.number().int(),
  totalTokens: z.number().int(),
});
export type DailyExecutions = z.infer<typeof dailyExecutionsSchema>;

/** One agent's steps in the range (a step is one call of the agent inside a run). */
export const agentAnalyticsSchema = z.object({
  agentId: z.string(),
  name: z.string(),
  role: z.string(),
  executions: z.number().int(),
  /** Percent (one decimal) of the agent's steps that completed; null without steps. */
  successRate: z.number().nullable(),
  /** Mean time of the agent's completed steps in milliseconds; 0 without any. */
  avgStepTime: z.number(),
  totalTokens: z.number().int(),
});
export type AgentAnalytics = z.infer<typeof agentAnalyticsSchema>;

export const workflowAnalyticsSchema = z.object({
  workflowId: z.string(),
  name: z.string(),
  processType: z.enum(processTypeValues),
  status: z.enum(workflowStatusValues),
  executions: z.number().int(),
  successful: z.number().int(),
  failed: z.number().int(),
  successRate: z.number().nullable(),
  /** Mean working time of the workflow's finished runs in seconds, waiting left out (as the period's). */
  avgExecutionTime: z.number(),
  totalTokens: z.number().int(),
});
export type WorkflowAnalytics = z.infer<typeof workflowAnalyticsSchema>;

/** GET /api/organizations/:orgId/analytics?days=24|7|30|90 */
export const analyticsSchema = z.object({
  range: z.object({ days: z.enum(analyticsRanges), from: z.string(), to: z.string() }),
  /** The range, and the equally long period before it ("… from last period"). */
  current: analyticsPeriodSchema,
  previous: analyticsPeriodSchema,
  /** The last 7 calendar days, oldest first, days without runs included. */
  dailyExecutions: z.array(dailyExecutionsSchema),
  /** The 5 agents with the most steps in the range. */
  topAgents: z.array(agentAnalyticsSchema),
  /** The organization's 20 busiest agents, idle ones included while there are fewer (Agent Utilization). */
  agents: z.array(agentAnalyticsSchema),
  /** Every workflow with runs in the range, busiest first. */
  workflows: z.array(workflowAnalyticsSchema),
  performance: z.object({
    /**
     * Median and 95th percentile of finished runs' working times in seconds (durations less waiting);
     * 0 when none finished.
     */
    p50ExecutionTime: z.number(),
    p95ExecutionTime: z.number(),
    /** Mean time of a completed agent step in milliseconds. */
    avgStepTime: z.number(),
    avgTokensPerExecution: z.number(),
  }),
});
export type Analytics = z.infer<typeof analyticsSchema>;
