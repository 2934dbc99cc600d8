import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { agentExecutions, workflowExecutions } from '@crewline/db';
import type { AuthResponse } from '@crewline/contracts';
import { SECRET_MASK } from '../../../platform/crypto';
import { startFakeLlmServer, type FakeLlmServer } from '../../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../../testing/test-app';
import {
  attachNewTool,
  configureModel,
  createAgent,
  createChainWorkflow,
  waitForRunEnd,
} from '../../../testing/app-fixtures';
import { modelToolName } from './tool-runtime';

// A tool's key must not come back through an endpoint that echoes the request (docs/security.md).
const CANARY = 'crewline-canary-api-key-5d1e9b7f2a';
const canaryForms = [CANARY, Buffer.from(CANARY).toString('base64')];

let t: TestApp;
let ada: AuthResponse;
let fake: FakeLlmServer;
let echo: http.Server;
let echoUrl: string;
const echoSeen: (string | undefined)[] = [];

beforeAll(async () => {
  fake = await startFakeLlmServer();
  echo = http.createServer((req, res) => {
    echoSeen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers }));
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/api`;
  t = await createTestApp({ worker: true });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url, { apiKey: 'sk-test-model-key', defaultModel: 'gpt-4o' });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => echo?.close(resolve));
});
beforeEach(() => fake.reset());

const expectNoCanary = (what: string, text: string) => {
  for (const form of canaryForms) expect(text, what).not.toContain(form);
};

/** An agent with an `api` tool (key: CANARY) pointing at the echo server; returns the model tool name. */
async function agentWithEchoTool() {
  const agent = await createAgent(t, ada.token, { name: 'Prober', role: 'Prober', goal: 'Call the API' });
  const tool = await attachNewTool(t, ada.token, agent.id, {
    name: 'Echo API',
    category: 'api',
    config: { baseUrl: echoUrl, apiKey: CANARY },
  });
  return { agent, toolName: modelToolName(tool) };
}

/** The model calls the tool, then answers with the tool result it got, as a real model may. */
function scriptToolCallThenEcho(toolName: string) {
  fake.script([
    { toolCalls: [{ name: toolName, arguments: { method: 'GET', path: 'whoami' } }] },
    { echoToolResult: true },
  ]);
}

/** What the model was sent as the tool's result in its second request. */
function toolResultSentToModel(): string {
  const second = fake.requests.filter((r) => r.path.endsWith('/chat/completions'))[1];
  const message = (second.body.messages as { role: string; content: unknown }[]).find(
    (m) => m.role === 'tool',
  );
  return JSON.stringify(message?.content);
}

const waitForEnd = (id: string) => waitForRunEnd(t, ada.token, id);

describe('tool output', () => {
  it('a workflow run: the model and the stored run see a mask where the echoed key was', async () => {
    const { agent, toolName } = await agentWithEchoTool();
    const workflowId = await createChainWorkflow(t, ada.token, 'Probe', [agent.id], {
      processType: 'sequential',
    });
    scriptToolCallThenEcho(toolName);

    const queued = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflowId}/execute`,
      token: ada.token,
      payload: { input: { task: 'probe' } },
    });
    expect(queued.statusCode).toBe(202);
    const done = await waitForEnd(queued.json().id);
    expect(done.status).toBe('completed');

    // The endpoint got the real key and echoed it; the model got the mask instead.
    expect(echoSeen.at(-1)).toBe(`Bearer ${CANARY}`);
    const toolResult = toolResultSentToModel();
    expect(toolResult).toContain(`Bearer ${SECRET_MASK}`);
    expectNoCanary('tool result sent to the model', toolResult);

    // The model repeated the result, so the run's output holds it: masked.
    const stored = await t.request({ method: 'GET', url: `/api/executions/${done.id}`, token: ada.token });
    expect(stored.body).toContain(SECRET_MASK);
    expectNoCanary('GET /api/executions/:id', stored.body);
    const list = await t.request({ method: 'GET', url: '/api/executions', token: ada.token });
    expectNoCanary('GET /api/executions', list.body);
    const run = await t.db.select().from(workflowExecutions).where(eq(workflowExecutions.id, done.id));
    const steps = await t.db
      .select()
      .from(agentExecutions)
      .where(eq(agentExecutions.workflowExecutionId, done.id));
    expect(steps).toHaveLength(1);
    expectNoCanary('workflow_executions row', JSON.stringify(run));
    expectNoCanary('agent_executions rows (output, logs)', JSON.stringify(steps));
    expectNoCanary('realtime events', JSON.stringify(t.published));
  });

  it('the agent test: the model and the answer see a mask where the echoed key was', async () => {
    const { agent, toolName } = await agentWithEchoTool();
    scriptToolCallThenEcho(toolName);

    const res = await t.request({
      method: 'POST',
      url: `/api/agents/${agent.id}/test`,
      token: ada.token,
      payload: { input: 'Who am I?' },
    });
    expect(res.json()).toMatchObject({ success: true });
    expect(echoSeen.at(-1)).toBe(`Bearer ${CANARY}`);
    const toolResult = toolResultSentToModel();
    expect(toolResult).toContain(`Bearer ${SECRET_MASK}`);
    expectNoCanary('tool result sent to the model', toolResult);
    expect(res.json().response).toContain(SECRET_MASK);
    expectNoCanary('POST /api/agents/:id/test', res.body);
  });

  it('no response of the file carried the key', () => {
    for (const body of t.responseBodies) expectNoCanary('a response', body);
  });
});
