import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { modelToolName } from '../../modules/tools/runtime/tool-runtime';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { chainOf } from '../../testing/workflow-shapes';
import { attachNewTool, configureModel, createAgent, waitForRunEnd } from '../../testing/app-fixtures';

// The finding: with a local model server allow-listed, every organization's HTTP tools and webhooks
// could call any path of it (an Ollama's /api/pull and /api/delete, or a logging server's record of
// other organizations' requests and keys). An entry for one use opens the address to that use only.

const testAgent = (t: TestApp, token: string, id: string) =>
  t.request({ method: 'POST', url: `/api/agents/${id}/test`, token, payload: { input: 'Go' } });

const paths = (fake: FakeLlmServer) => fake.requests.map((request) => `${request.method} ${request.path}`);

describe('a model: entry', () => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let ada: AuthResponse;
  let origin: string;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    origin = new URL(fake.url).origin;
    t = await createTestApp({ worker: true, config: { egressAllowList: [`model:127.0.0.1:${fake.port}`] } });
    ada = await t.signup();
    await configureModel(t, ada.token, fake.url);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('lets a model connection through, and refuses an HTTP tool to the same address', async () => {
    fake.reset();
    const agent = await createAgent(t, ada.token, { name: 'Prober' });
    const tool = await attachNewTool(t, ada.token, agent.id, {
      name: 'Probe',
      category: 'api',
      config: { baseUrl: `${origin}/api` },
    });
    fake.script([
      { toolCalls: [{ name: modelToolName(tool), arguments: { path: 'pull' } }] },
      { echoToolResult: true },
    ]);

    const res = await testAgent(t, ada.token, agent.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true });
    expect(res.json().response).toContain('Destination not allowed');
    // Both model calls went through; the tool's request never reached the server.
    expect(paths(fake)).toEqual(['POST /v1/chat/completions', 'POST /v1/chat/completions']);
  });

  it('refuses a webhook destination at the same address, failing the run with the usual message', async () => {
    fake.reset();
    const writer = await createAgent(t, ada.token, { name: 'Writer' });
    const { nodes, edges } = chainOf([writer.id]);
    const created = await t.request({
      method: 'POST',
      url: '/api/workflows',
      token: ada.token,
      payload: {
        name: 'To the model server',
        status: 'active',
        nodes: nodes.map((node) =>
          node.id === 'n1'
            ? {
                ...node,
                data: { ...node.data, outputDestination: 'webhook', webhookUrl: `${origin}/api/delete` },
              }
            : node,
        ),
        edges,
      },
    });
    expect(created.statusCode).toBe(201);
    fake.script([{ content: 'The draft' }]);

    const started = await t.request({
      method: 'POST',
      url: `/api/workflows/${created.json().id}/execute`,
      token: ada.token,
      payload: {},
    });
    expect(started.statusCode).toBe(202);
    const done = await waitForRunEnd(t, ada.token, started.json().id as string);
    expect(done.status).toBe('failed');
    expect(done.error).toBe(
      `Agent "Writer" could not send its output to the webhook ${origin}/…: Destination not allowed`,
    );
    expect(paths(fake)).toEqual(['POST /v1/chat/completions']);
  });
});

describe('a tool: entry', () => {
  let t: TestApp;
  let fake: FakeLlmServer;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    t = await createTestApp({ config: { egressAllowList: [`tool:127.0.0.1:${fake.port}`] } });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('does not open the address to model connections', async () => {
    const bob = await t.signup();
    await configureModel(t, bob.token, fake.url);
    const agent = await createAgent(t, bob.token, { name: 'Asker' });
    fake.script([{ content: 'Never sent' }]);

    const res = await testAgent(t, bob.token, agent.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: false, response: null });
    expect(res.json().error).toContain('Destination not allowed');
    expect(fake.requests).toEqual([]);
  });
});
