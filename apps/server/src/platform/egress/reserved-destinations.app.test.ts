import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { modelToolName } from '../../modules/tools/runtime/tool-runtime';
import { startFakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createLoginRole } from '../../testing/test-db';
import { attachNewTool, configureModel, createAgent } from '../../testing/app-fixtures';

// The real app with the test configuration, which allow-lists 127.0.0.1 (the fake model server runs
// there). Its own database and the port it listens on are on 127.0.0.1 too, and must stay out of
// every organization's reach: a model connection, an HTTP tool and a database tool aimed at them
// answer 'Destination not allowed' and never connect.

let t: TestApp;
let ada: AuthResponse;
let fake: Awaited<ReturnType<typeof startFakeLlmServer>>;
let appPort: number;
let appConnections = 0;
let databasePort: number;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp();
  // What main.ts does once the server listens: its real port joins the reserved destinations.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  appPort = (t.app.server.address() as AddressInfo).port;
  t.reserved.addLocalPort(appPort);
  t.app.server.on('connection', () => appConnections++);
  databasePort = Number(new URL(t.database.url).port);
  ada = await t.signup();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** The organization of `token` talks to the model at `baseUrl`. */
const pointModelAt = (token: string, baseUrl: string) =>
  configureModel(t, token, baseUrl, { apiKey: 'sk-test-key-1234', defaultModel: 'gpt-4o' });

const createProber = (token: string) =>
  createAgent(t, token, { name: 'Prober', role: 'Tester', goal: 'Reach things' });

const testAgent = (token: string, id: string) =>
  t.request({ method: 'POST', url: `/api/agents/${id}/test`, token, payload: { input: 'Go' } });

/** Connects a tool to a fresh agent of ada's, and scripts the model to call it once and repeat its answer. */
async function agentCalling(
  category: string,
  config: Record<string, unknown>,
  args: Record<string, unknown>,
) {
  const agent = await createProber(ada.token);
  const tool = await attachNewTool(t, ada.token, agent.id, { name: 'Probe', category, config });
  fake.script([{ toolCalls: [{ name: modelToolName(tool), arguments: args }] }, { echoToolResult: true }]);
  return agent;
}

describe("the product's own destinations", () => {
  it('refuses a model base URL aimed at its own port or its database, whatever the allow-list says', async () => {
    const bob = await t.signup();
    const agent = await createProber(bob.token);
    for (const baseUrl of [`http://127.0.0.1:${appPort}/api`, `http://localhost:${databasePort}/v1`]) {
      await pointModelAt(bob.token, baseUrl);
      const before = appConnections;
      const res = await testAgent(bob.token, agent.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ success: false, response: null });
      expect(res.json().error).toContain('Destination not allowed');
      expect(appConnections).toBe(before);
    }
  });

  it('refuses an HTTP tool aimed at its own port, and tells the model only "Destination not allowed"', async () => {
    await pointModelAt(ada.token, fake.url);
    const agent = await agentCalling(
      'api',
      { baseUrl: `http://127.0.0.1:${appPort}/api` },
      { path: 'agents' },
    );
    const before = appConnections;
    const res = await testAgent(ada.token, agent.id);
    expect(res.json()).toMatchObject({ success: true });
    expect(res.json().response).toContain('Destination not allowed');
    expect(appConnections).toBe(before);
  });

  it('refuses a database tool aimed at its own database, even with valid credentials', async () => {
    await pointModelAt(ada.token, fake.url);
    const ownDatabase = await createLoginRole(t.database);
    const agent = await agentCalling(
      'database',
      { connectionString: ownDatabase },
      { sql: 'select email from users' },
    );
    const res = await testAgent(ada.token, agent.id);
    expect(res.json()).toMatchObject({ success: true });
    expect(res.json().response).toContain('Destination not allowed');
    expect(res.json().response).not.toContain('@example.com');
  });

  it('still reaches other allow-listed ports of 127.0.0.1 (the fake model server)', async () => {
    await pointModelAt(ada.token, fake.url);
    const agent = await createProber(ada.token);
    fake.script([{ content: 'Reached.' }]);
    expect((await testAgent(ada.token, agent.id)).json()).toMatchObject({
      success: true,
      response: 'Reached.',
    });
  });
});
