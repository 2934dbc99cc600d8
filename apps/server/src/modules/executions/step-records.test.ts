import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STEP_TOOL_RESULT_LIMIT, type AuthResponse, type Execution } from '@crewline/contracts';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import {
  attachNewTool,
  configureModel,
  createAgent,
  createChainWorkflow,
  waitForRunEnd,
} from '../../testing/app-fixtures';
import { chainOf } from '../../testing/workflow-shapes';
import { modelToolName } from '../tools/runtime/tool-runtime';

// Each step's record (what the model was asked, its answer, tool calls, retries, model, tokens) is
// served by the run's details, never by its list, and never carries a credential.

const TOOL_SECRET = 'sk-step-record-tool-secret-7f3a91c2';
const MODEL_KEY = 'sk-step-record-model-key-0b44e1';

let t: TestApp;
let ada: AuthResponse;
let fake: FakeLlmServer;
let api: http.Server;
let apiUrl: string;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  // An order API that echoes the request, headers included (the tool's key among them), or a long page.
  api = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.includes('catalogue')) res.end(JSON.stringify({ items: 'x'.repeat(10_000) }));
    else res.end(JSON.stringify({ order: 42, status: 'shipped', headers: req.headers }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api`;
  t = await createTestApp({ worker: true });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url, { apiKey: MODEL_KEY, defaultModel: 'gpt-4o' });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => api?.close(resolve));
});
beforeEach(() => fake.reset());

/** A support agent with the order API tool (its key: TOOL_SECRET), then a writer. */
async function supportWorkflow() {
  const support = await createAgent(t, ada.token, {
    name: 'Support',
    role: 'Support lead',
    goal: 'Find orders',
  });
  const tool = await attachNewTool(t, ada.token, support.id, {
    name: 'Orders API',
    category: 'api',
    config: { baseUrl: apiUrl, apiKey: TOOL_SECRET },
  });
  const writer = await createAgent(t, ada.token, { name: 'Writer', role: 'Writer', goal: 'Write replies' });
  const id = await createChainWorkflow(t, ada.token, `Support ${Math.random().toString(36).slice(2, 7)}`, [
    support.id,
    writer.id,
  ]);
  return { id, toolName: modelToolName(tool) };
}

async function execute(workflowId: string, payload: Record<string, unknown> = {}) {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token: ada.token,
    payload,
  });
  expect(res.statusCode).toBe(202);
  return waitForRunEnd(t, ada.token, res.json().id as string);
}

const details = (id: string, token = ada.token) =>
  t.request({ method: 'GET', url: `/api/executions/${id}`, token });

/** The messages the fake model received in its n-th chat request. */
const sentMessages = (n: number) =>
  (
    fake.requests.filter((r) => r.path.endsWith('/chat/completions'))[n].body.messages as {
      role: string;
      content: unknown;
    }[]
  ).filter((m) => m.role === 'system' || m.role === 'user');

describe('a step record', () => {
  it('holds the messages as sent, the answer, each tool call, the model and tokens, and no secret', async () => {
    const { id, toolName } = await supportWorkflow();
    fake.script([
      { toolCalls: [{ name: toolName, arguments: { method: 'GET', path: 'orders/42' } }] },
      { content: 'Order 42 has shipped.' },
      { content: 'Dear customer, your order is on its way.' },
    ]);

    const done = await execute(id, {
      input: { question: 'Where is order 42?' },
      dynamicInstructions: 'Answer in one sentence.',
    });
    expect(done.status).toBe('completed');
    const res = await details(done.id);
    expect(res.statusCode).toBe(200);
    // Neither the tool's key nor the model's key is anywhere in the answer.
    expect(res.body).not.toContain(TOOL_SECRET);
    expect(res.body).not.toContain(MODEL_KEY);

    const steps = (res.json() as Execution).steps!;
    expect(steps.map((s) => [s.nodeId, s.status])).toEqual([
      ['n1', 'completed'],
      ['n2', 'completed'],
    ]);
    const [support, writer] = steps.map((s) => s.record!);

    // The messages are exactly those the model received, the run's instructions included.
    expect(support.messages).toEqual(sentMessages(0));
    expect(support.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(support.messages[1].content).toContain('Answer in one sentence.');
    expect(support.messages[1].content).toContain('Where is order 42?');
    // The writer was given the support agent's answer as context.
    expect(writer.messages).toEqual(sentMessages(2));
    expect(writer.messages[1].content).toContain('Order 42 has shipped.');

    expect(support.answer).toBe('Order 42 has shipped.');
    expect(support.toolCalls).toHaveLength(1);
    const [call] = support.toolCalls;
    expect(call).toMatchObject({
      name: toolName,
      arguments: { method: 'GET', path: 'orders/42' },
      truncated: false,
      isError: false,
    });
    expect(call.result).toContain('"status": "shipped"');
    expect(call.durationMs).toBeGreaterThanOrEqual(0);
    expect(writer.toolCalls).toEqual([]);

    expect(support).toMatchObject({ provider: 'openai', model: 'gpt-4o', retries: 0 });
    const output = done.output.n1;
    expect(support.promptTokens).toBe(output.usage.promptTokens);
    expect(support.completionTokens).toBe(output.usage.completionTokens);
    expect(support.promptTokens).toBeGreaterThan(0);
  });

  it('cuts a long tool result and marks it truncated', async () => {
    const { id, toolName } = await supportWorkflow();
    fake.script([
      { toolCalls: [{ name: toolName, arguments: { method: 'GET', path: 'catalogue' } }] },
      { content: 'The catalogue is long.' },
      { content: 'Done.' },
    ]);
    const done = await execute(id);
    const [call] = (await details(done.id)).json().steps[0].record.toolCalls;
    expect(call.truncated).toBe(true);
    expect(call.result).toHaveLength(STEP_TOOL_RESULT_LIMIT);
  });

  it('counts the retries the gateway made', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Patient' });
    const id = await createChainWorkflow(t, ada.token, 'Retried', [agent.id]);
    // retry-after-ms: 0 lets the SDK retry at once instead of after its 2 s backoff.
    fake.failNext(503, undefined, 1, { headers: { 'retry-after-ms': '0' } });
    fake.script([{ content: 'Fine now' }]);
    const done = await execute(id);
    expect(done.status).toBe('completed');
    expect((await details(done.id)).json().steps[0].record).toMatchObject({ retries: 1, answer: 'Fine now' });
  });

  it('of a failed step keeps what the model was asked, without an answer', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Unlucky' });
    const id = await createChainWorkflow(t, ada.token, 'Failing', [agent.id]);
    fake.script([{ error: { status: 400, message: 'The model refused the request' } }]);
    const done = await execute(id, { dynamicInstructions: 'Be brief.' });
    expect(done.status).toBe('failed');
    const [step] = (await details(done.id)).json().steps as NonNullable<Execution['steps']>;
    expect(step.status).toBe('failed');
    expect(step.record).toMatchObject({
      answer: null,
      toolCalls: [],
      retries: 0,
      promptTokens: 0,
      completionTokens: 0,
    });
    expect(step.record!.messages).toEqual(sentMessages(0));
    expect(step.record!.messages[1].content).toContain('Be brief.');
  });

  it('of a hierarchical lead that answered alone names the co-workers it had', async () => {
    const lead = await createAgent(t, ada.token, { name: 'Manager' });
    const analyst = await createAgent(t, ada.token, { name: 'Analyst' });
    const res = await t.request({
      method: 'POST',
      url: '/api/workflows',
      token: ada.token,
      payload: {
        name: 'Team',
        status: 'active',
        processType: 'hierarchical',
        ...chainOf([lead.id, analyst.id]),
      },
    });
    expect(res.statusCode).toBe(201);
    fake.script([{ content: 'I did it myself' }]);
    const done = await execute(res.json().id as string);
    expect(done.status).toBe('completed');
    const [step] = (await details(done.id)).json().steps as NonNullable<Execution['steps']>;
    expect(step.record?.team).toEqual({ coworkers: ['Analyst'], delegations: 0 });
    // The delegation tools were offered; none was called.
    expect(step.record?.toolCalls).toEqual([]);

    // The same lead delegating once: the delegation is its tool call, and its count.
    fake.script([
      {
        toolCalls: [{ name: 'delegate_work_to_coworker', arguments: { coworker: 'Analyst', task: 'Count' } }],
      },
      { content: '7 ships' },
      { content: 'Final: 7 ships' },
    ]);
    const again = await execute(res.json().id as string);
    const steps = (await details(again.id)).json().steps as NonNullable<Execution['steps']>;
    expect(steps.map((s) => s.nodeId)).toEqual(['n2#1', 'n1']);
    const delegating = steps[1].record!;
    expect(delegating.team).toEqual({ coworkers: ['Analyst'], delegations: 1 });
    expect(delegating.toolCalls).toMatchObject([
      {
        name: 'delegate_work_to_coworker',
        arguments: { coworker: 'Analyst', task: 'Count' },
        result: '7 ships',
      },
    ]);
    expect(steps[0].record?.team).toBeUndefined();
  });

  it('is not served by the run list, nor to another organization', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Private' });
    const id = await createChainWorkflow(t, ada.token, 'Private run', [agent.id]);
    fake.script([{ content: 'A private answer' }]);
    const done = await execute(id);

    const list = await t.request({ method: 'GET', url: '/api/executions', token: ada.token });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('"messages"');
    expect(list.body).not.toContain('"steps"');

    const bob = await t.signup();
    const other = await details(done.id, bob.token);
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('A private answer');
  });
});
