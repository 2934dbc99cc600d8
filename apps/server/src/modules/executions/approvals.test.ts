import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Approval, AuthResponse, CreateWorkflowInput, Execution } from '@crewline/contracts';
import {
  approvalsOfRun,
  configureModel,
  createAgent,
  joinOrganization,
  waitForRunEnd,
  waitForRunStatus,
} from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { delayedSendOf, refundApprovalOf } from '../../testing/workflow-shapes';

/*
 * People in the loop through the API, with a real worker and the fake model server: a run reaches an
 * Approval step and waits (holding no worker), the decision resumes it down the path it names, and
 * one decision takes effect, once.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let bob: AuthResponse;
let cyd: AuthResponse;
let dan: AuthResponse;
const agents: Record<string, string> = {};
/** The waits' clock: moved forward to reach a timeout. */
let offsetMs = 0;
const at = { x: 0, y: 0 };

/** The refund workflow (workflow-shapes.ts) with the approval's settings. */
function refund(approval: Record<string, unknown>, name = 'Refunds'): CreateWorkflowInput {
  return {
    name,
    status: 'active',
    ...refundApprovalOf(
      { drafter: agents.drafter, sender: agents.sender, apologizer: agents.apologizer },
      approval,
    ),
  };
}

async function workflow(payload: CreateWorkflowInput): Promise<string> {
  const created = await t.request({ method: 'POST', url: '/api/workflows', token: ada.token, payload });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id;
}

async function start(workflowId: string, input: Record<string, unknown> = { amount: 120, customer: 'Acme' }) {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token: ada.token,
    payload: { input },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().id as string;
}

const run = async (id: string, token = ada.token): Promise<Execution> =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token })).json();

const waitForStatus = (id: string, status: Execution['status']) => waitForRunStatus(t, ada.token, id, status);

/** The run's approval, pending or decided. */
async function pendingOf(executionId: string, token = ada.token): Promise<Approval> {
  const [approval] = [
    ...(await approvalsOfRun(t, token, executionId, 'pending')),
    ...(await approvalsOfRun(t, token, executionId, 'decided')),
  ];
  expect(approval).toBeDefined();
  return approval;
}

const decide = (id: string, token: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/approvals/${id}/decision`, token, payload });

const chatRequests = () => fake.requests.filter((r) => r.method === 'POST' && !r.path.includes('embeddings'));

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
  cyd = await joinOrganization(t, ada, await t.signup(), 'member');
  dan = await joinOrganization(t, ada, await t.signup(), 'member');
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

describe('an approval step', () => {
  it('waits holding no worker, shows what it waits for, and the approval resumes it down the approved path', async () => {
    const id = await start(
      await workflow(refund({ fields: [{ name: 'note', label: 'Note', type: 'text', required: true }] })),
    );
    const waiting = await waitForStatus(id, 'waiting');
    expect(waiting.waiting).toMatchObject({
      kind: 'approval',
      nodeId: 'approve',
      title: 'Refund 120 € to Acme?',
    });
    expect(chatRequests()).toHaveLength(1);

    const approval = await pendingOf(id);
    expect(approval).toMatchObject({
      status: 'pending',
      title: 'Refund 120 € to Acme?',
      canDecide: true,
      policy: 'first',
    });
    const inbox = await t.request({ method: 'GET', url: '/api/approvals?mine=true', token: cyd.token });
    expect((inbox.json() as Approval[]).map((a) => a.id)).toContain(approval.id);

    // A required field is required to approve.
    const missing = await decide(approval.id, cyd.token, { decision: 'approve' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Note is required');

    const approved = await decide(approval.id, cyd.token, {
      decision: 'approve',
      comment: 'Fine',
      fields: { note: 'Sorry for the wait' },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'approved',
      decisions: [{ userId: cyd.user.id, decision: 'approve', comment: 'Fine', via: 'inbox' }],
    });

    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.status).toBe('completed');
    expect(done.output.approve).toMatchObject({
      kind: 'approval',
      status: 'completed',
      data: { decision: 'approved', fields: { note: 'Sorry for the wait' } },
    });
    expect(done.output.send).toMatchObject({ status: 'completed' });
    expect(done.output.sorry).toMatchObject({ status: 'skipped' });
    // Draft once (reused on resume), then Send: the approval called no model.
    expect(chatRequests()).toHaveLength(2);

    const again = await decide(approval.id, bob.token, { decision: 'reject' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This approval was already decided');
  });

  it('gives two concurrent decisions under "first decision wins" exactly one outcome, and the other 409', async () => {
    const id = await start(await workflow(refund({}, 'Refunds race')));
    await waitForStatus(id, 'waiting');
    const approval = await pendingOf(id);
    const answers = await Promise.all([
      decide(approval.id, bob.token, { decision: 'approve' }),
      decide(approval.id, cyd.token, { decision: 'reject' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json() as Approval;
    const done = await waitForRunEnd(t, ada.token, id);
    const path = winner.status === 'approved' ? 'send' : 'sorry';
    expect(done.output[path]).toMatchObject({ status: 'completed' });
    expect(done.output[path === 'send' ? 'sorry' : 'send']).toMatchObject({ status: 'skipped' });
    expect((await pendingOf(id)).decisions).toHaveLength(1);
  });

  it('needs 2 of 3 named approvers for a quorum of 2, and refuses a member outside them with 403', async () => {
    const id = await start(
      await workflow(
        refund(
          { assignees: { userIds: [bob.user.id, cyd.user.id, dan.user.id] }, policy: { quorum: 2 } },
          'Quorum',
        ),
      ),
    );
    await waitForStatus(id, 'waiting');
    const approval = await pendingOf(id);
    const outsider = await decide(approval.id, ada.token, { decision: 'approve' });
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().message).toBe('You are not one of the approvers of this approval');

    expect((await decide(approval.id, bob.token, { decision: 'approve' })).json()).toMatchObject({
      status: 'pending',
    });
    expect((await run(id)).status).toBe('waiting');
    expect((await decide(approval.id, bob.token, { decision: 'approve' })).statusCode).toBe(409);
    expect((await decide(approval.id, dan.token, { decision: 'approve' })).json()).toMatchObject({
      status: 'approved',
    });
    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.output.send).toMatchObject({ status: 'completed' });
  });

  it('takes the rejected path when one of "all must approve" rejects', async () => {
    const id = await start(
      await workflow(refund({ assignees: { userIds: [bob.user.id, cyd.user.id] }, policy: 'all' }, 'All')),
    );
    await waitForStatus(id, 'waiting');
    const approval = await pendingOf(id);
    expect((await decide(approval.id, bob.token, { decision: 'approve' })).json()).toMatchObject({
      status: 'pending',
    });
    expect(
      (await decide(approval.id, cyd.token, { decision: 'reject', comment: 'Too much' })).json(),
    ).toMatchObject({
      status: 'rejected',
    });
    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.output.sorry).toMatchObject({ status: 'completed' });
    expect(done.output.send).toMatchObject({ status: 'skipped' });
  });

  it('takes the timeout path once the clock passes its timeout, and refuses decisions after it', async () => {
    const payload = refund({ timeout: { seconds: 3600, onTimeout: 'branch' } }, 'Timeout');
    payload.nodes!.push({
      id: 'chase',
      type: 'agent',
      agentId: agents.sender,
      position: at,
      data: { label: 'Chase' },
    });
    payload.edges!.push(
      { id: 'e7', source: 'approve', target: 'chase', sourceHandle: 'timeout' },
      { id: 'e8', source: 'chase', target: 'end' },
    );
    const id = await start(await workflow(payload));
    const waiting = await waitForStatus(id, 'waiting');
    expect(Date.parse(waiting.waiting!.until!) - Date.parse(waiting.waiting!.since)).toBe(3600_000);
    const approval = await pendingOf(id);

    offsetMs = 3601_000;
    const late = await decide(approval.id, bob.token, { decision: 'approve' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This approval timed out before the decision');
    await t.wakeUps!.wakeNow();

    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.output.approve).toMatchObject({ data: { decision: 'timeout' } });
    expect(done.output.chase).toMatchObject({ status: 'completed' });
    expect(done.output.send).toMatchObject({ status: 'skipped' });
    expect((await pendingOf(id)).status).toBe('timed_out');
  });

  it('hands a form answer to a later condition', async () => {
    const payload = refund(
      { fields: [{ name: 'amount', label: 'Amount', type: 'number', required: true }] },
      'Form',
    );
    payload.nodes!.push({
      id: 'big',
      type: 'condition',
      position: at,
      data: {
        label: 'Big?',
        branches: [{ id: 'big', label: 'Big', when: 'nodes.approve.data.fields.amount > 100' }],
      },
    });
    payload.edges = payload.edges!.filter((e) => e.id !== 'e3');
    payload.edges!.push(
      { id: 'e3', source: 'approve', target: 'big', sourceHandle: 'approved' },
      { id: 'e9', source: 'big', target: 'send', sourceHandle: 'big' },
      { id: 'e10', source: 'big', target: 'end', sourceHandle: 'else' },
    );
    const id = await start(await workflow(payload));
    await waitForStatus(id, 'waiting');
    const approval = await pendingOf(id);
    const bad = await decide(approval.id, bob.token, { decision: 'approve', fields: { amount: 'lots' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Amount must be a number');
    expect(
      (await decide(approval.id, bob.token, { decision: 'approve', fields: { amount: 250 } })).statusCode,
    ).toBe(200);
    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.output.big).toMatchObject({ data: { branch: 'big' } });
    expect(done.output.send).toMatchObject({ status: 'completed' });
  });

  it('is cancelled with its run', async () => {
    const id = await start(await workflow(refund({}, 'Cancel')));
    await waitForStatus(id, 'waiting');
    const approval = await pendingOf(id);
    const cancelled = await t.request({
      method: 'POST',
      url: `/api/executions/${id}/cancel`,
      token: ada.token,
    });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', waiting: null });
    expect((await decide(approval.id, bob.token, { decision: 'approve' })).statusCode).toBe(409);
    expect((await pendingOf(id)).status).toBe('cancelled');
  });
});

describe('a delay step', () => {
  it('waits until its end, durably, and then goes on', async () => {
    const id = await start(
      await workflow({ name: 'Later', status: 'active', ...delayedSendOf(agents.sender) }),
    );
    const waiting = await waitForStatus(id, 'waiting');
    expect(waiting.waiting).toMatchObject({ kind: 'delay', title: 'Wait a day' });
    await t.wakeUps!.wakeNow();
    expect((await run(id)).status).toBe('waiting');
    expect(chatRequests()).toHaveLength(0);

    offsetMs = 86_401_000;
    await t.wakeUps!.wakeNow();
    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.status).toBe('completed');
    expect(done.output.wait).toMatchObject({ kind: 'delay', data: { until: waiting.waiting!.until } });
    expect(chatRequests()).toHaveLength(1);
  });
});
