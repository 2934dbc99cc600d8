import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowExecutions, workflows } from '@crewline/db';
import { createAgent, createChainWorkflow } from '../../testing/app-fixtures';
import {
  processEnv,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../../testing/server-process';
import { createTestApp, type TestApp } from '../../testing/test-app';

// docs/decisions/0010-schedules-exactly-once.md with real processes and the real clock: two worker
// processes (ROLE=worker, each with its scheduler) share one Postgres; an every-minute schedule starts
// exactly one run for its tick. Takes up to a minute and a few seconds.
let t: TestApp;
const workers: ServerProcess[] = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-schedule-'));

beforeAll(async () => {
  t = await createTestApp();
  const env = processEnv({
    DATABASE_URL: t.database.url,
    DATA_DIR: dataDir,
    JWT_SECRET: 'schedule-test-secret-that-is-long-enough-01234',
    ENCRYPTION_KEY: '22'.repeat(32),
    ROLE: 'worker',
  });
  for (let i = 0; i < 2; i++) workers.push(startServerProcess(env, /worker started/));
  await Promise.all(workers.map((worker) => worker.ready));
}, 60_000);

afterAll(async () => {
  for (const worker of workers) await stopServerProcess(worker, 'SIGKILL');
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an every-minute schedule with two worker processes', () => {
  it('starts exactly one run for the tick', { timeout: 85_000 }, async () => {
    const { token } = await t.signup();
    const agent = await createAgent(t, token, { name: 'Ticker' });
    const id = await createChainWorkflow(t, token, 'Every minute', [agent.id], {
      triggerType: 'schedule',
      triggerConfig: { cron: '* * * * *' },
    });
    const [saved] = await t.db.select().from(workflows).where(eq(workflows.id, id));
    const tick = saved.nextRunAt!;
    expect(tick.getUTCSeconds()).toBe(0);
    expect(tick.getTime() - Date.now()).toBeLessThanOrEqual(60_000);

    const runs = () => t.db.select().from(workflowExecutions).where(eq(workflowExecutions.workflowId, id));
    await expect.poll(async () => (await runs()).length, { timeout: 70_000, interval: 250 }).toBe(1);
    // Both schedulers have polled several times since the tick: still one run.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const [run, ...others] = await runs();
    expect(others).toEqual([]);
    expect(run).toMatchObject({ trigger: 'schedule', triggeredBy: null });
    expect(run.input).toMatchObject({ scheduledAt: tick.toISOString() });
    expect(run.createdAt.getTime()).toBeGreaterThanOrEqual(tick.getTime());
    const [after] = await t.db.select().from(workflows).where(eq(workflows.id, id));
    expect(after.nextRunAt!.getTime()).toBe(tick.getTime() + 60_000);
  });
});
