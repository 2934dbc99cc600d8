import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Approval, AuthResponse, Execution } from '@crewline/contracts';
import {
  attachNewTool,
  configureModel,
  createAgent,
  createChainWorkflow,
  waitForRunEnd,
  waitForRunStatus,
  approvalsOfRun,
} from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { modelToolName } from '../tools/runtime/tool-runtime';

/*
 * Tool-call approvals (docs/product-rules.md, People in the loop), with the real AI SDK against the
 * fake model and a real HTTP endpoint as the tool: a call the link's policy says writes stops the
 * run, holding no worker; approved, it runs exactly once and the model goes on with its result;
 * refused, the model is told why and the run goes on; in an untrusted run a write waits whatever the
 * link says.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let api: http.Server;
let apiUrl: string;
/** The order API's requests, by method and path. */
let calls: string[] = [];

beforeAll(async () => {
  fake = await startFakeLlmServer();
  api = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, refunded: req.method === 'POST' }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`;
  t = await createTestApp({ worker: true, emailMonitor: false, config: { webhookMaxPerMinute: 1000 } });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => api?.close(resolve));
});
beforeEach(() => {
  fake.reset();
  calls = [];
});

let n = 0;
/** An agent with the Orders API (linked with `approval`), alone in a workflow. */
async function refundWorkflow(approval?: 'never' | 'always' | 'writes', options: { webhook?: boolean } = {}) {
  const agent = await createAgent(t, ada.token, { name: `Refunder ${++n}` });
  const tool = await attachNewTool(t, ada.token, agent.id, {
    name: 'Orders API',
    category: 'api',
    config: { baseUrl: apiUrl },
  });
  if (approval) {
    const set = await t.request({
      method: 'PUT',
      url: `/api/agents/${agent.id}/tools/${tool.id}`,
      token: ada.token,
      payload: { approval },
    });
    expect(set.statusCode, set.body).toBe(200);
  }
  const id = await createChainWorkflow(
    t,
    ada.token,
    `Refunds ${n}`,
    [agent.id],
    options.webhook ? { triggerType: 'webhook' } : {},
  );
  return { id, toolName: modelToolName(tool) };
}

async function execute(workflowId: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token: ada.token,
    payload: { input: { order: 42 } },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().id;
}

const run = async (id: string): Promise<Execution> =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json();

/** The run's approval, once the run waits for it. */
async function waitingApproval(executionId: string): Promise<Approval> {
  await waitForRunStatus(t, ada.token, executionId, 'waiting');
  return (await approvalsOfRun(t, ada.token, executionId))[0];
}

const decide = (id: string, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: `/api/approvals/${id}/decision`, token: ada.token, payload });

/** The tool messages the model was sent in its n-th request, as text. */
const toolMessages = (index: number) =>
  JSON.stringify(
    (fake.requests.filter((r) => r.path.endsWith('/chat/completions'))[index]?.body.messages ?? []).filter(
      (m: { role: string }) => m.role === 'tool',
    ),
  );

describe('a tool call that needs approval', () => {
  it('under "writes" (a new link’s default) waits, and on approval runs exactly once; the model goes on with its result', async () => {
    const { id, toolName } = await refundWorkflow();
    fake.script([
      {
        content: 'The customer was charged twice; I will refund order 42.',
        toolCalls: [{ name: toolName, arguments: { method: 'POST', path: 'orders/42/refund' } }],
      },
      { content: 'Refunded order 42.' },
    ]);
    const executionId = await execute(id);
    const approval = await waitingApproval(executionId);
    expect(approval).toMatchObject({
      status: 'pending',
      title: expect.stringContaining('wants to run Orders API'),
      message: 'The customer was charged twice; I will refund order 42.',
      toolCall: { tool: 'Orders API', arguments: { method: 'POST', path: 'orders/42/refund' } },
      canDecide: true,
    });
    expect((await run(executionId)).waiting).toMatchObject({ kind: 'approval', approvalId: approval.id });
    expect(calls).toEqual([]);

    const approved = await decide(approval.id, { decision: 'approve', comment: 'Go ahead' });
    expect(approved.statusCode, approved.body).toBe(200);
    const done = await waitForRunEnd(t, ada.token, executionId);
    expect(done.status, done.error ?? '').toBe('completed');
    expect(calls).toEqual(['POST /api/orders/42/refund']);
    expect(done.result).toBe('Refunded order 42.');
    // The model was asked twice in all: before the approval, and after with the call's result.
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(2);
    expect(toolMessages(1)).toContain('refunded');
  });

  it('is refused to the model with the comment when rejected, and the run goes on without the call', async () => {
    const { id, toolName } = await refundWorkflow();
    fake.script([
      { toolCalls: [{ name: toolName, arguments: { method: 'DELETE', path: 'orders/42' } }] },
      { content: 'I could not delete the order: it was refused.' },
    ]);
    const executionId = await execute(id);
    const approval = await waitingApproval(executionId);
    expect(
      (await decide(approval.id, { decision: 'reject', comment: 'Never delete orders' })).statusCode,
    ).toBe(200);
    const done = await waitForRunEnd(t, ada.token, executionId);
    expect(done.status).toBe('completed');
    expect(calls).toEqual([]);
    expect(toolMessages(1)).toContain('Never delete orders');
    expect(done.result).toBe('I could not delete the order: it was refused.');
  });

  it('does not wait for a read under "writes", and waits for a read under "always"', async () => {
    const reads = await refundWorkflow('writes');
    fake.script([
      { toolCalls: [{ name: reads.toolName, arguments: { method: 'GET', path: 'orders/42' } }] },
      { content: 'Order 42 is fine.' },
    ]);
    const done = await waitForRunEnd(t, ada.token, await execute(reads.id));
    expect(done.status).toBe('completed');
    expect(calls).toEqual(['GET /api/orders/42']);

    calls = [];
    fake.reset();
    const always = await refundWorkflow('always');
    fake.script([
      { toolCalls: [{ name: always.toolName, arguments: { method: 'GET', path: 'orders/43' } }] },
      { content: 'Order 43 is fine.' },
    ]);
    const executionId = await execute(always.id);
    const approval = await waitingApproval(executionId);
    expect(calls).toEqual([]);
    await decide(approval.id, { decision: 'approve' });
    expect((await waitForRunEnd(t, ada.token, executionId)).status).toBe('completed');
    expect(calls).toEqual(['GET /api/orders/43']);
  });

  it('waits for a write in an untrusted run even when the link says never', async () => {
    const { id, toolName } = await refundWorkflow('never', { webhook: true });
    const secret = (
      await t.request({ method: 'GET', url: `/api/workflows/${id}/webhook-secret`, token: ada.token })
    ).json().secret as string;
    fake.script([
      { toolCalls: [{ name: toolName, arguments: { method: 'POST', path: 'orders/44/refund' } }] },
      { content: 'Refunded.' },
    ]);
    // Proved by its secret alone, not signed: the run is untrusted.
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${id}`,
      headers: { 'content-type': 'application/json', 'x-webhook-secret': secret },
      payload: '{"order":44}',
    });
    expect(started.statusCode, started.body).toBe(202);
    const executionId = started.json().executionId as string;
    expect((await run(executionId)).untrusted).toBe(true);
    const approval = await waitingApproval(executionId);
    expect(calls).toEqual([]);
    await decide(approval.id, { decision: 'approve' });
    expect((await waitForRunEnd(t, ada.token, executionId)).status).toBe('completed');
    expect(calls).toEqual(['POST /api/orders/44/refund']);

    // The same workflow started by a person: the link's "never" holds, nothing waits.
    calls = [];
    fake.reset();
    fake.script([
      { toolCalls: [{ name: toolName, arguments: { method: 'POST', path: 'orders/45/refund' } }] },
      { content: 'Refunded.' },
    ]);
    const trusted = await waitForRunEnd(t, ada.token, await execute(id));
    expect(trusted.status).toBe('completed');
    expect(calls).toEqual(['POST /api/orders/45/refund']);
  });
});
