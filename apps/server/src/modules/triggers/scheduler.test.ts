import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowExecutions, workflows } from '@crewline/db';
import { nextRunTimes } from '@crewline/engine';
import { createServices, type Services } from '../../app';
import { createEventBus } from '../../platform/events';
import { createAgent, createChainWorkflow } from '../../testing/app-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createScheduler, type Scheduler } from './scheduler';
import type { SchedulesRepository } from '../workflows/schedules.repository';

// docs/decisions/0010-schedules-exactly-once.md: schedulers on a clock the test moves, polled by hand,
// against the real database. Runs are queued (no worker works them): what counts is how many started.
let t: TestApp;
let token: string;
let agentId: string;
/** Two processes' worth of services: each scheduler starts its runs through its own. */
let processes: Services[];
let clock = new Date();
const now = () => clock;

beforeAll(async () => {
  t = await createTestApp();
  processes = [0, 1].map(() =>
    createServices({
      config: t.config,
      db: t.db,
      logger: false,
      events: createEventBus(),
    }),
  );
  ({ token } = await t.signup());
  agentId = (await createAgent(t, token, { name: 'Reporter' })).id;
});
afterAll(async () => {
  await t.close();
});

const scheduler = (services: Services, repository: SchedulesRepository = services.schedules) =>
  createScheduler({ repository, triggers: services.triggers, now });
const schedulers = () => processes.map((services) => scheduler(services));
const pollAll = (all: Scheduler[]) => Promise.all(all.map((s) => s.poll()));

const scheduleWorkflow = (cron: string, agents = [agentId]) =>
  createChainWorkflow(t, token, `Scheduled ${cron}`, agents, {
    triggerType: 'schedule',
    triggerConfig: { cron },
  });
const row = async (id: string) => (await t.db.select().from(workflows).where(eq(workflows.id, id)))[0];
const runsOf = (id: string) =>
  t.db.select().from(workflowExecutions).where(eq(workflowExecutions.workflowId, id));
/** Makes the workflow's tick due at `due`, as if it had been saved long ago. */
const dueAt = (id: string, due: Date) =>
  t.db
    .update(workflows)
    .set({ nextRunAt: due, updatedAt: sql`updated_at` })
    .where(eq(workflows.id, id));

describe('the scheduler', () => {
  it('starts exactly one run per tick whatever the number of schedulers, then moves to the next tick after now', async () => {
    clock = new Date();
    const id = await scheduleWorkflow('*/5 * * * *');
    const saved = await row(id);
    expect(saved.nextRunAt!.getTime()).toBe(nextRunTimes('*/5 * * * *', 'UTC', clock, 1)[0].getTime());

    // Due half an hour ago (missed while no scheduler ran): not replayed, the next tick is counted from now.
    await dueAt(id, new Date(saved.nextRunAt!.getTime() - 30 * 60_000));
    const all = [...schedulers(), ...schedulers()];
    expect(await pollAll(all)).toEqual([0, 0, 0, 0]);
    expect(await runsOf(id)).toHaveLength(0);
    expect((await row(id)).nextRunAt!.getTime()).toBe(saved.nextRunAt!.getTime());

    // A tick a few seconds late (a busy poll, a restart) still starts its one run.
    const due = new Date(clock.getTime() - 5_000);
    await dueAt(id, due);
    const started = await pollAll(all);
    expect(started.reduce((a, b) => a + b, 0)).toBe(1);

    const runs = await runsOf(id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      trigger: 'schedule',
      triggeredBy: null,
      status: 'pending',
      input: { scheduledAt: due.toISOString(), cron: '*/5 * * * *', timezone: 'UTC' },
    });
    const advanced = await row(id);
    expect(advanced.nextRunAt!.getTime()).toBe(saved.nextRunAt!.getTime());
    expect(advanced.updatedAt.getTime()).toBe(saved.updatedAt.getTime());
    expect(advanced.lastTriggerError).toBeNull();

    // Nothing due until the clock reaches the next tick; then one more run.
    expect(await pollAll(all)).toEqual([0, 0, 0, 0]);
    clock = new Date(advanced.nextRunAt!.getTime() + 1500);
    expect((await pollAll(all)).reduce((a, b) => a + b, 0)).toBe(1);
    expect(await runsOf(id)).toHaveLength(2);
    expect((await row(id)).nextRunAt!.getTime()).toBe(advanced.nextRunAt!.getTime() + 5 * 60_000);

    // Paused: no next tick, and no run however far the clock goes.
    const paused = await t.request({
      method: 'PUT',
      url: `/api/workflows/${id}`,
      token,
      payload: { status: 'paused' },
    });
    expect(paused.json().nextRunAt).toBeNull();
    clock = new Date(clock.getTime() + 24 * 3_600_000);
    expect(await pollAll(all)).toEqual([0, 0, 0, 0]);
    // Even a tick left behind (written before the pause committed) does not fire a paused workflow.
    await dueAt(id, new Date(clock.getTime() - 60_000));
    expect(await pollAll(all)).toEqual([0, 0, 0, 0]);
    expect(await runsOf(id)).toHaveLength(2);
  });

  it('starts every due workflow once when several schedulers poll at the same time', async () => {
    clock = new Date();
    const ids = await Promise.all([1, 2, 3, 4, 5].map(() => scheduleWorkflow('0 * * * *')));
    for (const id of ids) await dueAt(id, new Date(clock.getTime() - 60_000));
    const all = [...schedulers(), ...schedulers(), ...schedulers()];
    expect((await pollAll(all)).reduce((a, b) => a + b, 0)).toBe(5);
    for (const id of ids) {
      expect(await runsOf(id)).toHaveLength(1);
      expect((await row(id)).nextRunAt!.getTime()).toBeGreaterThan(clock.getTime());
    }
  });

  it('keeps why a scheduled run could not start on the workflow, and moves on to the next tick', async () => {
    clock = new Date();
    const doomed = await createAgent(t, token, { name: 'Doomed' });
    const id = await scheduleWorkflow('*/10 * * * *', [doomed.id]);
    const deleted = await t.request({ method: 'DELETE', url: `/api/agents/${doomed.id}`, token });
    expect(deleted.statusCode).toBeLessThan(300);
    await dueAt(id, new Date(clock.getTime() - 60_000));

    const [one] = schedulers();
    expect(await one.poll()).toBe(0);
    const failed = await row(id);
    expect(failed.lastTriggerError).toBe(
      'Step "Untitled" uses an agent that was deleted. Open the workflow and choose another agent.',
    );
    expect(failed.nextRunAt!.getTime()).toBe(nextRunTimes('*/10 * * * *', 'UTC', clock, 1)[0].getTime());
    expect(await runsOf(id)).toHaveLength(0);

    // Not tried again every poll: the error stays as it was until the next tick.
    expect(await one.poll()).toBe(0);
    expect((await row(id)).lastTriggerErrorAt).toEqual(failed.lastTriggerErrorAt);
    const answered = await t.request({ method: 'GET', url: `/api/workflows/${id}`, token });
    expect(answered.json().lastTriggerError.message).toContain('uses an agent that was deleted');
  });

  it('survives a database that cannot be reached: it logs, starts nothing and polls again', async () => {
    const warnings: string[] = [];
    let failures = 3;
    const flaky: SchedulesRepository = {
      ...processes[0].schedules,
      async due(at, limit) {
        if (failures-- > 0) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return processes[0].schedules.due(at, limit);
      },
    };
    const polled = createScheduler({
      repository: flaky,
      triggers: processes[0].triggers,
      now,
      pollMs: 5,
      logger: {
        warn: (_obj: unknown, msg?: string) => warnings.push(msg ?? ''),
        info() {},
        debug() {},
      } as never,
    });
    polled.start();
    await expect.poll(() => failures, { timeout: 5000 }).toBeLessThan(0);
    await polled.stop();
    expect(warnings.filter((w) => w === 'could not look for due schedules')).toHaveLength(3);
  });
});
