import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apiKeys, subscriptions, userOrganizations } from '@crewline/db';
import type { ApiKey, AuthResponse, CreatedApiKey } from '@crewline/contracts';
import { configureModel, createAgent, createChainWorkflow, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testConfig } from '../../testing/test-config';

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let key: CreatedApiKey;
let workflowId: string;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, config: { ...testConfig(), apiKeyMaxPerMinute: 1000 } });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  key = await createKey(ada, 'CI pipeline');
  const agent = await createAgent(t, ada.token, { name: 'Writer' });
  workflowId = await createChainWorkflow(t, ada.token, 'Digest', [agent.id]);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  t.request({ method, url, token, payload: payload ?? (method === 'GET' ? undefined : {}) });

async function createKey(who: AuthResponse, name: string, extra: object = {}): Promise<CreatedApiKey> {
  const res = await call('POST', `/api/organizations/${who.organization.id}/api-keys`, who.token, {
    name,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const setRole = (who: AuthResponse, role: 'owner' | 'admin' | 'member') =>
  t.db
    .update(userOrganizations)
    .set({ role })
    .where(
      and(
        eq(userOrganizations.userId, who.user.id),
        eq(userOrganizations.organizationId, who.organization.id),
      ),
    );

describe('managing keys', () => {
  it('shows a new key once, then only its prefix, name, creator and times', async () => {
    expect(key.key).toMatch(/^crw_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(key.key.slice(0, 12));
    expect(key).toMatchObject({ name: 'CI pipeline', expiresAt: null, lastUsedAt: null });
    expect(key.createdBy).toEqual({ id: ada.user.id, name: expect.any(String) });

    const list = await call('GET', `/api/organizations/${ada.organization.id}/api-keys`, ada.token);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key.key);
    expect((list.json() as ApiKey[]).map((k) => k.name)).toContain('CI pipeline');

    // Only its hash is stored.
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key.key);
  });

  it('is for owners and admins: a member gets 403, another organization 404', async () => {
    const bea = await t.signup();
    await setRole(bea, 'member');
    const res = await call('POST', `/api/organizations/${bea.organization.id}/api-keys`, bea.token, {
      name: 'x',
    });
    expect(res.statusCode).toBe(403);
    await setRole(bea, 'admin');
    expect((await createKey(bea, 'admin key')).key).toMatch(/^crw_/);
    const foreign = await call('GET', `/api/organizations/${ada.organization.id}/api-keys`, bea.token);
    expect(foreign.statusCode).toBe(404);
  });

  it('refuses an empty name and an expiry in the past with 400', async () => {
    const url = `/api/organizations/${ada.organization.id}/api-keys`;
    expect((await call('POST', url, ada.token, { name: ' ' })).statusCode).toBe(400);
    const past = await call('POST', url, ada.token, { name: 'old', expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('The expiry must be in the future');
  });

  it('is not offered on the Starter plan (402)', async () => {
    const cy = await t.signup();
    await t.db
      .update(subscriptions)
      .set({ plan: 'starter', subscriptionStatus: 'active', trialEndsAt: null, currentPeriodEnd: null })
      .where(eq(subscriptions.organizationId, cy.organization.id));
    const res = await call('POST', `/api/organizations/${cy.organization.id}/api-keys`, cy.token, {
      name: 'x',
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'plan_limit', limit: 'api_access', plan: 'starter' });
  });
});

describe('calling the API with a key', () => {
  it('lists and executes a workflow and reads the run, as its creator', async () => {
    const list = await call('GET', '/api/workflows', key.key);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((w: { id: string }) => w.id)).toContain(workflowId);
    const run = await call('POST', `/api/workflows/${workflowId}/execute`, key.key, { input: { q: 'hi' } });
    expect(run.statusCode, run.body).toBe(202);
    expect(run.json().triggeredBy).toBe(ada.user.id);
    const read = await call('GET', `/api/executions/${run.json().id}`, key.key);
    expect(read.statusCode).toBe(200);
    expect((await waitForRunEnd(t, key.key, run.json().id)).status).toBe('completed');

    const listed = await call('GET', `/api/organizations/${ada.organization.id}/api-keys`, ada.token);
    const used = (listed.json() as ApiKey[]).find((k) => k.id === key.id)!;
    expect(used.lastUsedAt).not.toBeNull();
  });

  it('never has admin, owner or account powers', async () => {
    const org = ada.organization.id;
    const refused: [Method, string, object?][] = [
      ['GET', `/api/organizations/${org}/api-keys`],
      ['POST', `/api/organizations/${org}/api-keys`, { name: 'more' }],
      ['DELETE', `/api/organizations/${org}/api-keys/${key.id}`],
      ['GET', `/api/organizations/${org}/members`],
      ['POST', `/api/organizations/${org}/invitations`, { email: 'x@example.com', role: 'member' }],
      ['POST', '/api/create-subscription', { planId: 'starter', amount: 1900 }],
      ['POST', '/api/cancel-subscription'],
      ['GET', '/api/tools/configurations'],
      ['PUT', '/api/tools/configurations/openai_config', { config: { apiKey: 'sk-x' } }],
      ['GET', '/api/auth/me'],
      ['POST', '/api/auth/logout'],
      ['POST', '/api/auth/change-password', { currentPassword: 'secret123', newPassword: 'secret1234' }],
    ];
    for (const [method, url, payload] of refused) {
      const res = await call(method, url, key.key, payload);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 403 });
    }
  });

  it('sees nothing of another organization', async () => {
    const bob = await t.signup();
    const theirs = await createAgent(t, bob.token, { name: 'Theirs' });
    const theirFlow = await createChainWorkflow(t, bob.token, 'Theirs', [theirs.id]);
    expect((await call('GET', `/api/workflows/${theirFlow}`, key.key)).statusCode).toBe(404);
    expect((await call('GET', `/api/agents/${theirs.id}`, key.key)).statusCode).toBe(404);
    const agents = await call('GET', '/api/agents', key.key);
    expect(agents.body).not.toContain(theirs.id);
  });

  it('answers 401 for an unknown, revoked or expired key, and when its creator left', async () => {
    expect((await call('GET', '/api/workflows', 'crw_not-a-real-key')).statusCode).toBe(401);

    const revoked = await createKey(ada, 'to revoke');
    expect((await call('GET', '/api/workflows', revoked.key)).statusCode).toBe(200);
    const del = await call(
      'DELETE',
      `/api/organizations/${ada.organization.id}/api-keys/${revoked.id}`,
      ada.token,
    );
    expect(del.statusCode).toBe(204);
    const after = await call('GET', '/api/workflows', revoked.key);
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe('Invalid or expired API key');
    const list = await call('GET', `/api/organizations/${ada.organization.id}/api-keys`, ada.token);
    expect((list.json() as ApiKey[]).some((k) => k.id === revoked.id)).toBe(false);

    const expiring = await createKey(ada, 'short', {
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect((await call('GET', '/api/workflows', expiring.key)).statusCode).toBe(200);
    await t.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, expiring.id));
    expect((await call('GET', '/api/workflows', expiring.key)).statusCode).toBe(401);

    const dee = await t.signup();
    const deesKey = await createKey(dee, 'leaver');
    await t.db
      .delete(userOrganizations)
      .where(
        and(
          eq(userOrganizations.userId, dee.user.id),
          eq(userOrganizations.organizationId, dee.organization.id),
        ),
      );
    expect((await call('GET', '/api/workflows', deesKey.key)).statusCode).toBe(401);
  });

  it('stops working with 402 when the plan no longer includes API access', async () => {
    const eve = await t.signup();
    const evesKey = await createKey(eve, 'downgraded');
    await t.db
      .update(subscriptions)
      .set({ plan: 'starter', subscriptionStatus: 'active', trialEndsAt: null, currentPeriodEnd: null })
      .where(eq(subscriptions.organizationId, eve.organization.id));
    const res = await call('GET', '/api/workflows', evesKey.key);
    expect(res.statusCode).toBe(402);
    expect(res.json().limit).toBe('api_access');
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past API_KEY_MAX_PER_MINUTE, per key', async () => {
    const limited = await createTestApp({ config: { ...testConfig(), apiKeyMaxPerMinute: 3 } });
    try {
      const who = await limited.signup();
      const create = (name: string) =>
        limited.request({
          method: 'POST',
          url: `/api/organizations/${who.organization.id}/api-keys`,
          token: who.token,
          payload: { name },
        });
      const first = (await create('one')).json().key as string;
      const second = (await create('two')).json().key as string;
      const get = (token: string) => limited.request({ method: 'GET', url: '/api/agents', token });
      for (let i = 0; i < 3; i++) expect((await get(first)).statusCode).toBe(200);
      const over = await get(first);
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await get(second)).statusCode).toBe(200);
      // A signed-in session is not limited by the key's window.
      expect((await get(who.token)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
