import { sql, type SQL } from 'drizzle-orm';
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

/**
 * The mean of runs' times in seconds from the sum and count of their microseconds (`duration_us`, or
 * its working and waiting parts): exactly the number `avg()` over their seconds as numeric gives (the
 * same numeric sum, as multiplying by 0.000001 is exact, divided by the same count), then as float8.
 */
export const meanSeconds = (usSum: SQL, count: SQL) =>
  sql`(${usSum} * 0.000001 / nullif(${count}, 0))::float8`;
/**
 * A finished run's time spent waiting (for people, for a delay's end) in microseconds, null unless it
 * finished. No more than its duration: the wait is timed by the servers' clocks, the duration partly
 * by the database's, and a run cannot have waited longer than it took.
 */
const waitedUs = sql.raw('case when duration_us is not null then least(waited_us, duration_us) end');
/** A finished run's working time in microseconds (its duration less its waiting), null unless it finished. */
export const workingUs = sql.raw('duration_us - least(waited_us, duration_us)');
/**
 * A run's working seconds as float8, for percentiles: an integer divided by 10⁶ in floating point is
 * rounded once, to the float nearest the exact number of seconds, as a cast of that number from numeric is.
 */
const seconds = sql`(${workingUs})::float8 / 1000000`;

/**
 * A step that is not a retry's copy. Written so that it is checked on each index entry the scan returns
 * rather than as a key of the index scan: as a key after the range of times, the scan compared it on
 * every entry it passed, and took a fifth longer over an organization's steps.
 */
const counted = sql.raw('reused is not true');

/** What one run window adds up to; `created_*` are agents and workflows created in the window. */
type PeriodRow = {
  executions: number;
  successful: number;
  failed: number;
  /** Mean working and waiting seconds of the finished runs. */
  avg_seconds: number | null;
  wait_seconds: number | null;
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
  avgWaitTime: oneDecimal(r.wait_seconds),
  totalTokens: Math.round(r.tokens),
  agentsCreated: r.agents_created,
  workflowsCreated: r.workflows_created,
});

/**
 * How many summaries a process runs at once; the others wait their turn, first come first served. A
 * summary keeps a pooled connection and a database core busy for several milliseconds: a burst of
 * dashboard loads run all at once would hold most of the pool, which the runs' statements share, and
 * leave every statement waiting its turn for a core. Taking turns answers the burst as fast (each
 * summary already keeps a core busy) with two connections held at most.
 */
const CONCURRENT_SUMMARIES = 2;

/** Runs `work` once fewer than `limit` others run, in the order of the calls. */
export function takingTurns(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The turn passes straight to the next caller, so `running` stays counted for it.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * The analytics page's figures, computed by Postgres over the organization's own rows: a presenter,
 * reading runs, steps, agents and workflows (written by their own modules) and writing nothing.
 */
export function createAnalyticsPresenter(db: Db) {
  const inTurn = takingTurns(CONCURRENT_SUMMARIES);
  return {
    /**
     * Every figure of the page in one statement: the range and the period before it, the last 7
     * calendar days of `timeZone` up to `to` (oldest first, empty days included), the `agentLimit`
     * busiest agents (idle ones too while there are fewer), each workflow that ran, the spread of run
     * times and the mean step time. A run's time is its working time: its duration less the time it
     * waited (for people, for a delay's end), which the periods count apart.
     *
     * Runs and steps are read from their indexes alone (index-only scans): the indexes carry each
     * row's stored figures (duration_us, waited_us, total_tokens, execution_ms, reused), so no row's metrics
     * are parsed here. The statement's shape does not depend on its parameters, so the plan Postgres
     * keeps for it serves every organization and range.
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
      const result = await inTurn(() =>
        db.execute<SummaryRow>(sql`
        with org_agents as materialized (
          select id, name, role, created_at from agents where organization_id = ${organizationId}
        ), created as (
          select
            (count(*) filter (where created_at >= ${start} and created_at < ${end}))::int as agents,
            (count(*) filter (where created_at >= ${before} and created_at < ${start}))::int as previous_agents,
            (select count(*) from workflows
              where organization_id = ${organizationId} and created_at >= ${start} and created_at < ${end})::int as workflows,
            (select count(*) from workflows
              where organization_id = ${organizationId} and created_at >= ${before} and created_at < ${start})::int as previous_workflows
          from org_agents
        ), by_workflow as (
          -- Sums and counts rather than means: the range's own figures add them up.
          select workflow_id, count(*)::int as executions,
            (count(*) filter (where status = 'completed'))::int as successful,
            (count(*) filter (where status = 'failed'))::int as failed,
            sum(${workingUs}) as us_sum, sum(${waitedUs}) as waited_sum, count(duration_us) as us_count,
            sum(total_tokens) as tokens
          from workflow_executions
          where organization_id = ${organizationId} and created_at >= ${start} and created_at < ${end}
          group by workflow_id
        ), current as (
          select coalesce(sum(executions), 0)::int as executions, coalesce(sum(successful), 0)::int as successful,
            coalesce(sum(failed), 0)::int as failed, ${meanSeconds(sql`sum(us_sum)`, sql`sum(us_count)`)} as avg_seconds,
            ${meanSeconds(sql`sum(waited_sum)`, sql`sum(us_count)`)} as wait_seconds, coalesce(sum(tokens), 0)::float8 as tokens
          from by_workflow
        ), previous as (
          select count(*)::int as executions,
            (count(*) filter (where status = 'completed'))::int as successful,
            (count(*) filter (where status = 'failed'))::int as failed,
            ${meanSeconds(sql`sum(${workingUs})`, sql`count(duration_us)`)} as avg_seconds,
            ${meanSeconds(sql`sum(${waitedUs})`, sql`count(duration_us)`)} as wait_seconds,
            coalesce(sum(total_tokens), 0)::float8 as tokens
          from workflow_executions
          where organization_id = ${organizationId} and created_at >= ${before} and created_at < ${start}
        ), by_agent as (
          -- What ranks the agents and adds up to the organization's mean step time; the busiest
          -- agents' other figures are read for them alone. One index scan walks the organization's
          -- agents in the index's order, so the counts come out grouped, without a hash table.
          select agent_id, count(*)::int as executions, sum(execution_ms) as ms_sum, count(execution_ms)::int as ms_count
          from agent_executions
          where agent_id = any(array(select id from org_agents))
            and created_at >= ${start} and created_at < ${end} and ${counted}
          group by agent_id
        ), busiest as (
          select a.id, a.name, a.role, coalesce(b.executions, 0) as executions,
            b.ms_sum / nullif(b.ms_count, 0) as avg_ms
          from org_agents a left join by_agent b on b.agent_id = a.id
          order by executions desc, a.name
          limit ${agentLimit}
        ), unassigned as (
          -- Steps of deleted agents (agent_id set null) still count in the organization's mean step
          -- time; with no agent to find them by, they are found by time and kept when their run is
          -- the organization's. Steps that call no model (conditions, transforms, merges) are not agents' steps.
          select sum(s.execution_ms) as ms_sum, count(s.execution_ms)::int as ms_count
          from agent_executions s join workflow_executions e on e.id = s.workflow_execution_id
          where s.agent_id is null and s.kind = 'agent' and e.organization_id = ${organizationId}
            and s.created_at >= ${start} and s.created_at < ${end} and s.${counted}
        ), zone as (
          -- The viewer's offset from UTC when it stays the same through the chart's days (all but the
          -- weeks of a change of clocks): a run's day is then its time plus that offset, instead of
          -- looking the zone up by name for every run. Hourly samples see any change of offset, as no
          -- zone changes its clocks twice within an hour.
          select case when min(o) = max(o) then min(o) end as utc_offset
          from (
            select (t at time zone ${timeZone}) - (t at time zone 'UTC') as o
            from generate_series(${chartStart}, ${end}::timestamptz, interval '1 hour') t
            union all
            select (${end}::timestamptz at time zone ${timeZone}) - (${end}::timestamptz at time zone 'UTC')
          ) samples
        ), by_day as (
          select case when (select utc_offset from zone) is null then (created_at at time zone ${timeZone})::date
              else (created_at at time zone (select utc_offset from zone))::date end as day,
            count(*)::int as executions,
            (count(*) filter (where status = 'completed'))::int as successful,
            (count(*) filter (where status = 'failed'))::int as failed,
            sum(total_tokens)::float8 as tokens
          from workflow_executions
          where organization_id = ${organizationId} and created_at >= ${chartStart} and created_at < ${end}
          group by 1
        )
        select
          (select json_build_object('executions', p.executions, 'successful', p.successful,
              'failed', p.failed, 'avg_seconds', p.avg_seconds, 'wait_seconds', p.wait_seconds, 'tokens', p.tokens,
              'agents_created', c.agents, 'workflows_created', c.workflows)
            from created c, current p) as current,
          (select json_build_object('executions', p.executions, 'successful', p.successful,
              'failed', p.failed, 'avg_seconds', p.avg_seconds, 'wait_seconds', p.wait_seconds, 'tokens', p.tokens,
              'agents_created', c.previous_agents, 'workflows_created', c.previous_workflows)
            from created c, previous p) as previous,
          (select json_agg(json_build_object('date', to_char(days.day, 'YYYY-MM-DD'),
              'executions', coalesce(d.executions, 0), 'successful', coalesce(d.successful, 0),
              'failed', coalesce(d.failed, 0), 'tokens', coalesce(d.tokens, 0)) order by days.day)
            from (select generate_series(${today} - ${ANALYTICS_CHART_DAYS - 1}::int, ${today}, interval '1 day')::date as day) days
            left join by_day d on d.day = days.day) as daily,
          (select json_agg(a order by a.executions desc, a.name) from (
            select b.id as agent_id, b.name, b.role, b.executions, coalesce(f.successful, 0) as successful,
              coalesce(f.failed, 0) as failed, b.avg_ms, coalesce(f.tokens, 0) as tokens
            from busiest b left join (
              select agent_id, (count(*) filter (where status = 'completed'))::int as successful,
                (count(*) filter (where status = 'failed'))::int as failed, sum(total_tokens)::float8 as tokens
              from agent_executions
              where agent_id = any(array(select id from busiest))
                and created_at >= ${start} and created_at < ${end} and ${counted}
              group by agent_id
            ) f on f.agent_id = b.id) a) as agents,
          (select json_agg(w order by w.executions desc, w.name) from (
            select f.id as workflow_id, f.name, f.process_type, f.status, r.executions, r.successful, r.failed,
              ${meanSeconds(sql`r.us_sum`, sql`r.us_count`)} as avg_seconds, r.tokens::float8 as tokens
            from by_workflow r join workflows f on f.id = r.workflow_id) w) as workflows,
          (select percentile_cont(array[0.5, 0.95]) within group (order by ${seconds})
            from workflow_executions
            where organization_id = ${organizationId} and created_at >= ${start} and created_at < ${end}) as spread,
          (select (coalesce(a.ms_sum, 0) + coalesce(u.ms_sum, 0)) / nullif(coalesce(a.ms_count, 0) + u.ms_count, 0)
            from (select sum(ms_sum) as ms_sum, sum(ms_count) as ms_count from by_agent) a, unassigned u) as step_ms`),
      );
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
export type AnalyticsPresenter = ReturnType<typeof createAnalyticsPresenter>;
