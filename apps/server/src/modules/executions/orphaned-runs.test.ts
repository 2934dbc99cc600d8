import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { workflowExecutions } from '@crewline/db';
import { EXECUTION_QUEUE, startQueue, type Queue } from '../../platform/queue';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { chainOf } from '../../testing/workflow-shapes';
import { createExecutionsRepository, type ExecutionsRepository } from './executions.repository';

// Which runs the sweeper re-sends, judged with pg-boss's own job rows: a run is re-sent when nothing
// in the queue will pick it up, and only then (the process-level view is database-restart.process.test.ts).
const LEASE_MS = 2000;
let t: TestApp;
let ada: AuthResponse;
let boss: Queue;
let repository: ExecutionsRepository;
let workflowId: string;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  boss = await startQueue(t.database.url, pino({ level: 'silent' }));
  repository = createExecutionsRepository(t.db);
  const agent = await t.request({
    method: 'POST',
    url: '/api/agents',
    token: ada.token,
    payload: { name: 'Sweep', role: 'Sweep role', goal: 'Help', llmModel: 'gpt-4o' },
  });
  const workflow = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: { name: 'Sweeping', status: 'active', ...chainOf([agent.json().id]) },
  });
  workflowId = workflow.json().id;
});
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await t?.close();
});

async function run(status: 'pending' | 'running', leaseExpiresAt: Date | null = null) {
  const [row] = await t.db
    .insert(workflowExecutions)
    .values({ organizationId: ada.organization.id, workflowId, status, leaseExpiresAt })
    .returning();
  return row.id;
}

/**
 * Queues the run's job; `taken` marks it fetched by a worker that long ago and never completed
 * (what a fetch writes, set directly so the time can be chosen).
 */
async function job(executionId: string, taken?: { msAgo: number }) {
  const id = await boss.send(EXECUTION_QUEUE, { executionId });
  if (!taken) return;
  await t.database.pool.query(
    `update pgboss.job set state = 'active', started_on = now() - make_interval(secs => $2) where id = $1`,
    [id, taken.msAgo / 1000],
  );
}

const lapsed = () => new Date(Date.now() - 1000);

describe('the sweep for orphaned runs', () => {
  it('re-sends exactly the runs nothing in the queue will pick up', async () => {
    const lostJob = await run('pending'); // its job failed or expired
    const waiting = await run('pending');
    await job(waiting);
    const justTaken = await run('pending');
    await job(justTaken, { msAgo: 100 }); // the worker is claiming it right now
    // A worker took the job, then died or lost the database before claiming the run: the job
    // stays active (for hours, until pg-boss expires it) and the run pending.
    const takenLongAgo = await run('pending');
    await job(takenLongAgo, { msAgo: LEASE_MS * 2 });

    const workerDied = await run('running', lapsed());
    await job(workerDied, { msAgo: LEASE_MS * 5 }); // its job is still active, its worker gone
    // Re-sent by an earlier sweep and waiting for a busy worker: not sent again on every sweep.
    const alreadyResent = await run('running', lapsed());
    await job(alreadyResent);
    const live = await run('running', new Date(Date.now() + 60_000));

    const orphans = (await repository.orphans(EXECUTION_QUEUE, LEASE_MS)).map((r) => r.id);
    const named = { lostJob, waiting, justTaken, takenLongAgo, workerDied, alreadyResent, live };
    const resent = Object.entries(named)
      .filter(([, id]) => orphans.includes(id))
      .map(([name]) => name);
    expect(resent).toEqual(['lostJob', 'takenLongAgo', 'workerDied']);
  });
});
