import { sql } from 'drizzle-orm';
import type { Db } from '@crewline/db';
import {
  ANALYTICS_CHART_DAYS,
  type AgentAnalytics,
  type AnalyticsPeriod,
  type DailyExecutions,
  type WorkflowAnalytics,
} from '@crewline/contracts';

/** The range [from, to) and the equally long period before it, [previousFrom, from). */
export type Ranges = { previousFrom: Date; from: Date; to: Date };

/** Percent (one decimal) of finished runs or steps that completed; null when none finished. */
export function successRate(successful: number, failed: number): number | null {
  const finished = successful + failed;
  return finished === 0 ? null : Math.round((successful / finished) * 1000) / 10;
}

const oneDecimal = (value: number | null) => (value === null ? 0 : Math.round(value * 10) / 10);

// Tokens a run or step reported; rows written before metrics existed (or by hand) count as none. The
// JSON number is cast as it is stored, without a round trip through text.
const runTokens = sql.raw(
  `case when jsonb_typeof(metrics->'totalTokens') = 'number' then (metrics->'totalTokens')::numeric else 0 end`,
);
const stepTokens = sql.raw(
  `case when jsonb_typeof(s.metrics->'totalTokens') = 'number' then (s.metrics->'totalTokens')::numeric else 0 end`,
);
// Milliseconds of a completed step's model call; null for failed steps and steps without the figure.
const stepMs =
  sql.raw(`case when s.status = 'completed' and jsonb_typeof(s.metrics->'executionTime') = 'number'
  then (s.metrics->>'executionTime')::float8 end`);
// A step a retry copied from the run it retried (no model call): counted once, in the run that made it.
const notReused = sql.raw(`s.metrics->>'reused' is null`);

// Seconds a finished run took; null for runs still pending or running.
const runSeconds =
  sql.raw(`case when status in ('completed', 'failed') and started_at is not null and completed_at is not null
  then extract(epoch from completed_at - started_at) end`);

/** What one run window adds up to; `created_*` are agents and workflows created in the window. */
type PeriodRow = {
  executions: number;
  successful: number;
  failed: number;
  avg_seconds: number | null;
  tokens: number;
  agents_created: number;
  workflows_created: number;
};
type AgentRow = {
  agent_id: string;
  name: string;
  role: string;
  executions: number;
  successful: number;
  failed: number;
  avg_ms: number | null;
  tokens: number;
};
type WorkflowRow = {
  workflow_id: string;
  name: string;
  process_type: WorkflowAnalytics['processType'];
  status: WorkflowAnalytics['status'];
  executions: number;
  successful: number;
  failed: number;
  avg_seconds: number | null;
  tokens: number;
};
type SummaryRow = {
  current: PeriodRow;
  previous: PeriodRow;
  daily: (Omit<DailyExecutions, 'totalTokens'> & { tokens: number })[];
  agents: AgentRow[] | null;
  workflows: WorkflowRow[] | null;
  spread: (number | null)[] | null;
  step_ms: number | null;
};

export type AnalyticsSummary = {
  current: AnalyticsPeriod;
  previous: AnalyticsPeriod;
  dailyExecutions: DailyExecutions[];
  agents: AgentAnalytics[];
  workflows: WorkflowAnalytics[];
  performance: { p50ExecutionTime: number; p95ExecutionTime: number; avgStepTime: number };
};

const toPeriod = (r: PeriodRow): AnalyticsPeriod => ({
  executions: r.executions,
  successful: r.successful,
  failed: r.failed,
  successRate: successRate(r.successful, r.failed),
  avgExecutionTime: oneDecimal(r.avg_seconds),
  totalTokens: Math.round(r.tokens),
  agentsCreated: r.agents_created,
  workflowsCreated: r.workflows_created,
});

/** The analytics page's figures, computed by Postgres over the organization's own rows. */
export function createAnalyticsRepository(db: Db) {
  return {
    /**
     * Every figure of the page in one statement, which reads each run and each step once: the range
     * and the period before it, the last 7 calendar days of `timeZone` up to `to` (oldest first, empty
     * days included), the `agentLimit` busiest agents (idle ones too while there are fewer), each
     * workflow that ran, the spread of run times and the mean step time.
     */
    async summary(
      organizationId: string,
      { previousFrom, from, to }: Ranges,
      timeZone: string,
      agentLimit: number,
    ): Promise<AnalyticsSummary> {
      const [start, end, before] = [from.toISOString(), to.toISOString(), previousFrom.toISOString()];
      // The chart's 7 days in the viewer's time zone are at most 8 × 24 hours long (a day can have 25).
      const chartStart = sql`${end}::timestamptz - make_interval(days => ${ANALYTICS_CHART_DAYS + 1}::int)`;
      const today = sql`(${end}::timestamptz at time zone ${timeZone})::date`;
      const result = await db.execute<SummaryRow>(sql`
        with runs as materialized (
          -- Every run a figure reads, once: the range, the period before it and the chart's days
          -- (which reach further back than a 24-hour range and its period before).
          select workflow_id, status, created_at, ${runSeconds} as seconds, ${runTokens} as tokens
          from workflow_executions
          where organization_id = ${organizationId} and created_at < ${end}
            and created_at >= least(${before}::timestamptz, ${chartStart})
        ), periods as (
          select created_at >= ${start} as current, count(*)::int as executions,
            (count(*) filter (where status = 'completed'))::int as successful,
            (count(*) filter (where status = 'failed'))::int as failed,
            avg(seconds)::float8 as avg_seconds, coalesce(sum(tokens), 0)::float8 as tokens
          from runs where created_at >= ${before}
          group by 1
        ), org_agents as materialized (
          select id, name, role, created_at from agents where organization_id = ${organizationId}
        ), created as (
          select
            (select count(*) from org_agents where created_at >= ${start} and created_at < ${end})::int as agents,
            (select count(*) from org_agents where created_at >= ${before} and created_at < ${start})::int as previous_agents,
            (count(*) filter (where created_at >= ${start} and created_at < ${end}))::int as workflows,
            (count(*) filter (where created_at >= ${before} and created_at < ${start}))::int as previous_workflows
          from workflows where organization_id = ${organizationId}
        ), steps as materialized (
          -- Each step's figures once: the per-agent sums and the organization's mean both read them.
          select s.agent_id, s.status, ${stepMs} as ms, ${stepTokens} as tokens
          from agent_executions s
          where s.agent_id in (select id from org_agents)
            and s.created_at >= ${start} and s.created_at < ${end} and ${notReused}
        ), by_agent as (
          -- Sums and counts rather than means, so the organization's mean step time adds them up.
          select agent_id, count(*)::int as executions,
            (count(*) filter (where status = 'completed'))::int as successful,
            (count(*) filter (where status = 'failed'))::int as failed,
            sum(ms) as ms_sum, count(ms)::int as ms_count, coalesce(sum(tokens), 0)::float8 as tokens
          from steps group by agent_id
        ), busiest as (
          select a.id, a.name, a.role, coalesce(b.executions, 0) as executions,
            coalesce(b.successful, 0) as successful, coalesce(b.failed, 0) as failed,
            b.ms_sum / nullif(b.ms_count, 0) as avg_ms, coalesce(b.tokens, 0) as tokens
          from org_agents a left join by_agent b on b.agent_id = a.id
          order by executions desc, a.name
          limit ${agentLimit}
        ), unassigned as (
          -- Steps of deleted agents (agent_id set null) still count in the organization's mean step
          -- time; with no agent to find them by, they are found by time and kept when their run is
          -- the organization's.
          select sum(ms) as ms_sum, count(ms)::int as ms_count
          from (
            select ${stepMs} as ms
            from agent_executions s join workflow_executions e on e.id = s.workflow_execution_id
            where s.agent_id is null and e.organization_id = ${organizationId}
              and s.created_at >= ${start} and s.created_at < ${end} and ${notReused}
          ) u
        ), by_day as (
          select (created_at at time zone ${timeZone})::date as day, count(*)::int as executions,
            (count(*) filter (where status = 'completed'))::int as successful,
            (count(*) filter (where status = 'failed'))::int as failed,
            sum(tokens)::float8 as tokens
          from runs where created_at >= ${chartStart}
          group by 1
        ), by_workflow as (
          select workflow_id, count(*)::int as executions,
            (count(*) filter (where status = 'completed'))::int as successful,
            (count(*) filter (where status = 'failed'))::int as failed,
            avg(seconds)::float8 as avg_seconds, coalesce(sum(tokens), 0)::float8 as tokens
          from runs where created_at >= ${start}
          group by workflow_id
        )
        select
          (select json_build_object('executions', coalesce(p.executions, 0), 'successful', coalesce(p.successful, 0),
              'failed', coalesce(p.failed, 0), 'avg_seconds', p.avg_seconds, 'tokens', coalesce(p.tokens, 0),
              'agents_created', c.agents, 'workflows_created', c.workflows)
            from created c left join periods p on p.current) as current,
          (select json_build_object('executions', coalesce(p.executions, 0), 'successful', coalesce(p.successful, 0),
              'failed', coalesce(p.failed, 0), 'avg_seconds', p.avg_seconds, 'tokens', coalesce(p.tokens, 0),
              'agents_created', c.previous_agents, 'workflows_created', c.previous_workflows)
            from created c left join periods p on not p.current) as previous,
          (select json_agg(json_build_object('date', to_char(days.day, 'YYYY-MM-DD'),
              'executions', coalesce(d.executions, 0), 'successful', coalesce(d.successful, 0),
              'failed', coalesce(d.failed, 0), 'tokens', coalesce(d.tokens, 0)) order by days.day)
            from (select generate_series(${today} - ${ANALYTICS_CHART_DAYS - 1}::int, ${today}, interval '1 day')::date as day) days
            left join by_day d on d.day = days.day) as daily,
          (select json_agg(json_build_object('agent_id', id, 'name', name, 'role', role, 'executions', executions,
              'successful', successful, 'failed', failed, 'avg_ms', avg_ms, 'tokens', tokens)
              order by executions desc, name)
            from busiest) as agents,
          (select json_agg(json_build_object('workflow_id', w.id, 'name', w.name, 'process_type', w.process_type,
              'status', w.status, 'executions', r.executions, 'successful', r.successful, 'failed', r.failed,
              'avg_seconds', r.avg_seconds, 'tokens', r.tokens) order by r.executions desc, w.name)
            from by_workflow r join workflows w on w.id = r.workflow_id) as workflows,
          (select percentile_cont(array[0.5, 0.95]) within group (order by seconds)
            from runs where created_at >= ${start}) as spread,
          (select (coalesce((select sum(ms_sum) from by_agent), 0) + coalesce(u.ms_sum, 0))
              / nullif(coalesce((select sum(ms_count) from by_agent), 0) + u.ms_count, 0)
            from unassigned u) as step_ms`);
      const r = result.rows[0];
      return {
        current: toPeriod(r.current),
        previous: toPeriod(r.previous),
        dailyExecutions: r.daily.map(({ tokens, ...day }) => ({ ...day, totalTokens: Math.round(tokens) })),
        agents: (r.agents ?? []).map((a) => ({
          agentId: a.agent_id,
          name: a.name,
          role: a.role,
          executions: a.executions,
          successRate: successRate(a.successful, a.failed),
          avgStepTime: Math.round(a.avg_ms ?? 0),
          totalTokens: Math.round(a.tokens),
        })),
        workflows: (r.workflows ?? []).map((w) => ({
          workflowId: w.workflow_id,
          name: w.name,
          processType: w.process_type,
          status: w.status,
          executions: w.executions,
          successful: w.successful,
          failed: w.failed,
          successRate: successRate(w.successful, w.failed),
          avgExecutionTime: oneDecimal(w.avg_seconds),
          totalTokens: Math.round(w.tokens),
        })),
        performance: {
          p50ExecutionTime: oneDecimal(r.spread?.[0] ?? null),
          p95ExecutionTime: oneDecimal(r.spread?.[1] ?? null),
          avgStepTime: Math.round(r.step_ms ?? 0),
        },
      };
    },
  };
}
export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;
