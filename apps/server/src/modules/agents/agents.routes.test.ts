import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  bob = await t.signup();
});
afterAll(() => t.close());

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
      (await create({ ...base, temperature: 100, maxTokens: 8000, llmProvider: 'local' })).statusCode,
    ).toBe(201);
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
