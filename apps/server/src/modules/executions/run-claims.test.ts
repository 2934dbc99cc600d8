import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { workflowExecutions } from '@crewline/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { chainOf } from '../../testing/workflow-shapes';
import { createExecutionsRepository, type ExecutionsRepository } from './executions.repository';

// Which run a worker's claim takes: the queue is the runs' own table (the process-level view of
// dying workers is durability.process.test.ts, of a restarting database database-restart.process.test.ts).
const LEASE_MS = 60_000;
let t: TestApp;
let ada: AuthResponse;
let repository: ExecutionsRepository;
let workflowId: string;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  repository = createExecutionsRepository(t.db);
  const agent = await t.request({
    method: 'POST',
    url: '/api/agents',
    token: ada.token,
    payload: { name: 'Claims', role: 'Claims role', goal: 'Help', llmModel: 'gpt-4o' },
  });
  const workflow = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: { name: 'Claiming', status: 'active', ...chainOf([agent.json().id]) },
  });
  workflowId = workflow.json().id;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(workflowExecutions);
});

/** A run in the given state, created `secondsAgo` seconds ago. */
async function run(
  status: 'pending' | 'running' | 'completed' | 'cancelled',
  secondsAgo: number,
  leaseExpiresAt: Date | null = null,
) {
  const [row] = await t.db
    .insert(workflowExecutions)
    .values({
      organizationId: ada.organization.id,
      workflowId,
      status,
      leaseExpiresAt,
      createdAt: new Date(Date.now() - secondsAgo * 1000),
    })
    .returning();
  return row.id;
}

describe('a worker’s claim', () => {
  it('takes the oldest run free to run, including one whose worker died, and never a live or finished one', async () => {
    const live = await run('running', 50, new Date(Date.now() + 60_000));
    await run('completed', 40);
    await run('cancelled', 35);
    const lapsed = await run('running', 30, new Date(Date.now() - 1000));
    const older = await run('pending', 20);
    const newer = await run('pending', 10);

    const first = await repository.claimNext(LEASE_MS);
    expect(first).toMatchObject({ id: lapsed, status: 'running', attempt: 1, more: true });
    const second = await repository.claimNext(LEASE_MS);
    expect(second).toMatchObject({ id: older, attempt: 1, resumed: false, more: true });
    expect(second!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + LEASE_MS - 5000);
    const third = await repository.claimNext(LEASE_MS);
    expect(third).toMatchObject({ id: newer, more: false });
    expect(await repository.claimNext(LEASE_MS)).toBeUndefined();
    expect([first, second, third].map((r) => r!.id)).not.toContain(live);
  });

  it('gives each of many workers claiming at once a different run', async () => {
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await run('pending', 100 - i));
    const claims = await Promise.all(Array.from({ length: 16 }, () => repository.claimNext(LEASE_MS)));
    const taken = claims.filter((c) => c !== undefined).map((c) => c.id);
    expect(taken.sort()).toEqual([...ids].sort());
  });

  it('resumes a run handed back by a stopping worker as a new attempt', async () => {
    const id = await run('pending', 5);
    const claimed = await repository.claimNext(LEASE_MS);
    await repository.release(id, claimed!.attempt);
    const again = await repository.claimNext(LEASE_MS);
    expect(again).toMatchObject({ id, attempt: 2, resumed: true, handedBack: 1 });
  });
});
