import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { agentExecutions, agents, workflowExecutions, workflows } from '@crewline/db';
import { ANALYTICS_CHART_DAYS } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import {
  createAnalyticsPresenter,
  successRate,
  type AnalyticsPresenter,
  type AnalyticsSummary,
  type Ranges,
} from './analytics.presenter';

// The summary reads stored figures from indexes and takes shortcuts (a fixed UTC offset for the chart's
// days, the range's figures added up from the workflows'). Here it must answer exactly what the plain
// definitions answer, computed from the raw metrics row by row, on random runs and steps with every
// odd case: unfinished, waiting and cancelled runs, runs that waited (some longer than they took, as
// clocks of different machines can make it), tokens and step times written as text or missing,
// retries' reused steps, deleted agents, another organization's rows, and charts across changes of clocks.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(20260329);
const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
const between = (min: number, max: number) => min + Math.floor(next() * (max - min));

// Weeks whose charts cross a change of clocks somewhere (Paris, Havana at midnight, Santiago, Lord Howe's
// half hour), and a quiet one; the instant is not a whole second on purpose.
const ends = [
  new Date('2026-03-29T12:00:00.000Z'),
  new Date('2026-04-05T09:30:00.000Z'),
  new Date('2026-11-01T12:00:00.000Z'),
  new Date('2026-07-15T08:30:00.123Z'),
];
const zones = [
  'UTC',
  'Europe/Paris',
  'Asia/Kathmandu',
  'America/Havana',
  'America/Santiago',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
];
const lengths = [DAY, 7 * DAY, 30 * DAY, 90 * DAY];

const tokens = () =>
  pick<unknown>([between(0, 5000), between(0, 5000), between(0, 500) + 0.5, '50', null, undefined]);
const stepTime = () =>
  pick<unknown>([between(1, 90_000), between(1, 90_000), between(1, 4000) + 0.25, '700']);

let t: TestApp;
let repository: AnalyticsPresenter;
let org: string;

beforeAll(async () => {
  t = await createTestApp();
  repository = createAnalyticsPresenter(t.db);
  const [dave, erin] = [await t.signup(), await t.signup()];
  org = dave.organization.id;
  const window = { from: Date.parse('2025-12-01T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') };
  const at = () => new Date(between(window.from, window.to));
  // Runs right on the ranges' edges and around the changes of clocks, besides the random ones.
  const edges = ends.flatMap((end) =>
    lengths.flatMap((length) =>
      [0, -1, -length, -length - 1, -2 * length, -2 * length - 1].map((d) => new Date(end.getTime() + d)),
    ),
  );
  // Every quarter hour of the charts' days, and the millisecond before it: a local midnight is one of
  // them in every zone, whatever its offset that day.
  const quarters = ends.flatMap((end) =>
    Array.from(
      { length: 8 * 96 },
      (_, i) => Math.floor(end.getTime() / 900_000) * 900_000 - i * 900_000,
    ).flatMap((time) => [new Date(time - 1), new Date(time)]),
  );

  const seed = async (organizationId: string, runCount: number) => {
    const madeAgents = await t.db
      .insert(agents)
      .values(
        Array.from({ length: 12 }, (_, i) => ({
          name: `Agent ${String.fromCharCode(65 + i)} ${organizationId.slice(0, 4)}`,
          role: 'Role',
          goal: 'Goal',
          organizationId,
          createdAt: at(),
        })),
      )
      .returning({ id: agents.id });
    const madeFlows = await t.db
      .insert(workflows)
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          name: `Flow ${i}`,
          organizationId,
          nodes: [],
          edges: [],
          createdAt: at(),
        })),
      )
      .returning({ id: workflows.id });
    const times = [...edges, ...quarters, ...Array.from({ length: runCount }, at)];
    const runs = await t.db
      .insert(workflowExecutions)
      .values(
        times.map((createdAt) => {
          const status = pick([
            'pending',
            'running',
            'waiting',
            'completed',
            'completed',
            'failed',
            'cancelled',
          ] as const);
          const startedAt =
            status === 'pending' || next() < 0.05 ? null : new Date(createdAt.getTime() + between(0, 5000));
          const completedAt =
            startedAt && status !== 'running' ? new Date(startedAt.getTime() + between(0, 600_000)) : null;
          const totalTokens = tokens();
          // Microseconds waited: none, part of the run's time, or more than it (another clock's).
          const tookUs = startedAt && completedAt ? (completedAt.getTime() - startedAt.getTime()) * 1000 : 0;
          const waitedUs = pick([0, 0, between(0, tookUs + 1), tookUs + between(1, 5_000_000)]);
          return {
            workflowId: pick(madeFlows).id,
            organizationId,
            status,
            createdAt,
            startedAt,
            completedAt,
            waitedUs,
            metrics: totalTokens === undefined ? {} : { totalTokens },
          };
        }),
      )
      .returning({ id: workflowExecutions.id, createdAt: workflowExecutions.createdAt });
    await t.db.insert(agentExecutions).values(
      runs.flatMap((run) =>
        Array.from({ length: between(0, 4) }, () => {
          const status = pick(['completed', 'completed', 'completed', 'failed'] as const);
          const metrics: Record<string, unknown> = {};
          const executionTime = stepTime();
          const totalTokens = tokens();
          if (status === 'completed' && next() < 0.9) metrics.executionTime = executionTime;
          if (totalTokens !== undefined) metrics.totalTokens = totalTokens;
          const reused = next();
          if (reused < 0.1) Object.assign(metrics, { reused: true, reusedFrom: run.id });
          // A null flag is no flag: such a step is counted like any other.
          else if (reused < 0.13) metrics.reused = null;
          return {
            workflowExecutionId: run.id,
            agentId: next() < 0.05 ? null : pick(madeAgents).id,
            status,
            metrics,
            createdAt: new Date(run.createdAt.getTime() + between(0, 20 * 60_000)),
          };
        }),
      ),
    );
    return { agents: madeAgents, runs };
  };
  const daves = await seed(dave.organization.id, 900);
  const erins = await seed(erin.organization.id, 200);
  // A step of Erin's run by one of Dave's agents counts for that agent, as agents are Dave's.
  await t.db.insert(agentExecutions).values({
    workflowExecutionId: erins.runs[0].id,
    agentId: daves.agents[0].id,
    status: 'completed',
    metrics: { executionTime: 1234, totalTokens: 77 },
    createdAt: new Date(ends[0].getTime() - HOUR),
  });
  // Deleted agents: their steps stay, with agent_id set null, in both organizations.
  await t.db.execute(sql`delete from agents where id in (${daves.agents[11].id}, ${erins.agents[11].id})`);
  await t.db.execute(sql`vacuum analyze`);
}, 120_000);
afterAll(() => t.close());

const oneDecimal = (value: number | null) => (value === null ? 0 : Math.round(value * 10) / 10);

/** The figures by their plain definitions: one simple query each, metrics read from the JSON of every row. */
async function reference(
  organizationId: string,
  { previousFrom, from, to }: Ranges,
  timeZone: string,
  agentLimit: number,
): Promise<AnalyticsSummary> {
  const rows = async <T>(query: ReturnType<typeof sql>) => (await t.db.execute(query)).rows as T[];
  // A finished run's seconds: its duration, the part of it spent waiting (no more than all of it), and
  // the rest, its working time.
  const finished = sql`status in ('completed', 'failed') and started_at is not null and completed_at is not null`;
  const took = sql`extract(epoch from completed_at - started_at)`;
  const waited = sql`case when ${finished} then least(waited_us * 0.000001, ${took}) end`;
  const seconds = sql`case when ${finished} then ${took} - least(waited_us * 0.000001, ${took}) end`;
  const runTokens = sql`case when jsonb_typeof(metrics->'totalTokens') = 'number' then (metrics->'totalTokens')::numeric else 0 end`;
  const stepMs = sql`case when status = 'completed' and jsonb_typeof(metrics->'executionTime') = 'number'
    then (metrics->>'executionTime')::float8 end`;
  const period = async (start: Date, end: Date) => {
    const [runs] = await rows<{
      e: number;
      s: number;
      f: number;
      avg: number | null;
      wait: number | null;
      tokens: number;
    }>(sql`
      select count(*)::int as e, (count(*) filter (where status = 'completed'))::int as s,
        (count(*) filter (where status = 'failed'))::int as f, avg(${seconds})::float8 as avg,
        avg(${waited})::float8 as wait, coalesce(sum(${runTokens}), 0)::float8 as tokens
      from workflow_executions
      where organization_id = ${organizationId} and created_at >= ${start.toISOString()} and created_at < ${end.toISOString()}`);
    const [created] = await rows<{ agents: number; workflows: number }>(sql`
      select (select count(*) from agents where organization_id = ${organizationId}
          and created_at >= ${start.toISOString()} and created_at < ${end.toISOString()})::int as agents,
        (select count(*) from workflows where organization_id = ${organizationId}
          and created_at >= ${start.toISOString()} and created_at < ${end.toISOString()})::int as workflows`);
    return {
      executions: runs.e,
      successful: runs.s,
      failed: runs.f,
      successRate: successRate(runs.s, runs.f),
      avgExecutionTime: oneDecimal(runs.avg),
      avgWaitTime: oneDecimal(runs.wait),
      totalTokens: Math.round(runs.tokens),
      agentsCreated: created.agents,
      workflowsCreated: created.workflows,
    };
  };
  const [fromIso, toIso] = [from.toISOString(), to.toISOString()];
  const days = await rows<{ date: string; e: number; s: number; f: number; tokens: number }>(sql`
    with days as (
      select generate_series((${toIso}::timestamptz at time zone ${timeZone})::date - ${ANALYTICS_CHART_DAYS - 1}::int,
        (${toIso}::timestamptz at time zone ${timeZone})::date, interval '1 day')::date as day
    )
    select to_char(days.day, 'YYYY-MM-DD') as date, count(r.*)::int as e,
      (count(r.*) filter (where r.status = 'completed'))::int as s,
      (count(r.*) filter (where r.status = 'failed'))::int as f, coalesce(sum(r.tokens), 0)::float8 as tokens
    from days left join (
      select status, (created_at at time zone ${timeZone})::date as day, ${runTokens} as tokens
      from workflow_executions
      where organization_id = ${organizationId} and created_at < ${toIso}
        and created_at >= ${toIso}::timestamptz - make_interval(days => ${ANALYTICS_CHART_DAYS + 1}::int)
    ) r on r.day = days.day
    group by days.day order by days.day`);
  const agentRows = await rows<{
    id: string;
    name: string;
    role: string;
    e: number;
    s: number;
    f: number;
    ms: number | null;
    tokens: number;
  }>(sql`
    select a.id, a.name, a.role, count(s.*)::int as e,
      (count(s.*) filter (where s.status = 'completed'))::int as s,
      (count(s.*) filter (where s.status = 'failed'))::int as f, avg(s.ms) as ms, coalesce(sum(s.tokens), 0)::float8 as tokens
    from agents a left join (
      select agent_id, status, ${stepMs} as ms, ${runTokens} as tokens
      from agent_executions
      where created_at >= ${fromIso} and created_at < ${toIso} and metrics->>'reused' is null
    ) s on s.agent_id = a.id
    where a.organization_id = ${organizationId}
    group by a.id order by e desc, a.name limit ${agentLimit}`);
  const flowRows = await rows<{
    id: string;
    name: string;
    process_type: string;
    status: string;
    e: number;
    s: number;
    f: number;
    avg: number | null;
    tokens: number;
  }>(sql`
    select w.id, w.name, w.process_type, w.status, count(*)::int as e,
      (count(*) filter (where r.status = 'completed'))::int as s,
      (count(*) filter (where r.status = 'failed'))::int as f, avg(r.seconds)::float8 as avg,
      coalesce(sum(r.tokens), 0)::float8 as tokens
    from (
      select workflow_id, status, ${seconds} as seconds, ${runTokens} as tokens
      from workflow_executions
      where organization_id = ${organizationId} and created_at >= ${fromIso} and created_at < ${toIso}
    ) r join workflows w on w.id = r.workflow_id
    group by w.id order by e desc, w.name`);
  const [performance] = await rows<{ spread: (number | null)[] | null; ms: number | null }>(sql`
    select
      (select percentile_cont(array[0.5, 0.95]) within group (order by ${seconds}) from workflow_executions
        where organization_id = ${organizationId} and created_at >= ${fromIso} and created_at < ${toIso}) as spread,
      (select avg(${stepMs}) from agent_executions s
        where created_at >= ${fromIso} and created_at < ${toIso} and metrics->>'reused' is null
          and (agent_id in (select id from agents where organization_id = ${organizationId})
            or agent_id is null and workflow_execution_id in
              (select id from workflow_executions where organization_id = ${organizationId}))) as ms`);
  return {
    current: await period(from, to),
    previous: await period(previousFrom, from),
    dailyExecutions: days.map((d) => ({
      date: d.date,
      executions: d.e,
      successful: d.s,
      failed: d.f,
      totalTokens: Math.round(d.tokens),
    })),
    agents: agentRows.map((a) => ({
      agentId: a.id,
      name: a.name,
      role: a.role,
      executions: a.e,
      successRate: successRate(a.s, a.f),
      avgStepTime: Math.round(a.ms ?? 0),
      totalTokens: Math.round(a.tokens),
    })),
    workflows: flowRows.map((w) => ({
      workflowId: w.id,
      name: w.name,
      processType: w.process_type as AnalyticsSummary['workflows'][number]['processType'],
      status: w.status as AnalyticsSummary['workflows'][number]['status'],
      executions: w.e,
      successful: w.s,
      failed: w.f,
      successRate: successRate(w.s, w.f),
      avgExecutionTime: oneDecimal(w.avg),
      totalTokens: Math.round(w.tokens),
    })),
    performance: {
      p50ExecutionTime: oneDecimal(performance.spread?.[0] ?? null),
      p95ExecutionTime: oneDecimal(performance.spread?.[1] ?? null),
      avgStepTime: Math.round(performance.ms ?? 0),
    },
  };
}

describe('analytics summary, against the figures’ plain definitions', () => {
  it.each(ends.map((end) => [end.toISOString(), end] as const))(
    'answers the same for every range and time zone up to %s',
    async (_, to) => {
      let compared = 0;
      for (const length of lengths) {
        const ranges = {
          previousFrom: new Date(to.getTime() - 2 * length),
          from: new Date(to.getTime() - length),
          to,
        };
        for (const timeZone of zones) {
          const limit = compared % 2 === 0 ? 20 : 3;
          const summary = await repository.summary(org, ranges, timeZone, limit);
          expect(summary, `${length / DAY} days in ${timeZone}`).toEqual(
            await reference(org, ranges, timeZone, limit),
          );
          compared++;
        }
      }
      expect(compared).toBe(lengths.length * zones.length);
    },
  );

  it('has data that reaches every figure', async () => {
    const summary = await repository.summary(
      org,
      {
        previousFrom: new Date(ends[2].getTime() - 180 * DAY),
        from: new Date(ends[2].getTime() - 90 * DAY),
        to: ends[2],
      },
      'UTC',
      20,
    );
    expect(summary.current.executions).toBeGreaterThan(100);
    expect(summary.previous.executions).toBeGreaterThan(100);
    expect(summary.agents.filter((a) => a.executions > 0).length).toBeGreaterThan(5);
    expect(summary.workflows).toHaveLength(5);
    expect(summary.current.avgWaitTime).toBeGreaterThan(0);
    expect(summary.performance.p95ExecutionTime).toBeGreaterThan(0);
    expect(summary.performance.avgStepTime).toBeGreaterThan(0);
  });
});
