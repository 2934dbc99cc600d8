import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { eq, inArray } from 'drizzle-orm';
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
/** A second organization, its workflow, and a third. */
let bea: AuthResponse, beaWorkflowId: string;
let cy: AuthResponse, cyWorkflowId: string;

/** Signs up an organization with an active one-agent workflow; returns both. */
async function organizationWithWorkflow(): Promise<[AuthResponse, string]> {
  const owner = await t.signup();
  const agent = await t.request({
    method: 'POST',
    url: '/api/agents',
    token: owner.token,
    payload: { name: 'Claims', role: 'Claims role', goal: 'Help', llmModel: 'gpt-4o' },
  });
  const workflow = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: owner.token,
    payload: { name: 'Claiming', status: 'active', ...chainOf([agent.json().id]) },
  });
  return [owner, workflow.json().id];
}

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
  [bea, beaWorkflowId] = await organizationWithWorkflow();
  [cy, cyWorkflowId] = await organizationWithWorkflow();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(workflowExecutions);
});

type Owner = { organization: { id: string } };

/**
 * A run in the given state, created `secondsAgo` seconds ago, of Ada's organization unless `of` says
 * another, with the concurrency limit its start would have written (none by default).
 */
async function run(
  status: 'pending' | 'running' | 'completed' | 'cancelled',
  secondsAgo: number,
  leaseExpiresAt: Date | null = null,
  of: { owner: Owner; workflowId: string; concurrencyLimit?: number } = { owner: ada, workflowId },
) {
  const [row] = await t.db
    .insert(workflowExecutions)
    .values({
      organizationId: of.owner.organization.id,
      workflowId: of.workflowId,
      status,
      leaseExpiresAt,
      concurrencyLimit: of.concurrencyLimit ?? null,
      createdAt: new Date(Date.now() - secondsAgo * 1000),
    })
    .returning();
  return row.id;
}

const inAMinute = () => new Date(Date.now() + 60_000);

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

describe('a claim between organizations', () => {
  const of = (owner: Owner, id: string, concurrencyLimit: number) => ({
    owner,
    workflowId: id,
    concurrencyLimit,
  });

  it('takes first the run of the organization using the least share of its limit, however new', async () => {
    const ada20 = of(ada, workflowId, 20);
    const bea5 = of(bea, beaWorkflowId, 5);
    // Ada: two in progress and a backlog from long ago; Bea: one run queued just now.
    await run('running', 300, inAMinute(), ada20);
    await run('running', 300, inAMinute(), ada20);
    const adaOldest = await run('pending', 200, null, ada20);
    for (let i = 0; i < 5; i++) await run('pending', 100 - i, null, ada20);
    const beas = await run('pending', 1, null, bea5);

    // Bea uses 0 of 5, Ada 2 of 20: Bea's run first, then Ada's oldest.
    expect(await repository.claimNext(LEASE_MS)).toMatchObject({ id: beas, more: true });
    expect(await repository.claimNext(LEASE_MS)).toMatchObject({ id: adaOldest });
  });

  it('shares by plan: the smaller share of its own limit goes first', async () => {
    const ada20 = of(ada, workflowId, 20);
    const cy5 = of(cy, cyWorkflowId, 5);
    await run('running', 300, inAMinute(), ada20);
    await run('running', 300, inAMinute(), cy5);
    const cyOlder = await run('pending', 50, null, cy5);
    const adaNewer = await run('pending', 10, null, ada20);
    // Ada 1 of 20 (5 %) before Cy 1 of 5 (20 %), though Cy's run is older.
    expect(await repository.claimNext(LEASE_MS)).toMatchObject({ id: adaNewer });
    // Now Ada 2 of 20 (10 %) and Cy 20 %: with nothing of Ada's queued, Cy's run.
    expect(await repository.claimNext(LEASE_MS)).toMatchObject({ id: cyOlder });
  });

  it('passes over an organization at its limit, and counts a lapsed lease as free', async () => {
    const bea2 = of(bea, beaWorkflowId, 2);
    const inProgress = [
      await run('running', 300, inAMinute(), bea2),
      await run('running', 290, inAMinute(), bea2),
    ];
    const held = await run('pending', 100, null, bea2);
    const adas = await run('pending', 1, null, of(ada, workflowId, 20));
    expect(await repository.claimNext(LEASE_MS)).toMatchObject({ id: adas });
    // Only Bea's run is left, and Bea is at 2 of 2: nothing to claim.
    expect(await repository.claimNext(LEASE_MS)).toBeUndefined();

    // Bea's worker died: its two lapsed runs are free to run and no longer count as in progress;
    // they are older than the held one, so they are taken again, and then the limit holds again.
    await t.db
      .update(workflowExecutions)
      .set({ leaseExpiresAt: new Date(Date.now() - 1000) })
      .where(inArray(workflowExecutions.id, inProgress));
    const claimed = [await repository.claimNext(LEASE_MS), await repository.claimNext(LEASE_MS)];
    expect(claimed.map((c) => c?.id)).toEqual(inProgress);
    expect(await repository.claimNext(LEASE_MS)).toBeUndefined();
    const [{ status }] = await t.db
      .select({ status: workflowExecutions.status })
      .from(workflowExecutions)
      .where(eq(workflowExecutions.id, held));
    expect(status).toBe('pending');
  });

  it('never lets workers claiming at the same moment pass the limit together', async () => {
    const bea3 = of(bea, beaWorkflowId, 3);
    // Several rounds: without the claim's lock, two claims in one round would now and then both
    // count 2 in progress and both take a run.
    for (let round = 0; round < 5; round++) {
      await t.db.delete(workflowExecutions);
      for (let i = 0; i < 20; i++) await run('pending', 100 - i, null, bea3);
      const claims = await Promise.all(Array.from({ length: 12 }, () => repository.claimNext(LEASE_MS)));
      expect(claims.filter((c) => c !== undefined)).toHaveLength(3);
    }
  });
});
