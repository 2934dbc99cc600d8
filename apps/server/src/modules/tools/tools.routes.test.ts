import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTools, tools, connections } from '@crewline/db';
import type { AuthResponse } from '@crewline/contracts';
import { expectNeverAnswered } from '../../testing/app-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

const API_KEY = 'sk-tool-secret-0123456789abcdef';
const CONNECTION_STRING = 'postgres://reader:very-secret-pw@db.example.com:5432/shop';
const OPENAI_KEY = 'sk-openai-configuration-secret-42';

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  bob = await t.signup();
});
afterAll(async () => {
  // No response of this whole suite ever carried a stored secret.
  expectNeverAnswered(t, [API_KEY, CONNECTION_STRING, 'very-secret-pw', OPENAI_KEY]);
  await t.close();
});

const createTool = (payload: Record<string, unknown>, token = ada.token) =>
  t.request({ method: 'POST', url: '/api/tools', token, payload });
/** Ada connects the tool to the agent. */
const link = (agentId: string, toolId: string, config: Record<string, unknown> = {}) =>
  t.request({
    method: 'POST',
    url: `/api/agents/${agentId}/tools/${toolId}`,
    token: ada.token,
    payload: { config },
  });
/** Ada saves the connection `id` (openai_config, sendgrid_config, …). */
const putConfiguration = (id: string, payload: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: `/api/tools/configurations/${id}`, token: ada.token, payload });
const createAgent = async (token = ada.token) =>
  (
    await t.request({
      method: 'POST',
      url: '/api/agents',
      token,
      payload: { name: 'Agent', role: 'R', goal: 'G' },
    })
  ).json();

describe('tools', () => {
  it('creates a tool with its category fields, defaulting to web, and masks credentials', async () => {
    const plain = await createTool({ name: 'Search' });
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toMatchObject({ category: 'web', isActive: true, config: {} });

    const res = await createTool({
      name: 'Orders API',
      category: 'api',
      provider: 'Shopify',
      description: 'Reads orders',
      config: { baseUrl: 'https://api.example.com/v1', apiKey: API_KEY },
    });
    expect(res.statusCode).toBe(201);
    const tool = res.json();
    expect(tool.config.baseUrl).toBe('https://api.example.com/v1');
    expect(tool.config.apiKey).toBe('••••••••cdef');
    const [row] = await t.db.select().from(tools).where(eq(tools.id, tool.id));
    expect(JSON.stringify(row)).not.toContain(API_KEY);
    expect(row.config).not.toHaveProperty('apiKey');
  });

  it('keeps the stored secret when the mask is sent back, replaces it on a new value, clears it on empty', async () => {
    const tool = (
      await createTool({
        name: 'DB',
        category: 'database',
        config: { connectionString: CONNECTION_STRING, schema: 'public' },
      })
    ).json();
    const sealedBefore = (await t.db.select().from(tools).where(eq(tools.id, tool.id)))[0].credentials;
    const kept = await t.request({
      method: 'PUT',
      url: `/api/tools/${tool.id}`,
      token: ada.token,
      payload: { name: 'DB renamed', config: { ...tool.config, schema: 'sales' } },
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({
      name: 'DB renamed',
      config: { schema: 'sales', connectionString: tool.config.connectionString },
    });
    expect((await t.db.select().from(tools).where(eq(tools.id, tool.id)))[0].credentials).toEqual(
      sealedBefore,
    );

    const cleared = await t.request({
      method: 'PUT',
      url: `/api/tools/${tool.id}`,
      token: ada.token,
      payload: { config: { connectionString: '', schema: 'sales' } },
    });
    expect(cleared.json().config).not.toHaveProperty('connectionString');
  });

  it('validates the name and the category fields', async () => {
    const res = await createTool({ name: '', category: 'api', config: { baseUrl: 'ftp://x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Tool Name is required' },
        { path: 'config.baseUrl', message: 'Enter a URL starting with http:// or https://' },
      ]),
    );
    expect(
      (await createTool({ name: 'V', category: 'vector_store', config: { dimensions: 'many' } })).statusCode,
    ).toBe(400);
    expect(
      (
        await createTool({
          name: 'V',
          category: 'vector_store',
          config: { indexName: 'docs', dimensions: 1536, apiKey: 'pc-1' },
        })
      ).statusCode,
    ).toBe(201);
    expect((await createTool({ name: 'X', category: 'teleport' })).statusCode).toBe(400);
  });

  it('deletes a tool and its agent links', async () => {
    const tool = (await createTool({ name: 'Temp' })).json();
    const agent = await createAgent();
    await link(agent.id, tool.id);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/tools/${tool.id}`, token: ada.token })).statusCode,
    ).toBe(204);
    expect(await t.db.select().from(agentTools).where(eq(agentTools.toolId, tool.id))).toEqual([]);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/tools/${tool.id}`, token: ada.token })).statusCode,
    ).toBe(404);
  });
});

describe('agent tools', () => {
  it('connects, lists, toggles through config.isEnabled, and disconnects', async () => {
    const tool = (
      await createTool({
        name: 'Weather',
        category: 'api',
        description: 'Forecasts',
        config: { baseUrl: 'https://w.example.com' },
      })
    ).json();
    const agent = await createAgent();
    const url = `/api/agents/${agent.id}/tools/${tool.id}`;
    const connected = await link(agent.id, tool.id, { units: 'metric' });
    expect(connected.statusCode).toBe(201);
    expect(connected.json()).toMatchObject({
      agentId: agent.id,
      toolId: tool.id,
      isEnabled: true,
      config: { units: 'metric' },
      tool: { name: 'Weather', description: 'Forecasts', category: 'api' },
    });
    expect((await link(agent.id, tool.id)).statusCode).toBe(409);

    const toggled = await t.request({
      method: 'PUT',
      url,
      token: ada.token,
      payload: { config: { units: 'metric', isEnabled: false } },
    });
    expect(toggled.json().isEnabled).toBe(false);
    const list = await t.request({ method: 'GET', url: `/api/agents/${agent.id}/tools`, token: ada.token });
    expect(list.json()).toEqual([expect.objectContaining({ toolId: tool.id, isEnabled: false })]);
    // The agent's card shows its enabled tools only.
    const disabled = await t.request({ method: 'GET', url: `/api/agents/${agent.id}`, token: ada.token });
    expect(disabled.json().tools).toEqual([]);
    await t.request({ method: 'PUT', url, token: ada.token, payload: { isEnabled: true } });
    const enabled = await t.request({ method: 'GET', url: '/api/agents', token: ada.token });
    expect(enabled.json().find((a: { id: string }) => a.id === agent.id).tools).toEqual([
      { id: tool.id, name: 'Weather' },
    ]);

    expect((await t.request({ method: 'DELETE', url, token: ada.token })).statusCode).toBe(204);
    expect(
      (await t.request({ method: 'GET', url: `/api/agents/${agent.id}/tools`, token: ada.token })).json(),
    ).toEqual([]);
  });

  it('removes links when the agent is deleted', async () => {
    const tool = (await createTool({ name: 'Linked' })).json();
    const agent = await createAgent();
    await link(agent.id, tool.id);
    await t.request({ method: 'DELETE', url: `/api/agents/${agent.id}`, token: ada.token });
    expect(await t.db.select().from(agentTools).where(eq(agentTools.agentId, agent.id))).toEqual([]);
  });
});

describe('tool configurations', () => {
  it('lists every connection, stores the key sealed and answers a mask', async () => {
    const list = await t.request({ method: 'GET', url: '/api/tools/configurations', token: ada.token });
    expect(list.json().map((c: { id: string }) => c.id)).toEqual([
      'openai_config',
      'anthropic_config',
      'local_config',
      'custom_config',
      'database_config',
      'sendgrid_config',
    ]);
    expect(list.json()[0]).toEqual({ id: 'openai_config', config: {}, isActive: false, updatedAt: null });

    const saved = await putConfiguration('openai_config', {
      config: { apiKey: OPENAI_KEY, baseUrl: 'https://api.openai.com/v1', defaultModel: 'gpt-4o' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      isActive: true,
      config: { apiKey: '••••••••t-42', defaultModel: 'gpt-4o' },
    });
    const [row] = await t.db
      .select()
      .from(connections)
      .where(eq(connections.organizationId, ada.organization.id));
    expect(JSON.stringify(row.config)).not.toContain(OPENAI_KEY);

    const toggled = await putConfiguration('openai_config', { isActive: false });
    expect(toggled.json()).toMatchObject({ isActive: false, config: { apiKey: '••••••••t-42' } });
  });

  it('is per organization and validates ids and fields', async () => {
    const bobs = await t.request({ method: 'GET', url: '/api/tools/configurations', token: bob.token });
    expect(
      bobs
        .json()
        .every(
          (c: { isActive: boolean; config: object }) => !c.isActive && Object.keys(c.config).length === 0,
        ),
    ).toBe(true);
    expect((await putConfiguration('stripe_config', {})).statusCode).toBe(404);
    const bad = await putConfiguration('sendgrid_config', { config: { fromEmail: 'nope' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toEqual({ path: 'config.fromEmail', message: 'Invalid email address' });
    // A query or fragment would send the model's requests to another path of the server (/api/pull).
    const elsewhere = await putConfiguration('local_config', {
      config: { baseUrl: 'http://127.0.0.1:11434/api/pull?x=' },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().errors[0]).toEqual({
      path: 'config.baseUrl',
      message: 'Enter the address without ?, # or a user name',
    });
  });
});

describe('tenancy', () => {
  it('answers 404 for another organization’s tools and links', async () => {
    const tool = (await createTool({ name: 'Ada only' })).json();
    const agent = await createAgent();
    await link(agent.id, tool.id);
    const bobTool = (await createTool({ name: 'Bob tool' }, bob.token)).json();
    const bobAgent = await createAgent(bob.token);

    const attempts = [
      ['PUT', `/api/tools/${tool.id}`, { name: 'x' }],
      ['DELETE', `/api/tools/${tool.id}`, undefined],
      ['GET', `/api/agents/${agent.id}/tools`, undefined],
      ['PUT', `/api/agents/${agent.id}/tools/${tool.id}`, { isEnabled: false }],
      ['DELETE', `/api/agents/${agent.id}/tools/${tool.id}`, undefined],
      // Bob cannot attach Ada's tool to his agent, nor his tool to Ada's agent.
      ['POST', `/api/agents/${bobAgent.id}/tools/${tool.id}`, { config: {} }],
      ['POST', `/api/agents/${agent.id}/tools/${bobTool.id}`, { config: {} }],
    ] as const;
    for (const [method, url, payload] of attempts) {
      const res = await t.request({ method, url, token: bob.token, payload });
      expect({ method, url, status: res.statusCode }).toEqual({ method, url, status: 404 });
    }
    expect(
      (await t.request({ method: 'GET', url: '/api/tools', token: bob.token }))
        .json()
        .map((x: { name: string }) => x.name),
    ).toEqual(['Bob tool']);
    expect(
      (await t.request({ method: 'GET', url: `/api/agents/${agent.id}/tools`, token: ada.token })).json(),
    ).toHaveLength(1);
  });
});
