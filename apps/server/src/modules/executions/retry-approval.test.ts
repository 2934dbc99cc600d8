import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  executionMessages,
  type AuthResponse,
  type CreateWorkflowInput,
  type Execution,
} from '@crewline/contracts';
import {
  approvalsOfRun,
  configureModel,
  createAgent,
  joinOrganization,
  startNewWorkflow,
  waitForRunEnd,
  waitForRunStatus,
} from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { refundApprovalOf } from '../../testing/workflow-shapes';

/*
 * POST /api/executions/:id/retry from an Approval step that said no (rejected, or timed out): the
 * run went down its rejected path and completed; its retry reuses the steps before the approval, asks
 * again (a new approval, the run waits) and goes down the path the new decision names.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let bob: AuthResponse;
const agents: Record<string, string> = {};
/** The waits' clock: moved forward to reach a timeout. */
let offsetMs = 0;

function refund(approval: Record<string, unknown>, name: string): CreateWorkflowInput {
  return {
    name,
    status: 'active',
    ...refundApprovalOf(
      { drafter: agents.drafter, sender: agents.sender, apologizer: agents.apologizer },
      approval,
    ),
  };
}

async function startRefund(approval: Record<string, unknown>, name: string): Promise<string> {
  return (await startNewWorkflow(t, ada.token, refund(approval, name), { amount: 120, customer: 'Acme' })).id;
}

const run = async (id: string): Promise<Execution> =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json();

const waitForStatus = (id: string, status: Execution['status']) => waitForRunStatus(t, ada.token, id, status);

/** The run's approvals with that status. */
const approvalsOf = (executionId: string, status: 'pending' | 'decided') =>
  approvalsOfRun(t, ada.token, executionId, status);

async function decide(executionId: string, decision: 'approve' | 'reject') {
  const [approval] = await approvalsOf(executionId, 'pending');
  expect(approval).toBeDefined();
  const res = await t.request({
    method: 'POST',
    url: `/api/approvals/${approval.id}/decision`,
    token: bob.token,
    payload: { decision },
  });
  expect(res.statusCode, res.body).toBe(200);
  return approval;
}

const retry = (id: string, payload: Record<string, unknown> = {}) =>
  t.request({ method: 'POST', url: `/api/executions/${id}/retry`, token: ada.token, payload });

const chatRequests = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions'));

/** A refund run whose approval was rejected: completed down the rejected path (Sorry). */
async function rejectedRun(name: string): Promise<Execution> {
  const id = await startRefund({}, name);
  await waitForStatus(id, 'waiting');
  await decide(id, 'reject');
  const done = await waitForRunEnd(t, ada.token, id);
  expect(done.status).toBe('completed');
  expect(done.output.approve).toMatchObject({ data: { decision: 'rejected' } });
  expect(done.output.sorry).toMatchObject({ status: 'completed' });
  expect(done.output.send).toMatchObject({ status: 'skipped' });
  return done;
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({
    worker: true,
    emailMonitor: false,
    clock: () => new Date(Date.now() + offsetMs),
  });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  bob = await joinOrganization(t, ada, await t.signup(), 'admin');
  for (const [key, name] of [
    ['drafter', 'Drafter'],
    ['sender', 'Sender'],
    ['apologizer', 'Apologizer'],
  ])
    agents[key] = (await createAgent(t, ada.token, { name })).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  offsetMs = 0;
});

describe('retrying a run from its approval', () => {
  it('asks again after a rejection: the new run reuses the draft, waits on a new approval, and goes down the approved path', async () => {
    const rejected = await rejectedRun('Refunds');
    const [first] = await approvalsOf(rejected.id, 'decided');
    expect(first.status).toBe('rejected');
    fake.reset();

    const retried = await retry(rejected.id, { fromNodeId: 'approve' });
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json()).toMatchObject({ retryOf: rejected.id, input: { amount: 120, customer: 'Acme' } });
    const id = retried.json().id as string;

    const waiting = await waitForStatus(id, 'waiting');
    expect(waiting.waiting).toMatchObject({
      kind: 'approval',
      nodeId: 'approve',
      title: 'Refund 120 € to Acme?',
    });
    const [again] = await approvalsOf(id, 'pending');
    expect(again).toMatchObject({ status: 'pending', title: 'Refund 120 € to Acme?', decisions: [] });
    expect(again.id).not.toBe(first.id);
    // The draft is reused: the model was not asked for it again.
    expect(waiting.output.draft).toMatchObject({ metadata: { reused: true, reusedFrom: rejected.id } });
    expect(chatRequests()).toHaveLength(0);
    // The retried run now links to its retry and is left as it was.
    expect(await run(rejected.id)).toMatchObject({ status: 'completed', retriedBy: id });

    await decide(id, 'approve');
    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.status).toBe('completed');
    expect(done.output.approve).toMatchObject({ data: { decision: 'approved' } });
    expect(done.output.send).toMatchObject({ status: 'completed' });
    expect(done.output.sorry).toMatchObject({ status: 'skipped' });
    // Only Send asked the model.
    expect(chatRequests()).toHaveLength(1);

    // A run is retried once.
    const twice = await retry(rejected.id, { fromNodeId: 'approve' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(executionMessages.alreadyRetried(id));
  });

  it('asks again after a timeout taken as its own path', async () => {
    const payload = { timeout: { seconds: 3600, onTimeout: 'branch' } };
    const created = await t.request({
      method: 'POST',
      url: '/api/workflows',
      token: ada.token,
      payload: (() => {
        const workflow = refund(payload, 'Timeout');
        workflow.edges!.push({ id: 'e7', source: 'approve', target: 'end', sourceHandle: 'timeout' });
        return workflow;
      })(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const started = await t.request({
      method: 'POST',
      url: `/api/workflows/${created.json().id}/execute`,
      token: ada.token,
      payload: { input: { amount: 80, customer: 'Bolt' } },
    });
    const id = started.json().id as string;
    await waitForStatus(id, 'waiting');
    offsetMs = 3601_000;
    await t.wakeUps!.wakeNow();
    const timedOut = await waitForRunEnd(t, ada.token, id);
    expect(timedOut.status).toBe('completed');
    expect(timedOut.output.approve).toMatchObject({ data: { decision: 'timeout' } });

    const retried = await retry(id, { fromNodeId: 'approve' });
    expect(retried.statusCode, retried.body).toBe(202);
    const waiting = await waitForStatus(retried.json().id, 'waiting');
    expect(waiting.waiting).toMatchObject({ kind: 'approval', title: 'Refund 80 € to Bolt?' });
    expect(await approvalsOf(waiting.id, 'pending')).toHaveLength(1);
  });

  it('refuses (409) a completed run from an approved approval, from another step, or without a step', async () => {
    const id = await startRefund({}, 'Approved');
    await waitForStatus(id, 'waiting');
    await decide(id, 'approve');
    const approved = await waitForRunEnd(t, ada.token, id);
    expect(approved.status).toBe('completed');
    const refused = await retry(id, { fromNodeId: 'approve' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(executionMessages.notRetryable('completed'));

    const rejected = await rejectedRun('Rejected');
    for (const payload of [{}, { fromNodeId: 'draft' }, { fromNodeId: 'sorry' }, { fromNodeId: 'nope' }]) {
      const other = await retry(rejected.id, payload);
      expect(other.statusCode, JSON.stringify(payload)).toBe(409);
      expect(other.json().message).toBe(executionMessages.notRetryable('completed'));
    }
    expect((await run(rejected.id)).retriedBy).toBeNull();
  });
});
