import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { eq, inArray } from 'drizzle-orm';
import { workflowExecutions } from '@crewline/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { chainOf } from '../../testing/workflow-shapes';
import { createExecutionsRepository, type ExecutionsRepository } from './executions.repository';
import type { Claimed, ClaimColumns } from './run-claims.repository';

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

describe('a run claimed as it starts (an idle worker loop of the starting process)', () => {
  /** Starts a run of Bea's workflow whose insert may claim it; resolves with its status and the claim. */
  async function start(concurrencyLimit: number | null) {
    let claimed: Claimed<ClaimColumns> | undefined;
    const execution = await repository.createQueued(
      bea.organization.id,
      { id: beaWorkflowId, name: 'Claiming', processType: 'sequential' },
      { trigger: 'manual', triggeredBy: bea.user.id },
      { input: {}, dynamicInstructions: null, parameters: {} },
      {
        concurrencyLimit,
        claim: { columns: {}, leaseMs: LEASE_MS, claimed: (run) => (claimed = run) },
      },
    );
    return { status: execution!.status, id: execution!.id, claimed };
  }
  const bea2 = () => ({ owner: bea, workflowId: beaWorkflowId, concurrencyLimit: 2 });

  it('is inserted running, as its first attempt under the lease, when nothing waits and its organization is under its limit', async () => {
    await run('running', 30, inAMinute(), bea2());
    const started = await start(2);
    expect(started.status).toBe('running');
    expect(started.claimed).toMatchObject({ id: started.id, status: 'running', attempt: 1, resumed: false });
    expect(started.claimed!.startedAt).toBeInstanceOf(Date);
    expect(started.claimed!.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now() + LEASE_MS - 5000);
    // A claim would not take it again: it is in progress under its lease.
    expect(await repository.claimNext(LEASE_MS)).toBeUndefined();
  });

  it('is queued as always when a run waits in the queue (any organization’s) or its organization is at its limit', async () => {
    const adas = await run('pending', 5, null, { owner: ada, workflowId, concurrencyLimit: 20 });
    const behindAda = await start(2);
    expect(behindAda).toMatchObject({ status: 'pending', claimed: undefined });
    // Fair as ever: the queue's order decides, Ada's waiting run first.
    expect(await repository.claimNext(LEASE_MS)).toMatchObject({ id: adas });

    await t.db.delete(workflowExecutions);
    await run('running', 30, inAMinute(), bea2());
    await run('running', 20, inAMinute(), bea2());
    expect(await start(2)).toMatchObject({ status: 'pending', claimed: undefined });
    // Unlimited (no concurrency limit), it would have been claimed.
    await t.db.delete(workflowExecutions);
    expect((await start(null)).status).toBe('running');
  });

  it('never passes the limit together with other starts and claims at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      await t.db.delete(workflowExecutions);
      const settled = await Promise.all([
        ...Array.from({ length: 8 }, () => start(3)),
        ...Array.from({ length: 6 }, () => repository.claimNext(LEASE_MS)),
      ]);
      const running = await t.db
        .select({ id: workflowExecutions.id })
        .from(workflowExecutions)
        .where(eq(workflowExecutions.status, 'running'));
      expect(running).toHaveLength(3);
      // Each run in progress was taken once: by its start or by one claim.
      const takers = settled.flatMap((taken) => {
        if (!taken) return [];
        if ('claimed' in taken) return taken.claimed ? [taken.id] : [];
        return [taken.id];
      });
      expect(takers.sort()).toEqual(running.map((r) => r.id).sort());
    }
  });
});
