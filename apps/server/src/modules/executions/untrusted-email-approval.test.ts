import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { workflowExecutions } from '@crewline/db';
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
import { startFakeMicrosoftServer, type FakeMicrosoftServer } from '../../testing/fake-microsoft-server';
import {
  MICROSOFT_CALLBACK,
  PUBLIC_URL,
  connectMailbox,
  fakeMicrosoftConfig,
} from '../../testing/microsoft-mailbox';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { modelToolName } from '../tools/runtime/tool-runtime';
import { createEmailMonitor } from '../triggers/email-monitor';

/*
 * An email from outside the organization's trusted sender domains starts an untrusted run, and in an
 * untrusted run a tool call that writes waits for a person's approval whatever the link says
 * (docs/product-rules.md, People in the loop): end to end, with the fake Microsoft mailbox polled by
 * hand, the fake model asking for the call and a real HTTP endpoint as the tool.
 */

const POLL_MS = 60_000;
const ORDERS = 'orders@contoso.example';

let microsoft: FakeMicrosoftServer;
let fake: FakeLlmServer;
let t: TestApp;
let api: http.Server;
let apiUrl: string;
/** The order API's requests, by method and path. */
let calls: string[] = [];

beforeAll(async () => {
  microsoft = await startFakeMicrosoftServer({ redirectUris: [MICROSOFT_CALLBACK] });
  fake = await startFakeLlmServer();
  api = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, refunded: req.method === 'POST' }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`;
  t = await createTestApp({
    worker: true,
    emailMonitor: false,
    config: { publicUrl: PUBLIC_URL, microsoft: fakeMicrosoftConfig(microsoft, POLL_MS) },
  });
});
afterAll(async () => {
  await t?.close();
  await microsoft?.close();
  await fake?.close();
  await new Promise((resolve) => api?.close(resolve));
});
beforeEach(() => {
  fake.reset();
  calls = [];
});

/** The worker's own monitor is off: this one reads the inbox when told, each time one interval later. */
let clock = new Date();
const monitor = () =>
  createEmailMonitor({
    repository: t.services.emailMonitor,
    microsoft: t.services.microsoft,
    triggers: t.services.triggers,
    events: t.services.events,
    pollMs: POLL_MS,
    now: () => clock,
  });
const poll = () => {
  clock = new Date(Math.max(Date.now(), clock.getTime()) + POLL_MS + 1000);
  return monitor().poll();
};

const run = async (user: AuthResponse, id: string): Promise<Execution> =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: user.token })).json();

/** The run the message `subject` started in the workflow (one poll starts it). */
async function runOf(workflowId: string, subject: string): Promise<string> {
  const runs = await t.db
    .select()
    .from(workflowExecutions)
    .where(eq(workflowExecutions.workflowId, workflowId));
  const found = runs.filter((r) => (r.input as { subject?: string }).subject === subject);
  expect(found).toHaveLength(1);
  return found[0].id;
}

/** The run's approval, once the run waits for it. */
async function waitingApproval(user: AuthResponse, executionId: string): Promise<Approval> {
  await waitForRunStatus(t, user.token, executionId, 'waiting');
  return (await approvalsOfRun(t, user.token, executionId))[0];
}

describe('an email run', () => {
  it('from an untrusted sender waits for approval of a write even when the link says never; from a trusted one it does not', async () => {
    const user = await t.signup();
    await connectMailbox(t, user);
    await configureModel(t, user.token, fake.url);
    const agent = await createAgent(t, user.token, { name: 'Refunder' });
    const tool = await attachNewTool(t, user.token, agent.id, {
      name: 'Orders API',
      category: 'api',
      config: { baseUrl: apiUrl },
    });
    const never = await t.request({
      method: 'PUT',
      url: `/api/agents/${agent.id}/tools/${tool.id}`,
      token: user.token,
      payload: { approval: 'never' },
    });
    expect(never.statusCode, never.body).toBe(200);
    const workflowId = await createChainWorkflow(t, user.token, 'Refund requests', [agent.id], {
      triggerType: 'email',
      triggerConfig: { emailAddress: ORDERS, subjectFilter: 'refund' },
    });
    const settings = await t.request({
      method: 'PUT',
      url: '/api/organization/settings',
      token: user.token,
      payload: { trustedSenderDomains: ['example.com'] },
    });
    expect(settings.statusCode, settings.body).toBe(200);

    const toolName = modelToolName(tool);
    const refundScript = (order: number) => [
      {
        content: `The customer asks for a refund; I will refund order ${order}.`,
        toolCalls: [{ name: toolName, arguments: { method: 'POST', path: `orders/${order}/refund` } }],
      },
      { content: `Refunded order ${order}.` },
    ];
    const email = (from: string, subject: string) =>
      microsoft.addMessage({
        subject,
        to: [ORDERS],
        from: { emailAddress: { name: 'Customer', address: from } },
        body: { contentType: 'text', content: 'I was charged twice, please refund me.' },
      });

    // A sender outside example.com: an untrusted run, whose write waits although the link says never.
    fake.script(refundScript(42));
    email('someone@outsider.test', 'Refund for order 42');
    expect(await poll()).toBe(1);
    const untrustedId = await runOf(workflowId, 'Refund for order 42');
    expect((await run(user, untrustedId)).untrusted).toBe(true);
    const approval = await waitingApproval(user, untrustedId);
    expect(approval).toMatchObject({
      status: 'pending',
      message: 'The customer asks for a refund; I will refund order 42.',
      toolCall: { tool: 'Orders API', arguments: { method: 'POST', path: 'orders/42/refund' } },
      canDecide: true,
    });
    expect((await run(user, untrustedId)).waiting).toMatchObject({
      kind: 'approval',
      approvalId: approval.id,
    });
    expect(calls).toEqual([]);

    const approved = await t.request({
      method: 'POST',
      url: `/api/approvals/${approval.id}/decision`,
      token: user.token,
      payload: { decision: 'approve' },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const done = await waitForRunEnd(t, user.token, untrustedId);
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.result).toBe('Refunded order 42.');
    expect(calls).toEqual(['POST /api/orders/42/refund']);

    // A sender inside example.com: a trusted run, the link's "never" holds and nothing waits.
    calls = [];
    fake.reset();
    fake.script(refundScript(43));
    email('ann@example.com', 'Refund for order 43');
    expect(await poll()).toBe(1);
    const trustedId = await runOf(workflowId, 'Refund for order 43');
    const trusted = await waitForRunEnd(t, user.token, trustedId);
    expect(trusted.untrusted).toBe(false);
    expect(trusted.status, trusted.error ?? '').toBe('completed');
    expect(trusted.result).toBe('Refunded order 43.');
    expect(calls).toEqual(['POST /api/orders/43/refund']);
    for (const status of ['pending', 'decided']) {
      const approvals = await t.request({
        method: 'GET',
        url: `/api/approvals?executionId=${trustedId}&status=${status}`,
        token: user.token,
      });
      expect(approvals.json(), status).toEqual([]);
    }

    await t.services.microsoft.disconnect(user.organization.id);
  });
});
