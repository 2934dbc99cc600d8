import { sql } from 'drizzle-orm';
import type { Db } from '@crewline/db';
import {
  ANALYTICS_CHART_DAYS,
  type AgentAnalytics,
  type AnalyticsPeriod,
  type DailyExecutions,
  type WorkflowAnalytics,
} from '@crewline/contracts';

/** A window of time [from, to). */
export type Period = { from: Date; to: Date };

type RunCounts = { executions: number; successful: number; failed: number };

/** Percent (one decimal) of finished runs or steps that completed; null when none finished. */
export function successRate(successful: number, failed: number): number | null {
  const finished = successful + failed;
  return finished === 0 ? null : Math.round((successful / finished) * 1000) / 10;
}

const oneDecimal = (value: number | null) => (value === null ? 0 : Math.round(value * 10) / 10);

// Tokens a run or step reported; rows written before metrics existed (or by hand) count as none.
const tokensOf = (metrics: ReturnType<typeof sql.raw>) =>
  sql`case when jsonb_typeof(${metrics}->'totalTokens') = 'number' then (${metrics}->>'totalTokens')::numeric else 0 end`;
const runTokens = tokensOf(sql.raw('metrics'));
const stepTokens = tokensOf(sql.raw('s.metrics'));
// A step a retry copied from the run it retried (no model call): counted once, in the run that made it.
const notReused = sql.raw(`s.metrics->>'reused' is null`);

// Seconds a finished run took; null for runs still pending or running.
const runSeconds = sql`case when status in ('completed', 'failed') and started_at is not null and completed_at is not null
  then extract(epoch from completed_at - started_at) end`;

const counts = sql`count(*)::int as executions,
  (count(*) filter (where status = 'completed'))::int as successful,
  (count(*) filter (where status = 'failed'))::int as failed`;

/** The analytics page's figures, each computed by Postgres over the organization's own rows. */
export function createAnalyticsRepository(db: Db) {
  const iso = (d: Date) => d.toISOString();

  return {
    /** Runs, outcomes, durations and tokens of the runs created in the period, and what was created. */
    async period(organizationId: string, { from, to }: Period): Promise<AnalyticsPeriod> {
      const result = await db.execute<
        RunCounts & { avg_seconds: number | null; tokens: number; agents: number; workflows: number }
      >(sql`
        select ${counts}, avg(${runSeconds})::float8 as avg_seconds, coalesce(sum(${runTokens}), 0)::float8 as tokens,
          (select count(*) from agents where organization_id = ${organizationId}
            and created_at >= ${iso(from)} and created_at < ${iso(to)})::int as agents,
          (select count(*) from workflows where organization_id = ${organizationId}
            and created_at >= ${iso(from)} and created_at < ${iso(to)})::int as workflows
        from workflow_executions
        where organization_id = ${organizationId} and created_at >= ${iso(from)} and created_at < ${iso(to)}`);
      const r = result.rows[0];
      return {
        executions: r.executions,
        successful: r.successful,
        failed: r.failed,
        successRate: successRate(r.successful, r.failed),
        avgExecutionTime: oneDecimal(r.avg_seconds),
        totalTokens: Math.round(r.tokens),
        agentsCreated: r.agents,
        workflowsCreated: r.workflows,
      };
    },

    /** The last 7 calendar days in the viewer's time zone up to `to`, oldest first, empty days included. */
    async daily(organizationId: string, to: Date, timeZone: string): Promise<DailyExecutions[]> {
      const result = await db.execute<RunCounts & { date: string; tokens: number }>(sql`
        with days as (
          select generate_series(
            (${iso(to)}::timestamptz at time zone ${timeZone})::date - ${ANALYTICS_CHART_DAYS - 1}::int,
            (${iso(to)}::timestamptz at time zone ${timeZone})::date,
            interval '1 day')::date as day
        ), runs as (
          select (created_at at time zone ${timeZone})::date as day, status, ${runTokens} as tokens
          from workflow_executions
          where organization_id = ${organizationId}
            and created_at >= ${iso(to)}::timestamptz - make_interval(days => ${ANALYTICS_CHART_DAYS + 1})
            and created_at < ${iso(to)}
        )
        select to_char(days.day, 'YYYY-MM-DD') as date, count(runs.day)::int as executions,
          (count(runs.day) filter (where runs.status = 'completed'))::int as successful,
          (count(runs.day) filter (where runs.status = 'failed'))::int as failed,
          coalesce(sum(runs.tokens), 0)::float8 as tokens
        from days left join runs on runs.day = days.day
        group by days.day order by days.day`);
      return result.rows.map(({ tokens, ...day }) => ({ ...day, totalTokens: Math.round(tokens) }));
    },

    /** The busiest agents with their steps in the period (a step is one call inside a run). */
    async agents(organizationId: string, { from, to }: Period, limit: number): Promise<AgentAnalytics[]> {
      const result = await db.execute<{
        agent_id: string;
        name: string;
        role: string;
        executions: number;
        successful: number;
        failed: number;
        avg_ms: number | null;
        tokens: number;
      }>(sql`
        select a.id::text as agent_id, a.name, a.role, count(s.id)::int as executions,
          (count(s.id) filter (where s.status = 'completed'))::int as successful,
          (count(s.id) filter (where s.status = 'failed'))::int as failed,
          avg(case when s.status = 'completed' and jsonb_typeof(s.metrics->'executionTime') = 'number'
            then (s.metrics->>'executionTime')::float8 end) as avg_ms,
          coalesce(sum(${stepTokens}), 0)::float8 as tokens
        from agents a
        left join agent_executions s on s.agent_id = a.id and s.created_at >= ${iso(from)} and s.created_at < ${iso(to)}
          and ${notReused}
        where a.organization_id = ${organizationId}
        group by a.id
        order by executions desc, a.name
        limit ${limit}`);
      return result.rows.map((r) => ({
        agentId: r.agent_id,
        name: r.name,
        role: r.role,
        executions: r.executions,
        successRate: successRate(r.successful, r.failed),
        avgStepTime: Math.round(r.avg_ms ?? 0),
        totalTokens: Math.round(r.tokens),
      }));
    },

    /** The workflows that ran in the period, busiest first. */
    async workflows(organizationId: string, { from, to }: Period): Promise<WorkflowAnalytics[]> {
      const result = await db.execute<
        RunCounts & {
          workflow_id: string;
          name: string;
          process_type: WorkflowAnalytics['processType'];
          status: WorkflowAnalytics['status'];
          avg_seconds: number | null;
          tokens: number;
        }
      >(sql`
        select w.id::text as workflow_id, w.name, w.process_type, w.status, r.executions, r.successful, r.failed,
          r.avg_seconds, r.tokens
        from (
          select workflow_id, ${counts}, avg(${runSeconds})::float8 as avg_seconds,
            coalesce(sum(${runTokens}), 0)::float8 as tokens
          from workflow_executions
          where organization_id = ${organizationId} and created_at >= ${iso(from)} and created_at < ${iso(to)}
          group by workflow_id
        ) r
        join workflows w on w.id = r.workflow_id
        order by r.executions desc, w.name`);
      return result.rows.map((r) => ({
        workflowId: r.workflow_id,
        name: r.name,
        processType: r.process_type,
        status: r.status,
        executions: r.executions,
        successful: r.successful,
        failed: r.failed,
        successRate: successRate(r.successful, r.failed),
        avgExecutionTime: oneDecimal(r.avg_seconds),
        totalTokens: Math.round(r.tokens),
      }));
    },

    /** Spread of run durations and the mean agent step time in the period. */
    async performance(organizationId: string, { from, to }: Period) {
      const result = await db.execute<{ spread: (number | null)[] | null; step_ms: number | null }>(sql`
        select
          (select percentile_cont(array[0.5, 0.95]) within group (order by ${runSeconds}) from workflow_executions
            where organization_id = ${organizationId} and created_at >= ${iso(from)} and created_at < ${iso(to)}) as spread,
          (select avg((s.metrics->>'executionTime')::float8)
            from agent_executions s join workflow_executions e on e.id = s.workflow_execution_id
            where e.organization_id = ${organizationId} and s.created_at >= ${iso(from)} and s.created_at < ${iso(to)}
              and s.status = 'completed' and jsonb_typeof(s.metrics->'executionTime') = 'number'
              and ${notReused}) as step_ms`);
      const r = result.rows[0];
      return {
        p50ExecutionTime: oneDecimal(r.spread?.[0] ?? null),
        p95ExecutionTime: oneDecimal(r.spread?.[1] ?? null),
        avgStepTime: Math.round(r.step_ms ?? 0),
      };
    },
  };
}
export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
