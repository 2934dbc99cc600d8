import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  apiKeys,
  auditEvents,
  microsoftTokens,
  organizationInvitations,
  userOrganizations,
} from '@crewline/db';
import {
  AUDIT_NEXT_CURSOR_HEADER,
  planPriceCents,
  type AuditAction,
  type AuditEvent,
  type AuthResponse,
} from '@crewline/contracts';
import { createAgent, createChainWorkflow, joinOrganization } from '../../testing/app-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * The audit log through every layer: each listed change writes one event in its own transaction,
 * with who did it, from which address and to what, never a secret; owners alone read it; its
 * filters, cursor, CSV export and retention.
 */

let t: TestApp;
let ada: AuthResponse;
const IP = '203.0.113.7';

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup({ firstName: 'Ada', lastName: 'Lovelace' });
});
afterAll(() => t?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object) =>
  t.request({
    method,
    url,
    token,
    remoteAddress: IP,
    payload: payload ?? (method === 'GET' ? undefined : {}),
  });

/** The organization's stored events of `action`, oldest first (read from the table, not the API). */
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

/** The one stored event of `action` on `targetId`: a second one fails the test. */
async function onlyEvent(organizationId: string, action: AuditAction, targetId?: string) {
  const rows = (await stored(organizationId, action)).filter((r) => !targetId || r.targetId === targetId);
  expect(rows, `${action} events`).toHaveLength(1);
  return rows[0];
}

async function list(who: AuthResponse, query = '') {
  const res = await call('GET', `/api/audit${query}`, who.token);
  expect(res.statusCode, res.body).toBe(200);
  return {
    items: res.json<AuditEvent[]>(),
    next: res.headers[AUDIT_NEXT_CURSOR_HEADER] as string | undefined,
  };
}

describe('what the log records', () => {
  it('records a password sign-in once, with the address it came from', async () => {
    const grace = await t.signup({ firstName: 'Grace', lastName: 'Hopper' });
    // A sign-up is not a sign-in: nothing yet.
    expect(await stored(grace.organization.id, 'auth.signed_in')).toEqual([]);
    const res = await call('POST', '/api/auth/login', '', { email: grace.user.email, password: 'secret123' });
    expect(res.statusCode, res.body).toBe(200);
    const failed = await call('POST', '/api/auth/login', '', {
      email: grace.user.email,
      password: 'wrong-password',
    });
    expect(failed.statusCode).toBe(401);
    const event = await onlyEvent(grace.organization.id, 'auth.signed_in');
    expect(event).toMatchObject({
      actorId: grace.user.id,
      actorName: 'Grace Hopper',
      targetType: 'user',
      targetId: grace.user.id,
      targetName: 'Grace Hopper',
      ip: IP,
      details: { method: 'password' },
    });
    expect(JSON.stringify(await stored(grace.organization.id))).not.toContain('secret123');
  });

  it('records invitations sent, accepted and revoked, role changes and removals, each once', async () => {
    const org = ada.organization.id;
    const jane = await t.signup({ firstName: 'Jane', lastName: 'Doe' });
    const janeHere = await joinOrganization(t, ada, jane, 'member');
    const invited = await onlyEvent(org, 'member.invited');
    expect(invited).toMatchObject({
      actorId: ada.user.id,
      actorName: 'Ada Lovelace',
      targetType: 'invitation',
      targetName: jane.user.email,
      details: { role: 'member' },
    });
    const accepted = await onlyEvent(org, 'invitation.accepted');
    expect(accepted).toMatchObject({
      actorId: jane.user.id,
      targetId: invited.targetId,
      details: { role: 'member' },
    });

    const changed = await call('PUT', `/api/organizations/${org}/members/${jane.user.id}`, ada.token, {
      role: 'admin',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await onlyEvent(org, 'member.role_changed')).toMatchObject({
      actorId: ada.user.id,
      targetType: 'member',
      targetId: jane.user.id,
      targetName: 'Jane Doe',
      ip: IP,
      details: { from: 'member', to: 'admin' },
    });
    // The same role again changes nothing, and records nothing.
    await call('PUT', `/api/organizations/${org}/members/${jane.user.id}`, ada.token, { role: 'admin' });
    await onlyEvent(org, 'member.role_changed');

    const sent = await call('POST', `/api/organizations/${org}/invitations`, ada.token, {
      email: 'later@example.com',
      role: 'member',
    });
    const revoked = await call(
      'DELETE',
      `/api/organizations/${org}/invitations/${sent.json().id}`,
      ada.token,
    );
    expect(revoked.statusCode).toBe(204);
    expect(await onlyEvent(org, 'invitation.revoked')).toMatchObject({
      targetId: sent.json().id,
      targetName: 'later@example.com',
    });

    const removed = await call('DELETE', `/api/organizations/${org}/members/${jane.user.id}`, ada.token);
    expect(removed.statusCode).toBe(204);
    expect(await onlyEvent(org, 'member.removed')).toMatchObject({
      actorId: ada.user.id,
      targetId: jane.user.id,
      targetName: 'Jane Doe',
      details: {},
    });
    expect(janeHere.organization.id).toBe(org);
  });

  it('records API keys created and revoked without the key', async () => {
    const org = ada.organization.id;
    const created = await call('POST', `/api/organizations/${org}/api-keys`, ada.token, { name: 'CI' });
    expect(created.statusCode).toBe(201);
    const { id, key, prefix } = created.json<{ id: string; key: string; prefix: string }>();
    await call('DELETE', `/api/organizations/${org}/api-keys/${id}`, ada.token);
    expect(await onlyEvent(org, 'api_key.created', id)).toMatchObject({
      targetName: 'CI',
      ip: IP,
      details: { prefix, expiresAt: null },
    });
    expect(await onlyEvent(org, 'api_key.revoked', id)).toMatchObject({ targetName: 'CI' });
    const all = JSON.stringify(await stored(org));
    expect(all).not.toContain(key);
    expect(all).not.toContain(key.slice(prefix.length));
  });

  it('records connections created and changed by the names of their fields, never their values', async () => {
    const org = ada.organization.id;
    const secret = 'sk-audit-secret-0123456789';
    const put = (config: object) =>
      call('PUT', '/api/tools/configurations/anthropic_config', ada.token, { config });
    expect((await put({ apiKey: secret })).statusCode).toBe(200);
    expect(
      (await put({ apiKey: 'sk-audit-other-9876543210', baseUrl: 'https://proxy.example.com' })).statusCode,
    ).toBe(200);
    expect(await onlyEvent(org, 'connection.created', 'anthropic_config')).toMatchObject({
      actorId: ada.user.id,
      targetType: 'connection',
      details: { fields: ['apiKey'], isActive: true },
    });
    expect(await onlyEvent(org, 'connection.updated', 'anthropic_config')).toMatchObject({
      details: { fields: ['apiKey', 'baseUrl'] },
    });
    const all = JSON.stringify(await stored(org));
    expect(all).not.toContain('sk-audit');
    expect(all).not.toContain('proxy.example.com');
  });

  it('records a Microsoft 365 mailbox disconnected once, without its tokens', async () => {
    const org = ada.organization.id;
    // Connected as the sign-in's callback stores it (sealed values stand in for the tokens).
    await t.db.insert(microsoftTokens).values({
      organizationId: org,
      accessToken: 'sealed-access-token-value',
      refreshToken: 'sealed-refresh-token-value',
      expiresOn: new Date(Date.now() + 3_600_000),
      accountInfo: { email: 'inbox@example.com' },
    });
    const disconnect = () => call('POST', '/api/auth/microsoft/disconnect', ada.token);
    expect((await disconnect()).statusCode).toBe(200);
    // Nothing left to disconnect: nothing more recorded.
    expect((await disconnect()).statusCode).toBe(200);
    expect(await onlyEvent(org, 'connection.deleted', 'microsoft365')).toMatchObject({
      actorId: ada.user.id,
      targetName: 'Microsoft 365',
      ip: IP,
    });
    expect(JSON.stringify(await stored(org))).not.toContain('token-value');
  });

  it('records activations, deactivations and publishing to MCP and chat (no password)', async () => {
    const org = ada.organization.id;
    const agent = await createAgent(t, ada.token, { name: 'Writer' });
    const workflowId = await createChainWorkflow(t, ada.token, 'Digest', [agent.id]);
    const setStatus = (status: string) => call('PUT', `/api/workflows/${workflowId}`, ada.token, { status });
    expect((await setStatus('paused')).statusCode).toBe(200);
    expect((await setStatus('active')).statusCode).toBe(200);
    expect(await onlyEvent(org, 'workflow.deactivated', workflowId)).toMatchObject({
      targetName: 'Digest',
      details: { from: 'active', to: 'paused' },
    });
    expect(await onlyEvent(org, 'workflow.activated', workflowId)).toMatchObject({
      ip: IP,
      details: { from: 'paused', to: 'active' },
    });

    const publish = (payload: object) =>
      call('PUT', `/api/workflows/${workflowId}/publishing`, ada.token, payload);
    const mcp = {
      enabled: true,
      toolName: 'digest',
      description: 'The digest',
      inputSchema: { type: 'object', properties: {} },
    };
    expect((await publish({ mcp })).statusCode).toBe(200);
    expect(await onlyEvent(org, 'publishing.mcp_changed', workflowId)).toMatchObject({
      details: { enabled: true, toolName: 'digest' },
    });
    const chat = {
      enabled: true,
      slug: 'audit-digest',
      name: 'Digest',
      access: 'password',
      password: 'hunter2-pass',
    };
    const res = await publish({ chat });
    expect(res.statusCode, res.body).toBe(200);
    expect(await onlyEvent(org, 'publishing.chat_changed', workflowId)).toMatchObject({
      details: { enabled: true, slug: 'audit-digest', access: 'password', passwordChanged: true },
    });
    expect(JSON.stringify(await stored(org))).not.toContain('hunter2');
  });

  it('records plan changes and a cancel by the owner', async () => {
    const grace = await t.signup();
    const org = grace.organization.id;
    const res = await call('POST', '/api/create-subscription', grace.token, {
      planId: 'starter',
      amount: planPriceCents('starter'),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await onlyEvent(org, 'billing.plan_changed')).toMatchObject({
      actorId: grace.user.id,
      targetType: 'subscription',
      targetName: 'starter',
      details: { from: 'professional', to: 'starter' },
    });
    expect((await call('POST', '/api/cancel-subscription', grace.token)).statusCode).toBe(200);
    expect(await onlyEvent(org, 'billing.subscription_canceled')).toMatchObject({
      actorId: grace.user.id,
      ip: IP,
    });
  });
});

describe('in the same transaction as the change', () => {
  it('a change refused inside its transaction leaves no event', async () => {
    const grace = await t.signup();
    const org = grace.organization.id;
    const agent = await createAgent(t, grace.token, { name: 'Writer' });
    const first = await createChainWorkflow(t, grace.token, 'One', [agent.id]);
    const second = await createChainWorkflow(t, grace.token, 'Two', [agent.id]);
    const mcp = { enabled: true, toolName: 'same', description: 'd', inputSchema: { type: 'object' } };
    const put = (id: string) => call('PUT', `/api/workflows/${id}/publishing`, grace.token, { mcp });
    expect((await put(first)).statusCode).toBe(200);
    // The tool name is taken: the upsert fails in its transaction, and so does its event.
    expect((await put(second)).statusCode).toBe(409);
    expect((await stored(org, 'publishing.mcp_changed')).map((e) => e.targetId)).toEqual([first]);
  });

  it('an event that cannot be written undoes the change', async () => {
    const grace = await t.signup();
    const org = grace.organization.id;
    // Only this organization's events fail (the test database is the file's own).
    await t.db.execute(
      sql.raw(`create function refuse_audit() returns trigger language plpgsql as $$
      begin if new.organization_id = '${org}' then raise exception 'audit refused'; end if; return new; end $$;
      create trigger refuse_audit before insert on audit_events for each row execute function refuse_audit();`),
    );
    try {
      const res = await call('POST', `/api/organizations/${org}/api-keys`, grace.token, { name: 'Doomed' });
      expect(res.statusCode).toBe(500);
      expect(await t.db.select().from(apiKeys).where(eq(apiKeys.organizationId, org))).toEqual([]);
    } finally {
      await t.db.execute(sql.raw('drop trigger refuse_audit on audit_events; drop function refuse_audit();'));
    }
  });
});

describe('who reads it', () => {
  it('answers owners; admins, members and API keys 403; another organization sees only its own', async () => {
    const grace = await t.signup();
    const admin = await joinOrganization(t, grace, await t.signup(), 'admin');
    const member = await joinOrganization(t, grace, await t.signup(), 'member');
    const key = (
      await call('POST', `/api/organizations/${grace.organization.id}/api-keys`, grace.token, { name: 'k' })
    ).json<{ key: string }>().key;
    for (const token of [admin.token, member.token, key]) {
      expect((await call('GET', '/api/audit', token)).statusCode).toBe(403);
      expect((await call('GET', '/api/audit.csv', token)).statusCode).toBe(403);
    }
    const { items } = await list(grace);
    expect(items.map((e) => e.action)).toContain('member.invited');
    const other = await t.signup();
    expect((await list(other)).items).toEqual([]);
  });
});

describe('reading it', () => {
  let owner: AuthResponse;
  beforeAll(async () => {
    owner = await t.signup({ firstName: 'Olive', lastName: 'Owner' });
    const org = owner.organization.id;
    for (const name of ['=HYPERLINK("http://evil.example")', 'plain, "quoted"', '+1', '-2', '@sum']) {
      await call('POST', `/api/organizations/${org}/api-keys`, owner.token, { name });
    }
    await call('PUT', '/api/tools/configurations/openai_config', owner.token, { config: { apiKey: 'sk-x' } });
  });

  it('pages newest first with an opaque cursor, filtered by action, actor and window', async () => {
    const first = await list(owner, '?limit=4');
    expect(first.items).toHaveLength(4);
    expect(first.items[0].action).toBe('connection.created');
    expect(first.next).toBeTruthy();
    const second = await list(owner, `?limit=4&cursor=${first.next}`);
    expect(second.items.map((e) => e.target.name)).toEqual([
      'plain, "quoted"',
      '=HYPERLINK("http://evil.example")',
    ]);
    expect(second.next).toBeUndefined();
    expect([...first.items, ...second.items].map((e) => e.actor)).toEqual(
      Array(6).fill({ id: owner.user.id, name: 'Olive Owner' }),
    );
    expect(first.items[0]).toMatchObject({ ip: IP, target: { type: 'connection', id: 'openai_config' } });

    const keys = await list(owner, '?action=api_key.created');
    expect(keys.items).toHaveLength(5);
    expect((await list(owner, `?actorId=${ada.user.id}`)).items).toEqual([]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(owner, `?from=${encodeURIComponent(future)}`)).items).toEqual([]);
    expect((await list(owner, `?to=${encodeURIComponent(future)}`)).items).toHaveLength(6);

    expect((await call('GET', '/api/audit?cursor=nonsense', owner.token)).statusCode).toBe(400);
    expect((await call('GET', '/api/audit?action=everything', owner.token)).statusCode).toBe(400);
    const backwards = await call(
      'GET',
      `/api/audit?from=${encodeURIComponent(future)}&to=2020-01-01T00:00:00Z`,
      owner.token,
    );
    expect(backwards.statusCode).toBe(400);
  });

  it('exports the filtered range as CSV, quoted and safe from formulas', async () => {
    const res = await call('GET', '/api/audit.csv?action=api_key.created', owner.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Time,Actor,Actor ID,Action,Action ID,Target type,Target ID,Target,IP,Details');
    expect(lines).toHaveLength(6);
    const targets = lines
      .slice(1)
      .map((line) => line.split(',Created an API key,api_key.created,api_key,')[1]);
    expect(targets.map((rest) => rest.slice(rest.indexOf(',') + 1, rest.lastIndexOf(`,${IP},`)))).toEqual([
      "'@sum",
      "'-2",
      "'+1",
      '"plain, ""quoted"""',
      `"'=HYPERLINK(""http://evil.example"")"`,
    ]);
    expect(lines[1]).toContain('Olive Owner');
  });
});

describe('retention', () => {
  it('prunes the events older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const grace = await t.signup();
    const org = grace.organization.id;
    await call('POST', `/api/organizations/${org}/api-keys`, grace.token, { name: 'old' });
    await call('POST', `/api/organizations/${org}/api-keys`, grace.token, { name: 'new' });
    await t.db
      .update(auditEvents)
      .set({ at: sql`now() - interval '366 days'` })
      .where(and(eq(auditEvents.organizationId, org), eq(auditEvents.targetName, 'old')));
    expect(await t.services.audit.prune()).toBeGreaterThanOrEqual(1);
    expect((await stored(org, 'api_key.created')).map((e) => e.targetName)).toEqual(['new']);
  });
});

describe('the actor name', () => {
  it('is kept when the user is gone', async () => {
    const grace = await t.signup({ firstName: 'Gone', lastName: 'Soon' });
    const org = grace.organization.id;
    await call('POST', `/api/organizations/${org}/invitations`, grace.token, {
      email: 'x@example.com',
      role: 'member',
    });
    await t.db.delete(organizationInvitations).where(eq(organizationInvitations.organizationId, org));
    await t.db.delete(userOrganizations).where(eq(userOrganizations.userId, grace.user.id));
    await t.db.execute(sql`delete from users where id = ${grace.user.id}`);
    const [event] = await stored(org, 'member.invited');
    expect(event).toMatchObject({ actorId: null, actorName: 'Gone Soon' });
  });
});
