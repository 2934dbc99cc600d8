import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { modelCallsFor, processApi, signUpWithChain } from '../../testing/process-api';
import { startProcessCluster, type ProcessCluster } from '../../testing/process-cluster';
import { stopServerProcess } from '../../testing/server-process';

// docs/architecture.md, Runs with real processes: the API process is SIGKILLed while clients keep starting runs,
// a separate worker process carries on, and the API is started again. Every run the API answered
// 202 for is worked exactly once; a request cut off by the crash left either nothing or a run that
// is also worked exactly once (its row is its queue entry: it commits, or there is no run).
let cluster: ProcessCluster;
let base = '';
const call = processApi(() => base);

beforeAll(async () => {
  cluster = await startProcessCluster('api-kill', (fake) => ({
    // The fake model server, and no other port of this machine.
    EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
    RUN_LEASE_SECONDS: '2',
  }));
}, 60_000);

afterAll(() => cluster?.close());

/** Zero-padded, so no marker is a part of another ("mark-0001" is not in "mark-0010"). */
const marker = (n: number) => `mark-${String(n).padStart(4, '0')}`;

describe('the API process killed while runs are being started', () => {
  it('works every run it answered 202 for exactly once', { timeout: 90_000 }, async () => {
    let api = cluster.start('api');
    const worker = cluster.start('worker');
    onTestFailed(() => console.log(`--- api ---\n${api.output()}\n--- worker ---\n${worker.output()}`));
    base = await api.url;
    await worker.ready;
    const { token, organizationId, workflowId } = await signUpWithChain(call, cluster.fake, [
      'Intake',
      'Review',
    ]);
    const execute = (mark: string) =>
      call('POST', `/api/workflows/${workflowId}/execute`, { input: { task: mark } }, token);
    // Each model call takes a moment, so runs are still going while the API dies and comes back,
    // and the worker's lease renewals and looks for runs happen during them.
    cluster.fake.script(Array.from({ length: 400 }, () => ({ content: 'noted', delayMs: 250 })));

    // Four clients start runs back to back; the API is killed once ten were accepted.
    const answered = new Map<string, string>(); // marker → execution id
    const cutOff = new Set<string>(); // markers whose request got no answer
    const otherAnswers: number[] = [];
    let sent = 0;
    let killed = false;
    const client = async () => {
      while (!killed && sent < 200) {
        const mark = marker(++sent);
        const res = await execute(mark).catch(() => undefined);
        if (!res) cutOff.add(mark);
        else if (res.status === 202) answered.set(mark, res.body.id as string);
        else otherAnswers.push(res.status);
      }
    };
    const clients = Array.from({ length: 4 }, client);
    await expect.poll(() => answered.size, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(10);
    await stopServerProcess(api, 'SIGKILL');
    killed = true;
    await Promise.all(clients);
    expect(otherAnswers).toEqual([]);
    expect(cutOff.size).toBeGreaterThan(0); // the crash did cut requests off

    // Started again, the API takes new runs as before.
    api = cluster.start('api');
    base = await api.url;
    for (let i = 0; i < 3; i++) {
      const mark = marker(++sent);
      const res = await execute(mark);
      expect(res.status).toBe(202);
      answered.set(mark, res.body.id as string);
    }

    // Every run of the organization ends completed: the answered ones and whatever the cut-off requests left.
    const runs = async () =>
      (
        await cluster.database.pool.query<{ id: string; status: string; mark: string }>(
          `select id, status, input->>'task' as mark from workflow_executions where organization_id = $1`,
          [organizationId],
        )
      ).rows;
    await expect
      .poll(async () => (await runs()).filter((r) => r.status !== 'completed').map((r) => r.status), {
        timeout: 45_000,
        interval: 250,
      })
      .toEqual([]);
    const all = await runs();
    for (const [mark, id] of answered) expect(all.find((r) => r.mark === mark)?.id, mark).toBe(id);
    const unexplained = all.filter((r) => !answered.has(r.mark) && !cutOff.has(r.mark));
    expect(unexplained).toEqual([]);

    // Exactly once: one stored step per node, and one model call per step, for every run.
    const steps = await cluster.database.pool.query<{ id: string; nodes: string[] }>(
      `select workflow_execution_id as id, array_agg(node_id order by node_id) as nodes
       from agent_executions where workflow_execution_id = any($1::uuid[]) group by workflow_execution_id`,
      [all.map((r) => r.id)],
    );
    expect(steps.rows).toHaveLength(all.length);
    for (const row of steps.rows) expect(row.nodes, row.id).toEqual(['n1', 'n2']);
    for (const { mark } of all) {
      expect(modelCallsFor(cluster.fake, 'Intake', mark), mark).toBe(1);
      expect(modelCallsFor(cluster.fake, 'Review', mark), mark).toBe(1);
    }

    expect(await stopServerProcess(worker)).toBe(0);
  });
});
