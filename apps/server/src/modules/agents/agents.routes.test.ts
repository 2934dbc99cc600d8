import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;
let fake: FakeLlmServer;

beforeAll(async () => {
  t = await createTestApp();
  fake = await startFakeLlmServer();
  ada = await t.signup();
  bob = await t.signup();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const create = (payload: Record<string, unknown>, token = ada.token) =>
  t.request({ method: 'POST', url: '/api/agents', token, payload });

describe('agents API', () => {
  it('creates an agent with the data model defaults and lists it', async () => {
    const res = await create({ name: 'Researcher', role: 'Senior researcher', goal: 'Find the facts' });
    expect(res.statusCode).toBe(201);
    const agent = res.json();
    expect(agent).toMatchObject({
      name: 'Researcher',
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
      temperature: 70,
      maxTokens: 2000,
      status: 'inactive',
      tools: [],
      organizationId: ada.organization.id,
      createdBy: ada.user.id,
    });
    expect(t.published).toContainEqual({
      type: 'agent_created',
      organizationId: ada.organization.id,
      agentId: agent.id,
    });
    const list = await t.request({ method: 'GET', url: '/api/agents', token: ada.token });
    expect(list.json().map((a: { id: string }) => a.id)).toContain(agent.id);
    const one = await t.request({ method: 'GET', url: `/api/agents/${agent.id}`, token: ada.token });
    expect(one.json()).toEqual(agent);
  });

  it('requires name, role and goal and bounds temperature and max tokens', async () => {
    const missing = await create({ name: ' ', role: '', goal: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Name is required' },
        { path: 'role', message: 'Role is required' },
        { path: 'goal', message: 'Goal is required' },
      ]),
    );
    const base = { name: 'A', role: 'R', goal: 'G' };
    for (const [field, value] of [
      ['temperature', 101],
      ['temperature', -1],
      ['temperature', 50.5],
      ['maxTokens', 99],
      ['maxTokens', 8001],
      ['llmProvider', 'gemini'],
      ['status', 'sleeping'],
    ] as const) {
      const res = await create({ ...base, [field]: value });
      expect({ field, value, status: res.statusCode }).toEqual({ field, value, status: 400 });
      expect(res.json().errors[0].path).toBe(field);
    }
    expect((await create({ ...base, temperature: 0, maxTokens: 100 })).statusCode).toBe(201);
    expect(
      (
        await create({
          ...base,
          temperature: 100,
          maxTokens: 8000,
          llmProvider: 'local',
          llmModel: 'llama3.1',
        })
      ).statusCode,
    ).toBe(201);
  });

  it("gives an agent sent without a model its provider connection's default model", async () => {
    const owner = await t.signup();
    const connect = (id: string, config: Record<string, unknown>) =>
      t.request({
        method: 'PUT',
        url: `/api/tools/configurations/${id}`,
        token: owner.token,
        payload: { config },
      });
    const base = { name: 'Scout', role: 'Researcher', goal: 'Find the facts' };
    const modelOf = async (payload: Record<string, unknown>) => {
      const res = await create({ ...base, ...payload }, owner.token);
      expect(res.statusCode).toBe(201);
      return res.json().llmModel;
    };
    fake.setModels(['qwen2.5:7b', 'llama3.2:3b']);

    // Nothing configured: OpenAI's and Anthropic's built-in defaults.
    expect(await modelOf({})).toBe('gpt-4o');
    expect(await modelOf({ llmProvider: 'anthropic' })).toBe('claude-sonnet-4-5');
    // The connection's default model (Settings → Tools), whatever the provider lists.
    expect(
      (await connect('openai_config', { apiKey: 'sk-test', baseUrl: fake.url, defaultModel: 'gpt-4o-mini' }))
        .statusCode,
    ).toBe(200);
    expect(await modelOf({ llmProvider: 'openai' })).toBe('gpt-4o-mini');
    // A model named by the caller stays.
    expect(await modelOf({ llmModel: 'gpt-4.1' })).toBe('gpt-4.1');

    // A local server without a default model: the first model it reports, never a built-in guess.
    expect((await connect('local_config', { baseUrl: fake.url })).statusCode).toBe(200);
    expect(await modelOf({ llmProvider: 'local' })).toBe('llama3.2:3b');
    const catalogue = (
      await t.request({ method: 'GET', url: '/api/llm/providers', token: owner.token })
    ).json();
    expect(catalogue.local).toMatchObject({
      models: ['llama3.2:3b', 'qwen2.5:7b'],
      defaultModel: 'llama3.2:3b',
    });
    expect(catalogue.openai.defaultModel).toBe('gpt-4o-mini');
    expect(
      (await connect('local_config', { baseUrl: fake.url, defaultModel: 'qwen2.5:7b' })).statusCode,
    ).toBe(200);
    expect(await modelOf({ llmProvider: 'local' })).toBe('qwen2.5:7b');

    // A custom server that reports no model: the caller must name one.
    fake.setModels([]);
    expect((await connect('custom_config', { baseUrl: fake.url })).statusCode).toBe(200);
    const none = await create({ ...base, llmProvider: 'custom' }, owner.token);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({
      message: 'Model is required',
      errors: [{ path: 'llmModel', message: 'Model is required' }],
    });
    expect(
      (await t.request({ method: 'GET', url: '/api/llm/providers', token: owner.token })).json().custom
        .defaultModel,
    ).toBe('');
  });

  it('updates only the fields sent and publishes agent_updated', async () => {
    const agent = (
      await create({
        name: 'Writer',
        role: 'Writer',
        goal: 'Write',
        temperature: 30,
        llmModel: 'gpt-4o-mini',
      })
    ).json();
    const res = await t.request({
      method: 'PUT',
      url: `/api/agents/${agent.id}`,
      token: ada.token,
      payload: { status: 'active' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'active',
      temperature: 30,
      llmModel: 'gpt-4o-mini',
      name: 'Writer',
    });
    expect(Date.parse(res.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(agent.updatedAt));
    expect(t.published).toContainEqual({
      type: 'agent_updated',
      organizationId: ada.organization.id,
      agentId: agent.id,
    });
    const invalid = await t.request({
      method: 'PUT',
      url: `/api/agents/${agent.id}`,
      token: ada.token,
      payload: { maxTokens: 5 },
    });
    expect(invalid.statusCode).toBe(400);
  });

  it('deletes an agent', async () => {
    const agent = (await create({ name: 'Temp', role: 'R', goal: 'G' })).json();
    expect(
      (await t.request({ method: 'DELETE', url: `/api/agents/${agent.id}`, token: ada.token })).statusCode,
    ).toBe(204);
    expect(
      (await t.request({ method: 'GET', url: `/api/agents/${agent.id}`, token: ada.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/agents/${agent.id}`, token: ada.token })).statusCode,
    ).toBe(404);
  });

  it('never shows or changes another organization’s agent', async () => {
    const agent = (await create({ name: 'Private', role: 'R', goal: 'G' })).json();
    const asBob = (method: 'GET' | 'PUT' | 'DELETE', payload?: object) =>
      t.request({ method, url: `/api/agents/${agent.id}`, token: bob.token, payload });
    expect((await asBob('GET')).statusCode).toBe(404);
    expect((await asBob('PUT', { name: 'Stolen' })).statusCode).toBe(404);
    expect((await asBob('DELETE')).statusCode).toBe(404);
    const bobs = await t.request({ method: 'GET', url: '/api/agents', token: bob.token });
    expect(bobs.json()).toEqual([]);
    const still = await t.request({ method: 'GET', url: `/api/agents/${agent.id}`, token: ada.token });
    expect(still.json().name).toBe('Private');
  });

  it('answers 404 for ids that are not UUIDs', async () => {
    for (const id of ['abc', '123', 'null']) {
      expect(
        (await t.request({ method: 'GET', url: `/api/agents/${id}`, token: ada.token })).statusCode,
      ).toBe(404);
    }
  });

  it('ignores an organization id sent in the body', async () => {
    const res = await create({ name: 'Sneaky', role: 'R', goal: 'G', organizationId: bob.organization.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().organizationId).toBe(ada.organization.id);
  });
});
