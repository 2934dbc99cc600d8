import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentExecutions, agents, workflowExecutions, workflows } from '@crewline/db';
import type { Analytics, AuthResponse } from '@crewline/contracts';
import { eq } from 'drizzle-orm';
import { statementsDuring, UNCOUNTED } from '../../testing/statements';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;
let researcher: { id: string };
let writer: { id: string };
let blog: { id: string };
let digest: { id: string };
/** When the oldest of Ada's runs was created (3 days ago): its calendar day depends on the time zone. */
let threeDaysAgo: Date;

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  bob = await t.signup();
  const org = ada.organization.id;
  [researcher, writer] = await t.db
    .insert(agents)
    .values([
      { name: 'Researcher', role: 'Research', goal: 'Find facts', organizationId: org },
      { name: 'Writer', role: 'Write', goal: 'Write posts', organizationId: org },
      // Created ten days ago: in the previous 7-day period, not this one.
      { name: 'Idle', role: 'Wait', goal: 'Nothing', organizationId: org, createdAt: hoursAgo(240) },
    ])
    .returning();
  [blog, digest] = await t.db
    .insert(workflows)
    .values([
      { name: 'Blog pipeline', status: 'active', organizationId: org, nodes: [], edges: [] },
      { name: 'Daily digest', processType: 'parallel', organizationId: org, nodes: [], edges: [] },
    ])
    .returning();

  threeDaysAgo = hoursAgo(72);
  const run = (
    workflowId: string,
    status: 'completed' | 'failed' | 'running',
    createdAt: Date,
    seconds: number,
    totalTokens: number,
    waitedSeconds = 0,
  ) => ({
    workflowId,
    organizationId: org,
    status,
    createdAt,
    startedAt: createdAt,
    completedAt: status === 'running' ? null : new Date(createdAt.getTime() + seconds * 1000),
    waitedUs: waitedSeconds * 1_000_000,
    metrics: { totalTokens },
  });
  const [r1, r2, r3] = await t.db
    .insert(workflowExecutions)
    .values([
      // 10 s, 6 of them waiting for an approval: 4 s of work.
      run(blog.id, 'completed', hoursAgo(2), 10, 100, 6),
      run(blog.id, 'failed', hoursAgo(5), 4, 50),
      run(digest.id, 'completed', threeDaysAgo, 30, 300),
      run(digest.id, 'running', hoursAgo(1), 0, 0),
      // Ten days ago: the previous period of the 7-day range.
      run(blog.id, 'completed', hoursAgo(240), 20, 10),
      run(blog.id, 'completed', hoursAgo(250), 40, 10, 10),
    ])
    .returning();
  const step = (
    workflowExecutionId: string,
    agentId: string,
    status: 'completed' | 'failed',
    executionTime: number,
    totalTokens: number,
  ) => ({
    workflowExecutionId,
    agentId,
    status,
    metrics: status === 'completed' ? { executionTime, totalTokens } : {},
  });
  await t.db
    .insert(agentExecutions)
    .values([
      step(r1.id, researcher.id, 'completed', 400, 60),
      step(r1.id, writer.id, 'completed', 800, 40),
      step(r2.id, researcher.id, 'completed', 600, 50),
      step(r2.id, writer.id, 'failed', 0, 0),
      step(r3.id, researcher.id, 'completed', 500, 300),
    ]);

  // Bob's run: never part of Ada's figures.
  const [bobFlow] = await t.db
    .insert(workflows)
    .values({ name: 'Bob secret flow', organizationId: bob.organization.id, nodes: [], edges: [] })
    .returning();
  await t.db.insert(workflowExecutions).values({
    workflowId: bobFlow.id,
    organizationId: bob.organization.id,
    status: 'completed',
    createdAt: hoursAgo(1),
    metrics: { totalTokens: 9999 },
  });
});
afterAll(() => t.close());

async function analytics(query = '', token = ada.token, orgId = ada.organization.id) {
  return t.request({ method: 'GET', url: `/api/organizations/${orgId}/analytics${query}`, token });
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone, as the viewer's calendar shows it. */
const dayIn = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(at);

describe('GET /api/organizations/:orgId/analytics', () => {
  it('sums the last 7 days and the 7 days before them (default range)', async () => {
    const res = await analytics();
    expect(res.statusCode).toBe(200);
    const body = res.json() as Analytics;
    expect(body.range.days).toBe('7');
    expect(Date.parse(body.range.to) - Date.parse(body.range.from)).toBe(7 * 24 * 3_600_000);
    expect(body.current).toEqual({
      executions: 4,
      successful: 2,
      failed: 1,
      successRate: 66.7, // 2 of the 3 finished
      avgExecutionTime: 12.7, // working time: (10 − 6 + 4 + 30) / 3
      avgWaitTime: 2, // (6 + 0 + 0) / 3
      totalTokens: 450,
      agentsCreated: 2,
      workflowsCreated: 2,
    });
    expect(body.previous).toEqual({
      executions: 2,
      successful: 2,
      failed: 0,
      successRate: 100,
      avgExecutionTime: 25, // (20 + 40 − 10) / 2
      avgWaitTime: 5,
      totalTokens: 20,
      agentsCreated: 1,
      workflowsCreated: 0,
    });
  });

  it('narrows every figure to the last 24 hours', async () => {
    const body = (await analytics('?days=24')).json() as Analytics;
    expect(body.current).toMatchObject({ executions: 3, successful: 1, failed: 1, totalTokens: 150 });
    // The 24 hours before: only the digest run of three days ago is older, so nothing.
    expect(body.previous.executions).toBe(0);
    expect(body.previous.successRate).toBeNull();
    expect(body.workflows.map((w) => w.name)).toEqual(['Blog pipeline', 'Daily digest']);
  });

  it('charts the last 7 calendar days of the viewer’s time zone, oldest first, empty days included', async () => {
    for (const tz of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {
      const body = (await analytics(`?tz=${encodeURIComponent(tz)}`)).json() as Analytics;
      const days = body.dailyExecutions;
      expect(days).toHaveLength(7);
      expect(days[6].date).toBe(dayIn(new Date(Date.parse(body.range.to)), tz));
      expect(days.map((d) => Date.parse(d.date))).toEqual(
        days.map((_, i) => Date.parse(days[6].date) - (6 - i) * 86_400_000),
      );
      // The digest run of three days ago is alone on its day, wherever the viewer is.
      expect(days.find((d) => d.date === dayIn(threeDaysAgo, tz))).toMatchObject({
        executions: 1,
        successful: 1,
        failed: 0,
        totalTokens: 300,
      });
      expect(days.reduce((n, d) => n + d.executions, 0)).toBe(4);
      expect(days.reduce((n, d) => n + d.successful, 0)).toBe(2);
      expect(days.reduce((n, d) => n + d.failed, 0)).toBe(1);
      expect(days.reduce((n, d) => n + d.totalTokens, 0)).toBe(450);
      expect(days.filter((d) => d.executions === 0).length).toBeGreaterThanOrEqual(3);
    }
  });

  it('ranks agents by their steps, with success rate, mean step time and tokens', async () => {
    const body = (await analytics()).json() as Analytics;
    expect(body.agents).toEqual([
      {
        agentId: researcher.id,
        name: 'Researcher',
        role: 'Research',
        executions: 3,
        successRate: 100,
        avgStepTime: 500,
        totalTokens: 410,
      },
      {
        agentId: writer.id,
        name: 'Writer',
        role: 'Write',
        executions: 2,
        successRate: 50,
        avgStepTime: 800,
        totalTokens: 40,
      },
      expect.objectContaining({ name: 'Idle', executions: 0, successRate: null, avgStepTime: 0 }),
    ]);
    // Top agents: the ones that ran, at most five.
    expect(body.topAgents.map((a) => a.name)).toEqual(['Researcher', 'Writer']);
  });

  it('reports each workflow that ran, and the spread of run times', async () => {
    const body = (await analytics()).json() as Analytics;
    expect(body.workflows).toEqual([
      {
        workflowId: blog.id,
        name: 'Blog pipeline',
        processType: 'sequential',
        status: 'active',
        executions: 2,
        successful: 1,
        failed: 1,
        successRate: 50,
        avgExecutionTime: 4, // (10 − 6 + 4) / 2
        totalTokens: 150,
      },
      expect.objectContaining({
        workflowId: digest.id,
        processType: 'parallel',
        executions: 2,
        successRate: 100,
        avgExecutionTime: 30,
      }),
    ]);
    expect(body.performance).toEqual({
      p50ExecutionTime: 4, // of the working times 4, 4 and 30 s
      p95ExecutionTime: 27.4, // 4 + 0.9 × (30 − 4)
      avgStepTime: 575, // (400 + 800 + 600 + 500) / 4 completed steps
      avgTokensPerExecution: 113, // 450 / 4
    });
  });

  it('answers an organization without runs with zeros and seven empty days', async () => {
    const body = (await analytics('', bob.token, bob.organization.id)).json() as Analytics;
    expect(body.current.executions).toBe(1);
    const carol = await t.signup();
    const empty = (await analytics('?days=90', carol.token, carol.organization.id)).json() as Analytics;
    expect(empty.current).toMatchObject({
      executions: 0,
      successRate: null,
      avgExecutionTime: 0,
      avgWaitTime: 0,
    });
    expect(empty.dailyExecutions.map((d) => d.executions)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(empty.agents).toEqual([]);
    expect(empty.workflows).toEqual([]);
    expect(empty.performance).toEqual({
      p50ExecutionTime: 0,
      p95ExecutionTime: 0,
      avgStepTime: 0,
      avgTokensPerExecution: 0,
    });
  });

  it('never shows another organization’s rows, and answers 404 for its id', async () => {
    const body = JSON.stringify((await analytics('?days=90')).json());
    expect(body).not.toContain('Bob secret flow');
    expect((await analytics('', bob.token)).statusCode).toBe(404);
  });

  it('computes once for dashboards opened at the same moment, and afresh for a later one', async () => {
    const summaries = (statements: string[]) =>
      statements.filter((s) => s.includes('org_agents as materialized'));
    let answers: Awaited<ReturnType<typeof analytics>>[] = [];
    // The first summary waits on a lock held here while the seven other dashboards arrive.
    const holder = await t.db.$client.connect();
    await holder.query('begin');
    await holder.query('lock table agents in access exclusive mode');
    const together = await statementsDuring(async (seen) => {
      const pending = Promise.all(Array.from({ length: 8 }, () => analytics('?days=30')));
      // Until all eight have passed authentication (a session lookup each) and the first summary waits.
      for (;;) {
        const { rows } = await t.db.$client.query<{ waiting: number }>(
          `${UNCOUNTED} select count(*)::int as waiting from pg_stat_activity
           where wait_event_type = 'Lock' and query like '%org_agents as materialized%'`,
        );
        const authenticated = seen.filter((s) => s.includes('from "auth_sessions"')).length;
        if (rows[0].waiting > 0 && authenticated === 8) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // From its session to the summary, a request takes microtasks, not timers.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await holder.query('commit');
      answers = await pending;
    });
    holder.release();
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    // The first starts at once; the seven arriving while it runs share the next one.
    expect(summaries(together)).toHaveLength(2);
    const before = answers[0].json<Analytics>().current.executions;

    // Once they are answered, a run made now is in the next dashboard's figures.
    const [made] = await t.db
      .insert(workflowExecutions)
      .values({
        workflowId: blog.id,
        organizationId: ada.organization.id,
        status: 'completed',
        startedAt: new Date(),
        completedAt: new Date(),
      })
      .returning();
    let later: Awaited<ReturnType<typeof analytics>> | undefined;
    const alone = await statementsDuring(async () => {
      later = await analytics('?days=30');
    });
    expect(summaries(alone)).toHaveLength(1);
    expect(later!.json<Analytics>().current.executions).toBe(before + 1);
    await t.db.delete(workflowExecutions).where(eq(workflowExecutions.id, made.id));
  });

  it('refuses a range or time zone it does not know with 400 and a message', async () => {
    const days = await analytics('?days=14');
    expect(days.statusCode).toBe(400);
    expect(days.json().message).toContain('days must be 24, 7, 30 or 90');
    const tz = await analytics('?tz=Mars%2FOlympus');
    expect(tz.statusCode).toBe(400);
    expect(tz.json().message).toContain('tz must be an IANA time zone');
  });
});
