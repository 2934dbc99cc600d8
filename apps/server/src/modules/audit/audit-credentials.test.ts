import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditEvents, tools } from '@crewline/db';
import type { AuditAction, AuthResponse } from '@crewline/contracts';
import { createAgent, createChainWorkflow } from '../../testing/app-fixtures';
import { startFakeMcpOAuthServer, type FakeMcpOAuthServer } from '../../testing/fake-mcp-oauth-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * The audit log's credentials beyond model connections (docs/product-rules.md, Audit log): tools
 * holding a credential, MCP server connections and their OAuth sign-ins, webhook secrets, and who
 * made a change with an API key. Each change writes one event in its own transaction, by the names
 * of what changed, never a value.
 */

let t: TestApp;
let oauth: FakeMcpOAuthServer;
const IP = '198.51.100.23';

beforeAll(async () => {
  oauth = await startFakeMcpOAuthServer();
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await oauth?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
async function call(method: Method, url: string, token: string, payload?: object) {
  return t.request({
    method,
    url,
    token,
    remoteAddress: IP,
    payload: payload ?? (method === 'GET' ? undefined : {}),
  });
}
async function ok(method: Method, url: string, token: string, payload?: object) {
  const res = await call(method, url, token, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res;
}

/** The organization's stored events (of `action`), oldest first, read from the table. */
const stored = (organizationId: string, action?: AuditAction) =>
  t.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.organizationId, organizationId),
        action ? eq(auditEvents.action, action) : undefined,
      ),
    )
    .orderBy(auditEvents.at, auditEvents.id);

/** The organization's actions on `targetId`, oldest first. */
const actionsOn = async (organizationId: string, targetId: string) =>
  (await stored(organizationId)).filter((e) => e.targetId === targetId).map((e) => e.action);

describe('tools holding a credential', () => {
  it('records one added, changed and removed by the names of the fields, never a value', async () => {
    const ada = await t.signup({ firstName: 'Ada', lastName: 'Lovelace' });
    const org = ada.organization.id;
    const first = 'sk-tool-secret-first-0123456789';
    const second = 'sk-tool-secret-second-9876543210';
    const created = await ok('POST', '/api/tools', ada.token, {
      name: 'Orders API',
      category: 'api',
      config: { baseUrl: 'https://orders.example.com', apiKey: first },
    });
    const id = created.json<{ id: string }>().id;
    await ok('PUT', `/api/tools/${id}`, ada.token, {
      config: { baseUrl: 'https://orders-v2.example.com', apiKey: second },
    });
    await ok('PUT', `/api/tools/${id}`, ada.token, { description: 'Orders, read only' });
    // Saving what is there (the key sent back as its mask) changes nothing and records nothing.
    const listed = (await ok('GET', '/api/tools', ada.token)).json<{ id: string; config: object }[]>();
    await ok('PUT', `/api/tools/${id}`, ada.token, { config: listed.find((x) => x.id === id)!.config });
    await ok('DELETE', `/api/tools/${id}`, ada.token);

    const events = (await stored(org)).filter((e) => e.targetId === id);
    expect(events.map((e) => e.action)).toEqual([
      'tool.created',
      'tool.updated',
      'tool.updated',
      'tool.deleted',
    ]);
    expect(events[0]).toMatchObject({
      actorId: ada.user.id,
      actorName: 'Ada Lovelace',
      targetType: 'tool',
      targetName: 'Orders API',
      ip: IP,
      details: { category: 'api', fields: ['apiKey', 'baseUrl'] },
    });
    expect(events[1].details).toEqual({ category: 'api', fields: ['apiKey', 'baseUrl'] });
    expect(events[2].details).toEqual({ category: 'api', fields: ['description'] });
    expect(events[3]).toMatchObject({ targetName: 'Orders API', details: { category: 'api' } });
    const all = JSON.stringify(await stored(org));
    expect(all).not.toContain('sk-tool-secret');
    expect(all).not.toContain('orders.example.com');
    expect(all).not.toContain('orders-v2');
  });

  it('records nothing for a tool that never held a credential, and a credential added to one', async () => {
    const grace = await t.signup();
    const org = grace.organization.id;
    const created = await ok('POST', '/api/tools', grace.token, {
      name: 'Search',
      category: 'web',
      config: { baseUrl: 'https://search.example.com' },
    });
    const id = created.json<{ id: string }>().id;
    await ok('PUT', `/api/tools/${id}`, grace.token, { name: 'Web search' });
    expect(await actionsOn(org, id)).toEqual([]);
    await ok('PUT', `/api/tools/${id}`, grace.token, {
      config: { baseUrl: 'https://search.example.com', apiKey: 'sk-added-later-55555' },
    });
    expect(await stored(org, 'tool.updated')).toMatchObject([
      { targetId: id, targetName: 'Web search', details: { category: 'web', fields: ['apiKey'] } },
    ]);
    expect(JSON.stringify(await stored(org))).not.toContain('sk-added-later');
  });

  it('an event that cannot be written keeps the tool', async () => {
    const grace = await t.signup();
    const org = grace.organization.id;
    const created = await ok('POST', '/api/tools', grace.token, {
      name: 'Kept',
      category: 'api',
      config: { apiKey: 'sk-kept-1234567890' },
    });
    const id = created.json<{ id: string }>().id;
    await t.db.execute(
      sql.raw(`create function refuse_tool_audit() returns trigger language plpgsql as $$
      begin if new.organization_id = '${org}' then raise exception 'audit refused'; end if; return new; end $$;
      create trigger refuse_tool_audit before insert on audit_events for each row execute function refuse_tool_audit();`),
    );
    try {
      expect((await call('DELETE', `/api/tools/${id}`, grace.token)).statusCode).toBe(500);
      expect(await t.db.select({ id: tools.id }).from(tools).where(eq(tools.id, id))).toEqual([{ id }]);
    } finally {
      await t.db.execute(
        sql.raw('drop trigger refuse_tool_audit on audit_events; drop function refuse_tool_audit();'),
      );
    }
  });
});

describe('MCP server connections', () => {
  /** A whole OAuth sign-in through the admin's browser (as mcp-oauth.app.test.ts does it). */
  async function signIn(token: string, id: string) {
    const start = await ok('GET', `/api/tools/${id}/mcp-authorize`, token);
    const cookie = String(start.headers['set-cookie']).split(';')[0];
    const answer = await fetch(start.json<{ authUrl: string }>().authUrl, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location')!);
    const callback = await t.request({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie },
      remoteAddress: IP,
    });
    expect(callback.body).toContain('MCP server connected');
  }

  it('records one added, signed in, moved (signed out) and removed, never a token', async () => {
    const ada = await t.signup({ firstName: 'Ada', lastName: 'Byron' });
    const org = ada.organization.id;
    const created = await ok('POST', '/api/tools', ada.token, {
      name: 'Accounts',
      category: 'mcp',
      config: { url: oauth.url, auth: 'oauth' },
    });
    const id = created.json<{ id: string }>().id;
    await signIn(ada.token, id);
    expect(oauth.bearerTokens.length).toBeGreaterThan(0);
    // Another address: the sign-in is bound to its server, so it is forgotten with the move.
    await ok('PUT', `/api/tools/${id}`, ada.token, {
      config: { url: `${oauth.origin}/other`, auth: 'oauth' },
    });
    await ok('DELETE', `/api/tools/${id}`, ada.token);

    // The move's change and sign-out share a transaction (and its time): their order is not kept.
    expect((await actionsOn(org, id)).sort()).toEqual([
      'mcp_server.created',
      'mcp_server.deleted',
      'mcp_server.signed_in',
      'mcp_server.signed_out',
      'mcp_server.updated',
    ]);
    const events = (await stored(org)).filter((e) => e.targetId === id);
    for (const event of events)
      expect(event).toMatchObject({
        actorId: ada.user.id,
        actorName: 'Ada Byron',
        targetType: 'mcp_server',
        targetName: 'Accounts',
        ip: IP,
      });
    const details = (action: AuditAction) => events.find((e) => e.action === action)?.details;
    expect(details('mcp_server.created')).toEqual({ category: 'mcp', fields: ['auth', 'url'] });
    expect(details('mcp_server.updated')).toEqual({ category: 'mcp', fields: ['url'] });
    expect(details('mcp_server.signed_in')).toEqual({});
    const all = JSON.stringify(await stored(org));
    for (const token of oauth.bearerTokens) expect(all).not.toContain(token);
    expect(all).not.toContain('127.0.0.1');
  });

  it('records a header credential by its field names, not its value', async () => {
    const grace = await t.signup();
    const org = grace.organization.id;
    const created = await ok('POST', '/api/tools', grace.token, {
      name: 'Docs',
      category: 'mcp',
      config: { url: 'https://mcp.example.com/mcp' },
      credentials: { headerName: 'Authorization', headerValue: 'Bearer mcp-header-secret-777' },
    });
    const id = created.json<{ id: string }>().id;
    expect(await stored(org, 'mcp_server.created')).toMatchObject([
      { targetId: id, details: { category: 'mcp', fields: ['headerName', 'headerValue', 'url'] } },
    ]);
    expect(JSON.stringify(await stored(org))).not.toContain('mcp-header-secret');
  });
});

describe('webhook secrets', () => {
  it('records one generated, rotated, set and removed, never the secret', async () => {
    const ada = await t.signup({ firstName: 'Ada', lastName: 'Hook' });
    const org = ada.organization.id;
    const agent = await createAgent(t, ada.token, { name: 'Hooked' });
    const id = await createChainWorkflow(t, ada.token, 'Inbound', [agent.id], { triggerType: 'webhook' });
    const revealed = (await ok('GET', `/api/workflows/${id}/webhook-secret`, ada.token)).json<{
      secret: string;
    }>().secret;
    const rotated = (await ok('POST', `/api/workflows/${id}/webhook-secret`, ada.token)).json<{
      secret: string;
    }>().secret;
    expect(rotated).not.toBe(revealed);
    // A save that leaves the secret alone (the mask sent back) records nothing.
    await ok('PUT', `/api/workflows/${id}`, ada.token, { triggerConfig: { secret: '••••••••' } });
    await ok('PUT', `/api/workflows/${id}`, ada.token, { name: 'Inbound orders' });
    const typed = `typed-audit-secret-${'z'.repeat(24)}`;
    await ok('PUT', `/api/workflows/${id}`, ada.token, { triggerConfig: { secret: typed } });
    await ok('PUT', `/api/workflows/${id}`, ada.token, { triggerType: 'manual', triggerConfig: {} });

    expect(await actionsOn(org, id)).toEqual([
      'webhook_secret.generated',
      'webhook_secret.rotated',
      'webhook_secret.set',
      'webhook_secret.removed',
    ]);
    const events = (await stored(org)).filter((e) => e.targetId === id);
    expect(events[0]).toMatchObject({ actorId: ada.user.id, targetType: 'workflow', targetName: 'Inbound' });
    expect(events[1]).toMatchObject({ actorName: 'Ada Hook', ip: IP, targetName: 'Inbound' });
    expect(events[3]).toMatchObject({ targetName: 'Inbound orders', ip: IP });
    const all = JSON.stringify(await stored(org));
    for (const secret of [revealed, rotated, typed]) expect(all).not.toContain(secret);
  });

  it('records a secret typed at creation as set, and generates one for an old workflow on reveal', async () => {
    const grace = await t.signup();
    const org = grace.organization.id;
    const agent = await createAgent(t, grace.token, { name: 'Hooked' });
    const typed = `typed-at-creation-${'y'.repeat(24)}`;
    const withTyped = await createChainWorkflow(t, grace.token, 'Typed', [agent.id], {
      triggerType: 'webhook',
      triggerConfig: { secret: typed },
    });
    expect(await actionsOn(org, withTyped)).toEqual(['webhook_secret.set']);
    // A webhook workflow from before secrets existed has none: revealing it makes one.
    const old = await createChainWorkflow(t, grace.token, 'Old', [agent.id], { triggerType: 'webhook' });
    await t.db.execute(sql`update workflows set webhook_secret = null where id = ${old}`);
    const made = (await ok('GET', `/api/workflows/${old}/webhook-secret`, grace.token)).json<{
      secret: string;
    }>().secret;
    await ok('GET', `/api/workflows/${old}/webhook-secret`, grace.token);
    expect(await actionsOn(org, old)).toEqual(['webhook_secret.generated', 'webhook_secret.generated']);
    const all = JSON.stringify(await stored(org));
    expect(all).not.toContain(typed);
    expect(all).not.toContain(made);
  });
});

describe('changes made with an API key', () => {
  it('are the key creator’s, with the key named in the details', async () => {
    const ada: AuthResponse = await t.signup({ firstName: 'Ada', lastName: 'Script' });
    const org = ada.organization.id;
    const key = (
      await ok('POST', `/api/organizations/${org}/api-keys`, ada.token, { name: 'Deploy bot' })
    ).json<{
      id: string;
      key: string;
    }>();
    const created = await ok('POST', '/api/tools', key.key, {
      name: 'Billing API',
      category: 'api',
      config: { apiKey: 'sk-by-script-24680' },
    });
    const byHand = await ok('POST', '/api/tools', ada.token, {
      name: 'Mail API',
      category: 'api',
      config: { apiKey: 'sk-by-hand-13579' },
    });
    const agent = await createAgent(t, ada.token, { name: 'Hooked' });
    const hook = await createChainWorkflow(t, ada.token, 'Hook', [agent.id], { triggerType: 'webhook' });
    await ok('POST', `/api/workflows/${hook}/webhook-secret`, key.key);
    await ok('PUT', `/api/workflows/${hook}`, key.key, { status: 'paused' });

    const [byKey] = await stored(org, 'tool.created').then((rows) =>
      rows.filter((e) => e.targetId === created.json<{ id: string }>().id),
    );
    expect(byKey).toMatchObject({
      actorId: ada.user.id,
      actorName: 'Ada Script',
      ip: IP,
      details: {
        category: 'api',
        fields: ['apiKey'],
        via: 'api_key',
        apiKeyId: key.id,
        apiKeyName: 'Deploy bot',
      },
    });
    const [own] = (await stored(org, 'tool.created')).filter(
      (e) => e.targetId === byHand.json<{ id: string }>().id,
    );
    expect(own.details).toEqual({ category: 'api', fields: ['apiKey'] });
    for (const action of ['webhook_secret.rotated', 'workflow.deactivated'] as const)
      expect((await stored(org, action))[0].details, action).toMatchObject({
        via: 'api_key',
        apiKeyId: key.id,
        apiKeyName: 'Deploy bot',
      });
    const all = JSON.stringify(await stored(org));
    expect(all).not.toContain(key.key);
    expect(all).not.toContain('sk-by-');
  });
});
