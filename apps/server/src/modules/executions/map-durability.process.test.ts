import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Execution } from '@crewline/contracts';
import { modelCallsFor, processApi, signUpWithChain } from '../../testing/process-api';
import { startProcessCluster, type ProcessCluster } from '../../testing/process-cluster';
import { stopServerProcess } from '../../testing/server-process';
import { mapOf } from '../../testing/workflow-shapes';

// docs/architecture.md, Runs with real processes: a map over 50 leads, 5 at a time, whose worker is
// SIGKILLed halfway. Each finished item is its own stored step, so the worker that resumes the run
// asks the model only for the items that had not finished: the fake model's request log proves no
// finished item was paid for twice.
let cluster: ProcessCluster;
let base = '';
const call = processApi(() => base);

beforeAll(async () => {
  cluster = await startProcessCluster('map-durability', (fake) => ({
    EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
    RUN_LEASE_SECONDS: '2',
  }));
}, 60_000);

afterAll(() => cluster?.close());

/** Zero-padded, so no lead's name is a part of another's. */
const lead = (n: number) => `lead-${String(n).padStart(3, '0')}`;
const leads = Array.from({ length: 50 }, (_, i) => lead(i));

describe('a worker killed in the middle of a map', () => {
  it('resumes without calling any finished item again', { timeout: 120_000 }, async () => {
    const api = cluster.start('api');
    let worker = cluster.start('worker');
    onTestFailed(() => console.log(`--- api ---\n${api.output()}\n--- worker ---\n${worker.output()}`));
    base = await api.url;
    await worker.ready;
    const { token } = await signUpWithChain(call, cluster.fake, ['Enricher']);
    const agents = await call('GET', '/api/agents', undefined, token);
    const enricher = (agents.body as { id: string; name: string }[]).find((a) => a.name === 'Enricher')!;
    const workflow = await call(
      'POST',
      '/api/workflows',
      {
        name: 'Lead enrichment',
        status: 'active',
        ...mapOf(
          { agentId: enricher.id, prompt: 'Enrich {{ item }}' },
          { concurrency: 5, onItemError: 'fail' },
        ),
      },
      token,
    );
    expect(workflow.status, JSON.stringify(workflow.body)).toBe(201);

    // Twenty-five items answer at once; the five after them are still thinking when the worker dies.
    cluster.fake.script([
      ...Array.from({ length: 25 }, () => ({ content: 'enriched' })),
      ...Array.from({ length: 5 }, () => ({ content: 'never delivered', delayMs: 60_000 })),
    ]);
    const queued = await call(
      'POST',
      `/api/workflows/${workflow.body.id}/execute`,
      { input: { leads } },
      token,
    );
    expect(queued.status).toBe(202);
    const id = queued.body.id as string;
    const finishedItems = async () =>
      (
        await cluster.database.pool.query(
          `select node_id from agent_executions where workflow_execution_id = $1 and status = 'completed'`,
          [id],
        )
      ).rows.map((r) => r.node_id as string);
    await expect.poll(() => modelCallsFor(cluster.fake, 'Enricher'), { timeout: 20_000 }).toBe(30);
    await expect.poll(async () => (await finishedItems()).length, { timeout: 20_000 }).toBe(25);
    const beforeKill = await finishedItems();
    expect(beforeKill.every((nodeId) => /^enrich\[\d+\]$/.test(nodeId))).toBe(true);

    await stopServerProcess(worker, 'SIGKILL');
    cluster.fake.script(Array.from({ length: 25 }, () => ({ content: 'enriched again' })));
    worker = cluster.start('worker');

    let done: Execution | undefined;
    await expect
      .poll(
        async () => {
          done = (await call('GET', `/api/executions/${id}`, undefined, token)).body as Execution;
          return done.status;
        },
        { timeout: 40_000, interval: 200 },
      )
      .toBe('completed');

    // 30 before the kill (25 answered, 5 cut off) and the 25 unfinished ones after it: 55 in all.
    expect(modelCallsFor(cluster.fake, 'Enricher')).toBe(55);
    const finishedBefore = new Set(beforeKill.map((nodeId) => Number(/\[(\d+)\]/.exec(nodeId)![1])));
    // A finished item was asked once; one cut off by the kill twice; one not started yet once.
    for (let i = 0; i < 50; i++)
      expect(modelCallsFor(cluster.fake, 'Enricher', `Enrich ${lead(i)}`), lead(i)).toBe(
        finishedBefore.has(i) ? 1 : i < 30 ? 2 : 1,
      );
    const results = done!.output.enrich.data as { index: number; status: string; content: string }[];
    expect(results.map((r) => r.index)).toEqual([...Array(50).keys()]);
    expect(results.every((r) => r.status === 'completed')).toBe(true);
    expect(results.filter((r) => r.content === 'enriched')).toHaveLength(25);
    expect(results.filter((r) => r.content === 'enriched again')).toHaveLength(25);
    expect(done!.metrics.attempts).toBe(2);
  });
});
