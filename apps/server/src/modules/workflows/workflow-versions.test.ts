import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { createAgent } from '../../testing/app-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { chainOf } from '../../testing/workflow-shapes';

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;
let writer: { id: string };
let editor: { id: string };

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  bob = await t.signup();
  writer = await createAgent(t, ada.token, { name: 'Writer' });
  editor = await createAgent(t, ada.token, { name: 'Editor' });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = ada.token) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });

async function draft(name = 'Pipeline') {
  const res = await call('POST', '/api/workflows', { name, ...chainOf([writer.id]) });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}
const versions = async (id: string) => {
  const res = await call('GET', `/api/workflows/${id}/versions`);
  expect(res.statusCode).toBe(200);
  return res.json() as {
    version: number;
    note: string | null;
    createdBy: { id: string; name: string } | null;
  }[];
};

describe('workflow versions', () => {
  it('records one on Activate and on each save while active, never on draft saves', async () => {
    const id = await draft();
    expect((await call('PUT', `/api/workflows/${id}`, { name: 'Pipeline 2' })).statusCode).toBe(200);
    expect(await versions(id)).toEqual([]);

    const activate = await call('PUT', `/api/workflows/${id}`, {
      status: 'active',
      versionNote: 'First cut',
    });
    expect(activate.statusCode).toBe(200);
    expect(
      (
        await call('PUT', `/api/workflows/${id}`, {
          ...chainOf([writer.id, editor.id]),
          versionNote: ' Two ',
        })
      ).statusCode,
    ).toBe(200);

    const list = await versions(id);
    expect(list.map((v) => [v.version, v.note])).toEqual([
      [2, 'Two'],
      [1, 'First cut'],
    ]);
    expect(list[0].createdBy).toEqual({ id: ada.user.id, name: expect.any(String) });
    expect(list[0].createdBy!.name.length).toBeGreaterThan(0);

    const v1 = (await call('GET', `/api/workflows/${id}/versions/1`)).json();
    expect(v1).toMatchObject({ version: 1, name: 'Pipeline 2', note: 'First cut', workflowId: id });
    expect(v1.nodes.map((n: { id: string }) => n.id)).toEqual(['start', 'n1', 'end']);
    const v2 = (await call('GET', `/api/workflows/${id}/versions/2`)).json();
    expect(v2.nodes.map((n: { id: string }) => n.id)).toEqual(['start', 'n1', 'n2', 'end']);

    // Pausing is not a save of an active workflow's definition; saves of a paused one record nothing.
    await call('PUT', `/api/workflows/${id}`, { status: 'paused' });
    await call('PUT', `/api/workflows/${id}`, { name: 'Paused edit' });
    expect((await versions(id)).length).toBe(2);
  });

  it('records version 1 for a workflow created active', async () => {
    const res = await call('POST', '/api/workflows', {
      name: 'Live',
      status: 'active',
      versionNote: 'Launch',
      ...chainOf([writer.id]),
    });
    expect(res.statusCode).toBe(201);
    expect((await versions(res.json().id)).map((v) => [v.version, v.note])).toEqual([[1, 'Launch']]);
  });

  it('restores an old version as the working copy without rewriting any version', async () => {
    const id = await draft('Restorable');
    await call('PUT', `/api/workflows/${id}`, { status: 'active' });
    await call('PUT', `/api/workflows/${id}`, { name: 'Changed', ...chainOf([writer.id, editor.id]) });

    const restored = await call('POST', `/api/workflows/${id}/versions/1/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ id, name: 'Restorable', status: 'active' });
    expect(restored.json().nodes.map((n: { id: string }) => n.id)).toEqual(['start', 'n1', 'end']);

    // Active, so the restore is a save that records version 3; versions 1 and 2 are unchanged.
    const list = await versions(id);
    expect(list.map((v) => [v.version, v.note])).toEqual([
      [3, 'Restored from version 1'],
      [2, null],
      [1, null],
    ]);
    const v2 = (await call('GET', `/api/workflows/${id}/versions/2`)).json();
    expect(v2).toMatchObject({ name: 'Changed' });
    expect(v2.nodes).toHaveLength(4);
    const working = (await call('GET', `/api/workflows/${id}`)).json();
    expect(working.name).toBe('Restorable');
  });

  it('restoring a version whose agent is gone is refused with the rule message', async () => {
    const temp = await createAgent(t, ada.token, { name: 'Temp' });
    const res = await call('POST', '/api/workflows', {
      name: 'Gone agent',
      status: 'active',
      ...chainOf([temp.id]),
    });
    const id = res.json().id as string;
    await call('PUT', `/api/workflows/${id}`, chainOf([writer.id]));
    expect(
      (await t.request({ method: 'DELETE', url: `/api/agents/${temp.id}`, token: ada.token })).statusCode,
    ).toBe(204);
    const restored = await call('POST', `/api/workflows/${id}/versions/1/restore`);
    expect(restored.statusCode).toBe(400);
    expect(restored.json().message).toContain('uses an agent that was deleted');
    expect((await versions(id)).length).toBe(2);
  });

  it('answers 404 for unknown versions and for another organization, 400 for a malformed number', async () => {
    const res = await call('POST', '/api/workflows', {
      name: 'Mine',
      status: 'active',
      ...chainOf([writer.id]),
    });
    const id = res.json().id as string;
    expect((await call('GET', `/api/workflows/${id}/versions/9`)).statusCode).toBe(404);
    expect((await call('GET', `/api/workflows/${id}/versions/9`)).json().message).toBe(
      'Workflow version not found',
    );
    expect((await call('POST', `/api/workflows/${id}/versions/9/restore`)).statusCode).toBe(404);
    expect((await call('GET', `/api/workflows/${id}/versions/one`)).statusCode).toBe(400);
    for (const url of [`/api/workflows/${id}/versions`, `/api/workflows/${id}/versions/1`])
      expect((await call('GET', url, undefined, bob.token)).statusCode).toBe(404);
    expect(
      (await call('POST', `/api/workflows/${id}/versions/1/restore`, undefined, bob.token)).statusCode,
    ).toBe(404);
    expect((await versions(id)).length).toBe(1);
  });
});
