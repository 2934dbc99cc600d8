import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';

// An agent's `config` is free-form (stored and answered as sent); its memory settings are the
// `memory` field beside it. Older clients' memory settings in `config.memory` still land in `memory`.

let t: TestApp;
let ada: AuthResponse;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
});
afterAll(async () => {
  await t?.close();
});

const base = { role: 'Helper', goal: 'Help', llmModel: 'gpt-4o' };

async function create(fields: Record<string, unknown>) {
  const res = await t.request({
    method: 'POST',
    url: '/api/agents',
    token: ada.token,
    payload: { name: 'Agent', ...base, ...fields },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Agent;
}
async function update(id: string, patch: Record<string, unknown>) {
  const res = await t.request({ method: 'PUT', url: `/api/agents/${id}`, token: ada.token, payload: patch });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Agent;
}
async function read(id: string) {
  const res = await t.request({ method: 'GET', url: `/api/agents/${id}`, token: ada.token });
  expect(res.statusCode).toBe(200);
  return res.json() as Agent;
}

const off = { enabled: false, connection: 'openai', model: 'text-embedding-3-small' };

describe('agent config', () => {
  it('stores any JSON object as sent, `memory: true` included', async () => {
    const config = { memory: true, anything: [1, 2], nested: { deep: [{ a: null }] } };
    const created = await create({ config });
    expect(created.config).toEqual(config);
    expect(created.memory).toEqual(off);
    expect((await read(created.id)).config).toEqual(config);

    const updated = await update(created.id, { config: { memory: 'a string', n: 3 } });
    expect(updated.config).toEqual({ memory: 'a string', n: 3 });
    expect((await read(created.id)).config).toEqual({ memory: 'a string', n: 3 });
  });
});

describe('agent memory settings', () => {
  it('are created, updated and read in their own field, with the defaults filled in', async () => {
    const created = await create({ memory: { enabled: true } });
    expect(created.memory).toEqual({ ...off, enabled: true });
    expect(created.config).toEqual({});

    const custom = { enabled: true, connection: 'local', model: 'nomic-embed-text' };
    expect((await update(created.id, { memory: custom })).memory).toEqual(custom);
    expect((await read(created.id)).memory).toEqual(custom);
    // Saving other fields leaves them as they are.
    expect((await update(created.id, { name: 'Renamed' })).memory).toEqual(custom);
    expect((await update(created.id, { memory: { ...custom, enabled: false } })).memory.enabled).toBe(false);
  });

  it('are { enabled, connection, model } in the list too, and bad ones are refused by name', async () => {
    const created = await create({ memory: { enabled: true, connection: 'custom', model: 'bge-m3' } });
    const list = await t.request({ method: 'GET', url: '/api/agents', token: ada.token });
    const listed = (list.json() as Agent[]).find((agent) => agent.id === created.id);
    expect(listed?.memory).toEqual({ enabled: true, connection: 'custom', model: 'bge-m3' });

    // Each error names its field as the form knows it (memory.connection, memory.model).
    const refused = async (memory: Record<string, unknown>) => {
      const res = await t.request({
        method: 'PUT',
        url: `/api/agents/${created.id}`,
        token: ada.token,
        payload: { memory },
      });
      expect(res.statusCode).toBe(400);
      return (res.json() as { errors: { path: string; message: string }[] }).errors;
    };
    expect(await refused({ enabled: true, connection: 'anthropic' })).toEqual([
      { path: 'memory.connection', message: expect.stringContaining('Invalid option') },
    ]);
    expect(await refused({ enabled: true, model: '  ' })).toEqual([
      { path: 'memory.model', message: 'Choose the embedding model memories are searched with' },
    ]);
    expect((await read(created.id)).memory).toEqual({ enabled: true, connection: 'custom', model: 'bge-m3' });
  });

  it('sent the old way, in config.memory as an object, become the memory field', async () => {
    const created = await create({ config: { memory: { enabled: true }, keep: 1 } });
    expect(created.memory).toEqual({ ...off, enabled: true });
    expect(created.config).toEqual({ keep: 1 });

    const updated = await update(created.id, {
      config: { memory: { enabled: true, embeddingProvider: 'custom', embeddingModel: 'bge-m3' } },
    });
    expect(updated.memory).toEqual({ enabled: true, connection: 'custom', model: 'bge-m3' });
    expect(updated.config).toEqual({});
    // With a memory field beside it, config.memory is only config.
    const both = await update(created.id, { memory: off, config: { memory: { enabled: true } } });
    expect(both.memory).toEqual(off);
    expect(both.config).toEqual({ memory: { enabled: true } });
  });
});
