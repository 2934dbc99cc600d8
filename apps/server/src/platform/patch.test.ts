import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../testing/test-app';
import { chainOf } from '../testing/workflow-shapes';

let t: TestApp;
let ada: AuthResponse;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
});
afterAll(() => t?.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.request({ method, url, token: ada.token, payload });

async function created(url: string, payload: object): Promise<string> {
  const res = await call('POST', url, payload);
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

// Unknown fields and fields no one may write (validation drops both): nothing is left to change.
const nothingToChange = [
  {},
  { id: '00000000-0000-4000-8000-000000000000', organizationId: 'x', createdAt: '2000-01-01', bogus: 1 },
];

/** A PUT that changes nothing answers 200 with the entity exactly as before, updatedAt included. */
async function expectUnchanged(url: string, read = url) {
  const before = (await call('GET', read)).json();
  // A write now would move updatedAt past `before` (millisecond precision).
  await new Promise((resolve) => setTimeout(resolve, 5));
  for (const payload of nothingToChange) {
    const res = await call('PUT', url, payload);
    expect({ payload, status: res.statusCode }).toEqual({ payload, status: 200 });
    expect(res.json()).toEqual(before);
  }
  expect((await call('GET', read)).json()).toEqual(before);
}

describe('PUT with nothing to change', () => {
  it('answers the agent unchanged', async () => {
    const id = await created('/api/agents', { name: 'Agent', role: 'R', goal: 'G' });
    await expectUnchanged(`/api/agents/${id}`);
  });

  it('answers the tool unchanged', async () => {
    const id = await created('/api/tools', { name: 'Tool', category: 'api', config: { apiKey: 'k' } });
    const res = await call('PUT', `/api/tools/${id}`, {});
    expect(res.statusCode).toBe(200);
    const listed = (await call('GET', '/api/tools')).json().find((tool: { id: string }) => tool.id === id);
    expect(res.json()).toEqual(listed);
    expect(res.json().updatedAt).toBe(res.json().createdAt);
    for (const payload of nothingToChange) {
      expect((await call('PUT', `/api/tools/${id}`, payload)).json()).toEqual(listed);
    }
  });

  it('answers the workflow unchanged', async () => {
    const agent = await created('/api/agents', { name: 'Agent', role: 'R', goal: 'G' });
    const id = await created('/api/workflows', { name: 'Flow', ...chainOf([agent]) });
    await expectUnchanged(`/api/workflows/${id}`);
  });

  it("answers an agent's tool link and a tool configuration unchanged", async () => {
    const agent = await created('/api/agents', { name: 'Agent', role: 'R', goal: 'G' });
    const tool = await created('/api/tools', { name: 'Tool' });
    const link = await call('POST', `/api/agents/${agent}/tools/${tool}`, { config: { depth: 2 } });
    for (const payload of nothingToChange) {
      const res = await call('PUT', `/api/agents/${agent}/tools/${tool}`, payload);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(link.json());
    }

    const saved = await call('PUT', '/api/tools/configurations/local_config', {
      config: { baseUrl: 'http://127.0.0.1:11434/v1' },
    });
    expect(saved.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const payload of nothingToChange) {
      const res = await call('PUT', '/api/tools/configurations/local_config', payload);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(saved.json());
    }
  });
});
