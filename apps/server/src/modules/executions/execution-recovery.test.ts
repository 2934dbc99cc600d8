import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentExecutions, workflowExecutions } from '@crewline/db';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createAgent, createChainWorkflow, workflowOnFakeModel } from '../../testing/app-fixtures';
import { createServices } from '../../app';
import { createEventBus } from '../../platform/events';
import { createExecutionsRepository, type ExecutionsRepository } from './executions.repository';
import { startExecutionWorker } from './execution-worker';

// Runs whose workers die, as the repository and the next worker see them (the process-level crash
// test is durability.process.test.ts). The lease is short so lapsed runs show up within a second.
let t: TestApp;
let ada: AuthResponse;
let fake: FakeLlmServer;
let repository: ExecutionsRepository;
let workflowId: string;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  // No worker of its own: the tests drive attempts by hand, then start workers that claim what they left.
  t = await createTestApp({ config: { runs: { concurrency: 1, leaseMs: 600, maxAttempts: 2 } } });
  repository = createExecutionsRepository(t.db);
  ada = await t.signup();
  workflowId = await workflowOnFakeModel(t, ada.token, {
    modelUrl: fake.url,
    workflow: 'Recovery',
    agents: [{ name: 'Solo' }],
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A pending run inserted directly, with no wake-up: a worker finds it when it looks. */
async function orphanedRun(): Promise<string> {
  const [row] = await t.db
    .insert(workflowExecutions)
    .values({ organizationId: ada.organization.id, workflowId, triggeredBy: ada.user.id })
    .returning();
  return row.id;
}

/**
 * A worker with services of its own, as another process would have: stopping it drains its runner
 * for good, so no two tests share one.
 */
async function startWorker(drainMs = 0) {
  const services = createServices({ config: t.config, db: t.db, events: createEventBus() });
  const worker = startExecutionWorker({
    runner: services.runner,
    concurrency: 1,
    pollMs: 60_000, // woken by hand in the tests
    drainMs,
  });
  return { look: () => worker.wake(), stop: () => worker.stop() };
}

const read = async (id: string) =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json() as Execution;

describe('runs whose worker died', () => {
  it('a stale attempt cannot overwrite the newer one', async () => {
    {
      const id = await orphanedRun();
      // A lease long enough to be still live at the next statement on a busy machine (50 ms was not,
      // once: the second claim took the run), then waited out.
      const first = await repository.claim(id, 1_000);
      expect(first?.attempt).toBe(1);
      expect(await repository.claim(id, 1_000)).toBeUndefined(); // the lease is still live
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const second = await repository.claim(id, 60_000);
      expect(second?.attempt).toBe(2);
      expect(second?.resumed).toBe(true);

      const step = {
        kind: 'agent' as const,
        nodeId: 'n1',
        baseNodeId: 'n1',
        delivery: null,
        agentId: null,
        input: {},
        output: {
          content: 'stale',
          metadata: { agentName: 'Stale', role: 'r', model: 'm' },
          executionTime: 1,
          usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
        },
        metrics: { executionTime: 1, promptTokens: 1, completionTokens: 1, totalTokens: 2 },
        logs: [],
        startedAt: new Date(),
        completedAt: new Date(),
        runLogs: [],
      };
      expect(await repository.recordStep(id, 1, step)).toBe(false);
      expect(await repository.renewLease(id, 1, 60_000)).toBe(false);
      expect(await repository.finish(id, 1, { status: 'failed', error: 'stale worker', logs: [] })).toBe(
        false,
      );
      expect(await read(id)).toMatchObject({ status: 'running', error: null });

      expect(await repository.finish(id, 2, { status: 'completed', output: {}, logs: [] })).toBe(true);
      expect((await read(id)).status).toBe('completed');
    }
  });
});

describe('a worker that is stopped (SIGTERM)', () => {
  it('lets the running step finish and be stored, then hands the run to another worker', async () => {
    const agentIds = [];
    for (const name of ['Careful', 'Later']) agentIds.push((await createAgent(t, ada.token, { name })).id);
    const twoSteps = await createChainWorkflow(t, ada.token, 'Two steps', agentIds);
    const [row] = await t.db
      .insert(workflowExecutions)
      .values({ organizationId: ada.organization.id, workflowId: twoSteps, triggeredBy: ada.user.id })
      .returning();
    fake.reset();
    fake.script([{ content: 'first answer', delayMs: 800 }, { content: 'second answer' }]);

    const first = await startWorker(5_000);
    first.look();
    await expect.poll(() => fake.requests.length, { timeout: 10_000 }).toBe(1);
    await first.stop(); // while the first agent is still answering

    const paused = await read(row.id);
    expect(paused.status).toBe('running');
    expect(paused.output.n1).toMatchObject({ content: 'first answer' }); // shown while in progress
    expect((paused.logs as { message: string }[]).some((l) => l.message.startsWith('Paused'))).toBe(true);
    const stored = await t.db
      .select()
      .from(agentExecutions)
      .where(eq(agentExecutions.workflowExecutionId, row.id));
    expect(stored.map((s) => s.nodeId)).toEqual(['n1']);
    expect(fake.requests).toHaveLength(1); // the second step never started

    const second = await startWorker();
    try {
      second.look();
      await expect.poll(async () => (await read(row.id)).status, { timeout: 10_000 }).toBe('completed');
    } finally {
      await second.stop();
    }
    const done = await read(row.id);
    expect(done.output.n1).toMatchObject({ content: 'first answer' });
    expect(done.output.n2).toMatchObject({ content: 'second answer' });
    expect(fake.requests).toHaveLength(2);
  });
});

describe('a worker looking for runs', () => {
  let worker: Awaited<ReturnType<typeof startWorker>>;
  beforeAll(async () => {
    worker = await startWorker();
    return () => worker.stop();
  });

  it('finds a pending run nobody woke it for and runs it', async () => {
    fake.script([{ content: 'recovered answer' }]);
    const id = await orphanedRun();
    worker.look();
    await expect.poll(async () => (await read(id)).status, { timeout: 10_000 }).toBe('completed');
    expect((await read(id)).output.n1).toMatchObject({ content: 'recovered answer' });
  });

  it('does not count runs handed back by stopping workers (deploys) against the limit', async () => {
    fake.script([{ content: 'after two deploys' }]);
    const id = await orphanedRun();
    // Two attempts whose workers stopped gracefully and handed the run back; maxAttempts is 2.
    for (let i = 0; i < 2; i++) {
      const claimed = await repository.claim(id, 60_000);
      await repository.release(id, claimed!.attempt);
    }
    worker.look();
    await expect.poll(async () => (await read(id)).status, { timeout: 10_000 }).toBe('completed');
    expect((await read(id)).output.n1).toMatchObject({ content: 'after two deploys' });
  });

  it('fails a run with the reason once its workers died more often than allowed', async () => {
    const id = await orphanedRun();
    // Two attempts whose workers vanish (claimed, never renewed); maxAttempts is 2.
    for (let i = 0; i < 2; i++) {
      expect(await repository.claim(id, 1)).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const before = fake.requests.length;
    worker.look();
    await expect.poll(async () => (await read(id)).status, { timeout: 10_000 }).toBe('failed');
    const failed = await read(id);
    expect(failed.error).toBe('The run was stopped: its worker stopped 2 times before it could finish.');
    expect(failed.completedAt).not.toBeNull();
    expect(fake.requests.length).toBe(before); // nobody paid for a third try
    const [row] = await t.db.select().from(workflowExecutions).where(eq(workflowExecutions.id, id));
    expect(row.leaseExpiresAt).toBeNull();
  });
});
