import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Analytics, AuthResponse, CreateWorkflowInput, Execution } from '@crewline/contracts';
import {
  approvalsOfRun,
  configureModel,
  createAgent,
  startNewWorkflow,
  waitForRunEnd,
  waitForRunStatus,
} from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { delayedSendOf, refundApprovalOf } from '../../testing/workflow-shapes';

/*
 * Waiting time apart from working time (docs/product-rules.md, People in the loop), through the API
 * with a real worker and the fake model server: a run that waited tells how long in its details, and
 * the organization's analytics count that time as waiting, not as the run's execution time. Each test
 * has an organization of its own, so its analytics hold its one run.
 */

let t: TestApp;
let fake: FakeLlmServer;
/** The waits' clock: moved forward to reach a delay's end. */
let offsetMs = 0;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({
    worker: true,
    emailMonitor: false,
    clock: () => new Date(Date.now() + offsetMs),
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  offsetMs = 0;
});

/** A new organization with a model on the fake server, and a run of `shape` started in it. */
async function startIn(shape: (agents: Record<string, string>) => Omit<CreateWorkflowInput, 'name'>) {
  const owner = await t.signup();
  await configureModel(t, owner.token, fake.url);
  const agents: Record<string, string> = {};
  for (const name of ['Drafter', 'Sender', 'Apologizer'])
    agents[name.toLowerCase()] = (await createAgent(t, owner.token, { name })).id;
  const { id } = await startNewWorkflow(
    t,
    owner.token,
    { name: 'Waits', status: 'active', ...shape(agents) },
    { amount: 120, customer: 'Acme' },
  );
  return { owner, id };
}

async function analyticsOf(owner: AuthResponse): Promise<Analytics> {
  const res = await t.request({
    method: 'GET',
    url: `/api/organizations/${owner.organization.id}/analytics?days=24`,
    token: owner.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const seconds = (ms: number) => ms / 1000;
const took = (run: Execution) => Date.parse(run.completedAt!) - Date.parse(run.startedAt!);

describe('a run that waited', () => {
  it('tells how long it waited for the approval, and analytics count that time as waiting, not working', async () => {
    const { owner, id } = await startIn((a) =>
      refundApprovalOf({ drafter: a.drafter, sender: a.sender, apologizer: a.apologizer }),
    );
    const waiting = await waitForRunStatus(t, owner.token, id, 'waiting');
    // Waiting, it has not gone on from a wait yet.
    expect(waiting.waitedMs).toBe(0);
    const [approval] = await approvalsOfRun(t, owner.token, id);

    // The approver takes a second and a half (real time: the database's clock times the run).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const decided = await t.request({
      method: 'POST',
      url: `/api/approvals/${approval.id}/decision`,
      token: owner.token,
      payload: { decision: 'approve' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const decidedBy = Date.now();

    const done = await waitForRunEnd(t, owner.token, id);
    expect(done.status).toBe('completed');
    expect(done.waitedMs).toBeGreaterThanOrEqual(1500);
    expect(done.waitedMs).toBeLessThanOrEqual(decidedBy - Date.parse(waiting.waiting!.since) + 1);
    expect(done.waitedMs).toBeLessThan(took(done));

    const { current, performance } = await analyticsOf(owner);
    expect(current.executions).toBe(1);
    // One decimal each: the wait, and the rest of the run's time as its execution time.
    expect(Math.abs(current.avgWaitTime - seconds(done.waitedMs))).toBeLessThanOrEqual(0.06);
    expect(Math.abs(current.avgExecutionTime - seconds(took(done) - done.waitedMs))).toBeLessThanOrEqual(
      0.06,
    );
    expect(current.avgExecutionTime).toBeLessThan(seconds(took(done)) - 1.4);
    expect(performance.p50ExecutionTime).toBe(current.avgExecutionTime);
    expect(performance.p95ExecutionTime).toBe(current.avgExecutionTime);
  });

  it('tells how long a delay kept it, from the waits’ clock', async () => {
    const { owner, id } = await startIn((a) => delayedSendOf(a.sender));
    const waiting = await waitForRunStatus(t, owner.token, id, 'waiting');
    const waitStarted = Date.parse(waiting.waiting!.since);

    offsetMs = 86_401_000;
    await t.wakeUps!.wakeNow();
    const wokenBy = Date.now() + offsetMs;
    const done = await waitForRunEnd(t, owner.token, id);
    expect(done.status).toBe('completed');
    expect(done.waitedMs).toBeGreaterThanOrEqual(86_401_000);
    expect(done.waitedMs).toBeLessThanOrEqual(wokenBy - waitStarted + 1);

    // The test moved the waits' clock, not the database's: by its start and end the run took a few
    // seconds, all of which count as waiting and none as working (never a negative working time).
    const { current } = await analyticsOf(owner);
    expect(Math.abs(current.avgWaitTime - seconds(took(done)))).toBeLessThanOrEqual(0.06);
    expect(current.avgExecutionTime).toBe(0);
  });
});
