import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';

// Whether an agent's call of a tool waits for a person (docs/product-rules.md, People in the loop).
let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  bob = await t.signup();
});
afterAll(() => t.close());

async function linkedTool(payload: Record<string, unknown> = { config: {} }) {
  const tool = (
    await t.request({ method: 'POST', url: '/api/tools', token: ada.token, payload: { name: 'Orders' } })
  ).json();
  const agent = (
    await t.request({
      method: 'POST',
      url: '/api/agents',
      token: ada.token,
      payload: { name: 'Agent', role: 'R', goal: 'G' },
    })
  ).json();
  const url = `/api/agents/${agent.id}/tools/${tool.id}`;
  const connected = await t.request({ method: 'POST', url, token: ada.token, payload });
  return { agentId: agent.id as string, toolId: tool.id as string, url, connected };
}
const listOf = async (agentId: string, token = ada.token) =>
  t.request({ method: 'GET', url: `/api/agents/${agentId}/tools`, token });

describe('an agent-tool link’s approval', () => {
  it('asks before writes on a new link, and keeps the policy it is given', async () => {
    const plain = await linkedTool();
    expect(plain.connected.statusCode).toBe(201);
    expect(plain.connected.json().approval).toBe('writes');
    expect((await listOf(plain.agentId)).json()).toEqual([
      expect.objectContaining({ toolId: plain.toolId, approval: 'writes' }),
    ]);

    const never = await linkedTool({ config: {}, approval: 'never' });
    expect(never.connected.json().approval).toBe('never');
  });

  it('changes on PUT and leaves the switch and settings as they were', async () => {
    const { agentId, toolId, url } = await linkedTool({ config: { units: 'metric', isEnabled: false } });
    const updated = await t.request({
      method: 'PUT',
      url,
      token: ada.token,
      payload: { approval: 'always' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      approval: 'always',
      isEnabled: false,
      config: { units: 'metric' },
    });
    const [listed] = (await listOf(agentId)).json();
    expect(listed).toMatchObject({
      toolId,
      approval: 'always',
      isEnabled: false,
      config: { units: 'metric' },
    });

    // A PUT without it (the enable switch) keeps the policy.
    await t.request({ method: 'PUT', url, token: ada.token, payload: { isEnabled: true } });
    expect((await listOf(agentId)).json()[0]).toMatchObject({ approval: 'always', isEnabled: true });
  });

  it('refuses a value it does not know, naming the field', async () => {
    const { agentId, url } = await linkedTool();
    const bad = await t.request({ method: 'PUT', url, token: ada.token, payload: { approval: 'sometimes' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ path: 'approval' })]);
    expect((await listOf(agentId)).json()[0].approval).toBe('writes');

    const other = await linkedTool({ config: {}, approval: 'maybe' });
    expect(other.connected.statusCode).toBe(400);
    expect(other.connected.json().errors).toEqual([expect.objectContaining({ path: 'approval' })]);
  });

  it('is not found for another organization', async () => {
    const { agentId, url } = await linkedTool();
    const res = await t.request({ method: 'PUT', url, token: bob.token, payload: { approval: 'never' } });
    expect(res.statusCode).toBe(404);
    expect((await listOf(agentId, bob.token)).statusCode).toBe(404);
    expect((await listOf(agentId)).json()[0].approval).toBe('writes');
  });
});
