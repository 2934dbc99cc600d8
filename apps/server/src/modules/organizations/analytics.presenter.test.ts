import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentExecutions, agents, workflowExecutions, workflows } from '@crewline/db';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAnalyticsPresenter, takingTurns, type AnalyticsPresenter } from './analytics.presenter';

// The summary at fixed instants, so runs and steps can sit exactly on the edges of the ranges.
const DAY = 86_400_000;
/** Sunday 29 March 2026, 12:00 UTC: Paris moved its clocks forward that night. */
const to = new Date('2026-03-29T12:00:00.000Z');
const from = new Date(to.getTime() - 7 * DAY);
const previousFrom = new Date(from.getTime() - 7 * DAY);
const week = { previousFrom, from, to };
const at = (time: number | string) => new Date(time);

let t: TestApp;
let repository: AnalyticsPresenter;
let ada: AuthResponse;
let bob: AuthResponse;
let carol: AuthResponse;
let dan: AuthResponse;
let researcher: { id: string };
let writer: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  repository = createAnalyticsPresenter(t.db);
  [ada, bob, carol, dan] = [await t.signup(), await t.signup(), await t.signup(), await t.signup()];
  const org = ada.organization.id;
  [researcher, writer] = await t.db
    .insert(agents)
    .values([
      { name: 'Researcher', role: 'Research', goal: 'Find facts', organizationId: org, createdAt: from },
      // Created a millisecond before the range: the period before it.
      {
        name: 'Writer',
        role: 'Write',
        goal: 'Write posts',
        organizationId: org,
        createdAt: at(from.getTime() - 1),
      },
    ])
    .returning();
  const [flow] = await t.db
    .insert(workflows)
    .values({ name: 'Blog pipeline', organizationId: org, nodes: [], edges: [], createdAt: previousFrom })
    .returning();
  const run = (createdAt: Date, totalTokens: unknown = 10) => ({
    workflowId: flow.id,
    organizationId: org,
    status: 'completed' as const,
    createdAt,
    startedAt: createdAt,
    completedAt: new Date(createdAt.getTime() + 2000),
    metrics: { totalTokens } as Record<string, unknown>,
  });
  const [first] = await t.db
    .insert(workflowExecutions)
    .values([
      run(from), // the range starts here
      run(at(to.getTime() - 1)),
      run(at(from.getTime() - 1)), // the period before it ends here
      run(previousFrom),
      run(at(previousFrom.getTime() - 1)), // before both
      run(to), // the range ends before it
      // Tokens written as text are not a count of tokens.
      run(at('2026-03-28T10:00:00Z'), '50'),
      // Paris days around the change of clocks: 23:59 on the 28th (UTC+1), then midnight (UTC+2 since 01:00 UTC).
      run(at('2026-03-28T22:59:00Z')),
      run(at('2026-03-28T23:00:00Z')),
      run(at('2026-03-29T10:00:00Z')),
    ])
    .returning();
  const step = (
    agentId: string | null,
    metrics: Record<string, unknown>,
    status: 'completed' | 'failed' = 'completed',
    workflowExecutionId = first.id,
  ) => ({ workflowExecutionId, agentId, status, metrics, createdAt: at('2026-03-25T09:00:00Z') });
  await t.db.insert(agentExecutions).values([
    step(researcher.id, { executionTime: 100, totalTokens: 30 }),
    step(researcher.id, { executionTime: 300, totalTokens: 10 }),
    // A retry's copy of a step: its model call was counted in the run that made it.
    step(researcher.id, { executionTime: 10_000, totalTokens: 999, reused: true, reusedFrom: 'x' }),
    step(writer.id, {}, 'failed'),
    // A step time written as text is not a step time, but the step still counts.
    step(writer.id, { executionTime: '700', totalTokens: 5 }),
    // A deleted agent's step: no agent to list, but part of the organization's mean step time.
    step(null, { executionTime: 500, totalTokens: 1 }),
  ]);

  // Bob's rows never reach Ada's figures, not even a deleted agent's step of his.
  const [bobAgent] = await t.db
    .insert(agents)
    .values({ name: 'Bob agent', role: 'Role', goal: 'Goal', organizationId: bob.organization.id })
    .returning();
  const [bobFlow] = await t.db
    .insert(workflows)
    .values({ name: 'Bob flow', organizationId: bob.organization.id, nodes: [], edges: [] })
    .returning();
  const [bobRun] = await t.db
    .insert(workflowExecutions)
    .values({
      ...run(at('2026-03-25T08:00:00Z')),
      workflowId: bobFlow.id,
      organizationId: bob.organization.id,
    })
    .returning();
  await t.db
    .insert(agentExecutions)
    .values([
      step(bobAgent.id, { executionTime: 90_000, totalTokens: 7 }, 'completed', bobRun.id),
      step(null, { executionTime: 90_000, totalTokens: 7 }, 'completed', bobRun.id),
    ]);
});
afterAll(() => t.close());

describe('analytics summary', () => {
  it('counts a run created on the range’s start in the range and one a millisecond earlier in the period before', async () => {
    const summary = await repository.summary(ada.organization.id, week, 'UTC', 20);
    // from, to − 1 ms, the text-tokens run and the three around midnight in Paris.
    expect(summary.current).toMatchObject({
      executions: 6,
      totalTokens: 50,
      agentsCreated: 1,
      workflowsCreated: 0,
    });
    // from − 1 ms and previousFrom.
    expect(summary.previous).toMatchObject({
      executions: 2,
      totalTokens: 20,
      agentsCreated: 1,
      workflowsCreated: 1,
    });
    expect(summary.workflows).toEqual([expect.objectContaining({ name: 'Blog pipeline', executions: 6 })]);
  });

  it('lists each agent’s own steps, without a retry’s copies, and counts a deleted agent’s step in the mean step time', async () => {
    const summary = await repository.summary(ada.organization.id, week, 'UTC', 20);
    expect(summary.agents).toEqual([
      {
        agentId: researcher.id,
        name: 'Researcher',
        role: 'Research',
        executions: 2,
        successRate: 100,
        avgStepTime: 200,
        totalTokens: 40,
      },
      {
        agentId: writer.id,
        name: 'Writer',
        role: 'Write',
        executions: 2,
        successRate: 50,
        avgStepTime: 0,
        totalTokens: 5,
      },
    ]);
    // (100 + 300 + 500) / 3: the reused step, the text step time and Bob's steps left out.
    expect(summary.performance.avgStepTime).toBe(300);
  });

  it('lists only as many agents as asked, the busiest first', async () => {
    const summary = await repository.summary(ada.organization.id, week, 'UTC', 1);
    expect(summary.agents.map((a) => a.name)).toEqual(['Researcher']);
  });

  it('charts the viewer’s calendar days across a change of clocks', async () => {
    const paris = await repository.summary(ada.organization.id, week, 'Europe/Paris', 20);
    expect(paris.dailyExecutions.map((d) => d.date)).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
    // 22:59 UTC is 23:59 on the 28th in Paris, the next minute is midnight, the 29th (the clocks went
    // forward later that night); the range's own first runs, on the 22nd, are before the chart.
    expect(paris.dailyExecutions.map((d) => d.executions)).toEqual([0, 0, 0, 0, 0, 2, 3]);
    // Kathmandu is 5:45 ahead of UTC: 22:59 and 23:00 UTC on the 28th are the early hours of the 29th
    // there, 10:00 UTC on the 28th is 15:45 on the 28th.
    const kathmandu = await repository.summary(ada.organization.id, week, 'Asia/Kathmandu', 20);
    expect(kathmandu.dailyExecutions.slice(-2)).toEqual([
      { date: '2026-03-28', executions: 1, successful: 1, failed: 0, totalTokens: 0 },
      { date: '2026-03-29', executions: 4, successful: 4, failed: 0, totalTokens: 40 },
    ]);
  });

  it('charts seven days even when the range is the last 24 hours', async () => {
    const day = { previousFrom: at(to.getTime() - 2 * DAY), from: at(to.getTime() - DAY), to };
    const summary = await repository.summary(ada.organization.id, day, 'UTC', 20);
    expect(summary.current.executions).toBe(4);
    expect(summary.previous.executions).toBe(1);
    expect(summary.dailyExecutions.map((d) => d.executions)).toEqual([0, 0, 0, 0, 0, 3, 2]);
  });

  it('answers an organization without rows with zeros', async () => {
    const summary = await repository.summary(carol.organization.id, week, 'UTC', 20);
    expect(summary.current).toEqual({
      executions: 0,
      successful: 0,
      failed: 0,
      successRate: null,
      avgExecutionTime: 0,
      avgWaitTime: 0,
      totalTokens: 0,
      agentsCreated: 0,
      workflowsCreated: 0,
    });
    expect(summary.agents).toEqual([]);
    expect(summary.workflows).toEqual([]);
    expect(summary.dailyExecutions.map((d) => d.executions)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(summary.performance).toEqual({ p50ExecutionTime: 0, p95ExecutionTime: 0, avgStepTime: 0 });
  });
});

describe('waiting and working time', () => {
  it('counts the time finished runs waited apart from their working time', async () => {
    const [flow] = await t.db
      .insert(workflows)
      .values({ name: 'Refunds', organizationId: dan.organization.id, nodes: [], edges: [] })
      .returning();
    const start = at('2026-03-25T09:00:00Z');
    const run = (
      status: 'completed' | 'failed' | 'waiting' | 'cancelled',
      seconds: number | null,
      waitedSeconds: number,
    ) => ({
      workflowId: flow.id,
      organizationId: dan.organization.id,
      status,
      createdAt: start,
      startedAt: start,
      completedAt: seconds === null ? null : new Date(start.getTime() + seconds * 1000),
      waitedUs: waitedSeconds * 1_000_000,
    });
    await t.db.insert(workflowExecutions).values([
      // 10 s, 4 of them waiting for an approval: 6 s of work.
      run('completed', 10, 4),
      run('failed', 6, 0),
      // Timed by another clock, the wait came out longer than the run: all of its 3 s were waiting.
      run('completed', 3, 3.5),
      // Not finished: their waits count nowhere yet.
      run('waiting', null, 100),
      run('cancelled', 50, 40),
    ]);
    const summary = await repository.summary(dan.organization.id, week, 'UTC', 20);
    // Working (6 + 6 + 0) / 3 and waiting (4 + 0 + 3) / 3: each finished run's 10, 6 and 3 s split in two.
    expect(summary.current).toMatchObject({ executions: 5, avgExecutionTime: 4, avgWaitTime: 2.3 });
    expect(summary.workflows).toEqual([expect.objectContaining({ name: 'Refunds', avgExecutionTime: 4 })]);
    expect(summary.performance).toMatchObject({ p50ExecutionTime: 6, p95ExecutionTime: 6 });
    expect(summary.previous).toMatchObject({ executions: 0, avgExecutionTime: 0, avgWaitTime: 0 });
  });
});

describe('summaries taking turns', () => {
  it('runs at most the limit at once, the others in the order they came, a failure passing its turn on', async () => {
    const inTurn = takingTurns(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const work = (n: number, fail = false) =>
      inTurn(async () => {
        started.push(n);
        await new Promise<void>((resolve) => finish.push(resolve));
        if (fail) throw new Error(`work ${n} failed`);
        return n;
      });
    const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
    const results = [work(1, true), work(2), work(3), work(4)].map((p) => p.catch((e: Error) => e.message));
    await flush();
    expect(started).toEqual([1, 2]);
    finish[0]();
    await flush();
    expect(started).toEqual([1, 2, 3]);
    finish[1]();
    await flush();
    expect(started).toEqual([1, 2, 3, 4]);
    finish[2]();
    finish[3]();
    expect(await Promise.all(results)).toEqual(['work 1 failed', 2, 3, 4]);
    // Every turn was given back: two run at once again.
    const again = [work(5), work(6)];
    await flush();
    expect(started.slice(4)).toEqual([5, 6]);
    finish[4]();
    finish[5]();
    expect(await Promise.all(again)).toEqual([5, 6]);
  });
});
