import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Approval, Execution } from '@crewline/contracts';
import { modelCallsFor, processApi, signUpWithChain } from '../../testing/process-api';
import { startProcessCluster, type ProcessCluster } from '../../testing/process-cluster';
import { stopServerProcess, type ServerProcess } from '../../testing/server-process';
import { refundApprovalOf } from '../../testing/workflow-shapes';

// docs/product-rules.md, People in the loop, with real processes: a run reaches an Approval step and
// waits, stored `waiting` with no lease, so it holds no worker. Every process is then SIGKILLed (the
// worker and the API) and new ones started; the approval is decided through the new API process, and
// the new worker resumes the run down the approved path. The fake model's request log proves the
// step before the approval was not paid for twice.
let cluster: ProcessCluster;
let base = '';
const call = processApi(() => base);

beforeAll(async () => {
  cluster = await startProcessCluster('approval-durability', (fake) => ({
    EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
    // A short lease: a run that still held one would be handed over to the new worker within seconds.
    RUN_LEASE_SECONDS: '2',
  }));
}, 60_000);

afterAll(() => cluster?.close());

/** The refund workflow of the approvals suites (workflow-shapes.ts). */
const refund = (agents: Record<string, string>) => ({
  name: 'Refunds',
  status: 'active',
  ...refundApprovalOf({ drafter: agents.Drafter, sender: agents.Sender, apologizer: agents.Apologizer }),
});

describe('a run waiting for an approval while every process is killed', () => {
  it(
    'is decided through a new API process and completes on a new worker without calling the step before it again',
    { timeout: 120_000 },
    async () => {
      let api: ServerProcess = cluster.start('api');
      let worker: ServerProcess = cluster.start('worker');
      onTestFailed(() => console.log(`--- api ---\n${api.output()}\n--- worker ---\n${worker.output()}`));
      base = await api.url;
      await worker.ready;
      const names = ['Drafter', 'Sender', 'Apologizer'];
      const { token } = await signUpWithChain(call, cluster.fake, names);
      const listed = (await call('GET', '/api/agents', undefined, token)).body as {
        id: string;
        name: string;
      }[];
      const agents = Object.fromEntries(listed.map((a) => [a.name, a.id]));
      const workflow = await call('POST', '/api/workflows', refund(agents), token);
      expect(workflow.status, JSON.stringify(workflow.body)).toBe(201);

      cluster.fake.script([{ content: 'DRAFT-DONE' }]);
      const queued = await call(
        'POST',
        `/api/workflows/${workflow.body.id}/execute`,
        { input: { amount: 120, customer: 'Acme' } },
        token,
      );
      expect(queued.status).toBe(202);
      const id = queued.body.id as string;
      const read = async () =>
        (await call('GET', `/api/executions/${id}`, undefined, token)).body as Execution;
      await expect
        .poll(async () => (await read()).status, { timeout: 20_000, interval: 200 })
        .toBe('waiting');
      const waiting = await read();
      expect(waiting.waiting).toMatchObject({
        kind: 'approval',
        nodeId: 'approve',
        title: 'Refund 120 € to Acme?',
      });
      expect(modelCallsFor(cluster.fake, 'Drafter')).toBe(1);
      // Waiting holds no worker: no lease on the row, and the wait stored in its versioned format.
      const row = await cluster.database.pool.query(
        'select lease_expires_at, waiting, attempt from workflow_executions where id = $1',
        [id],
      );
      expect(row.rows[0]).toMatchObject({
        lease_expires_at: null,
        waiting: { v: 1, kind: 'approval', stepId: 'approve' },
      });
      const attemptWhileWaiting = row.rows[0].attempt as number;

      await stopServerProcess(worker, 'SIGKILL');
      await stopServerProcess(api, 'SIGKILL');
      cluster.fake.script([{ content: 'SENT' }]);
      api = cluster.start('api');
      worker = cluster.start('worker');
      base = await api.url;
      await worker.ready;

      // Longer than a lease: a new worker that found a lapsed lease would have taken the run by now.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const still = await read();
      expect(still.status).toBe('waiting');
      expect(
        (await cluster.database.pool.query('select attempt from workflow_executions where id = $1', [id]))
          .rows[0].attempt,
      ).toBe(attemptWhileWaiting);
      expect(modelCallsFor(cluster.fake, 'Drafter')).toBe(1);

      const pending = await call('GET', `/api/approvals?executionId=${id}&status=pending`, undefined, token);
      expect(pending.status, JSON.stringify(pending.body)).toBe(200);
      const [approval] = pending.body as Approval[];
      expect(approval).toMatchObject({ status: 'pending', title: 'Refund 120 € to Acme?', canDecide: true });
      const decided = await call(
        'POST',
        `/api/approvals/${approval.id}/decision`,
        { decision: 'approve', comment: 'After the restart' },
        token,
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(decided.body).toMatchObject({ status: 'approved' });

      let done: Execution | undefined;
      await expect
        .poll(
          async () => {
            done = await read();
            return done.status;
          },
          { timeout: 30_000, interval: 200 },
        )
        .toBe('completed');
      expect(done!.waiting).toBeNull();
      expect(done!.output.draft).toMatchObject({ status: 'completed', content: 'DRAFT-DONE' });
      expect(done!.output.approve).toMatchObject({
        kind: 'approval',
        status: 'completed',
        data: { decision: 'approved' },
      });
      expect(done!.output.send).toMatchObject({ status: 'completed', content: 'SENT' });
      expect(done!.output.sorry).toMatchObject({ status: 'skipped' });
      expect(done!.result).toBe('SENT');
      // The draft once (before the kill), the sender once (after the decision), the apologizer never.
      expect(modelCallsFor(cluster.fake, 'Drafter')).toBe(1);
      expect(modelCallsFor(cluster.fake, 'Sender')).toBe(1);
      expect(modelCallsFor(cluster.fake, 'Apologizer')).toBe(0);
    },
  );
});
