import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentTools, tools } from '@crewline/db';
import { linkConfigMessages, type AuthResponse, type CreatedApiKey } from '@crewline/contracts';
import { configureModel, createAgent, joinOrganization } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { modelToolName } from './runtime/tool-runtime';

// Credentials stay where admins (or the tool's author) put them (docs/security.md, Credentials). Each
// variant plants a canary key, lets a member (or an organization API key, which acts as one) point the
// tool elsewhere, makes an agent call the tool, and proves the canary never reached that other host.

/** What a server was sent: its path, Authorization header and the whole request as text. */
type Seen = { url?: string; auth?: string; raw: string };

/** A local server that records every request, answering SendGrid's 202 or a small JSON body. */
async function recorder() {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({
        url: req.url,
        auth: req.headers.authorization,
        raw: `${req.url} ${JSON.stringify(req.headers)} ${body}`,
      });
      if (req.url === '/v3/mail/send') return res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

let t: TestApp;
let fake: FakeLlmServer;
// The address an admin set (the organization's SendGrid connection, an admin's API tool) and a host
// nobody with the right to set a credential chose; both are reached through the test allow-list.
let trusted: Awaited<ReturnType<typeof recorder>>;
let attacker: Awaited<ReturnType<typeof recorder>>;
let ada: AuthResponse;
let bea: AuthResponse;
let apiKey: CreatedApiKey;

const ORG_SENDGRID_KEY = 'SG.canary-organization-sendgrid-4d7e1a9c';

beforeAll(async () => {
  fake = await startFakeLlmServer();
  trusted = await recorder();
  attacker = await recorder();
  t = await createTestApp();
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  const sendgrid = await t.request({
    method: 'PUT',
    url: '/api/tools/configurations/sendgrid_config',
    token: ada.token,
    payload: { config: { apiKey: ORG_SENDGRID_KEY, fromEmail: 'bot@acme.test', baseUrl: trusted.url } },
  });
  expect(sendgrid.statusCode).toBe(200);
  bea = await joinOrganization(t, ada, await t.signup(), 'member');
  const created = await t.request({
    method: 'POST',
    url: `/api/organizations/${ada.organization.id}/api-keys`,
    token: ada.token,
    payload: { name: 'CI' },
  });
  expect(created.statusCode).toBe(201);
  apiKey = created.json();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await trusted?.close();
  await attacker?.close();
});
beforeEach(() => {
  fake.reset();
  trusted.seen.length = 0;
  attacker.seen.length = 0;
});

/** The canary, as it may travel: plain, in a Bearer value, base64. */
function expectNeverAtAttacker(canary: string) {
  for (const form of [canary, Buffer.from(canary).toString('base64')]) {
    expect(attacker.seen.filter((request) => request.raw.includes(form))).toEqual([]);
  }
}

/** An admin's `api` tool on the trusted address with its key (the canary). */
async function adminApiTool(canary: string) {
  const res = await t.request({
    method: 'POST',
    url: '/api/tools',
    token: ada.token,
    payload: { name: 'Orders API', category: 'api', config: { baseUrl: trusted.url, apiKey: canary } },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; name: string; config: Record<string, unknown> };
}

describe.each([
  ['a member', () => bea.token],
  ['an organization API key (crw_…)', () => apiKey.key],
])('as %s', (_who, token) => {
  const request = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.request({ method, url, token: token(), payload });

  async function agentWith(tool: { id: string }, config: Record<string, unknown> = {}) {
    const agent = await createAgent(t, token(), { name: 'Runner' });
    const link = await request('POST', `/api/agents/${agent.id}/tools/${tool.id}`, { config });
    expect(link.statusCode, link.body).toBe(201);
    return agent;
  }

  /** The agent's test, where the model calls the tool once with `args`; answers the test's body. */
  async function callTool(
    agentId: string,
    tool: { id: string; name: string },
    args: Record<string, unknown>,
  ) {
    fake.script([{ toolCalls: [{ name: modelToolName(tool), arguments: args }] }, { content: 'Done.' }]);
    const res = await request('POST', `/api/agents/${agentId}/test`, { input: 'Go' });
    expect(res.statusCode, res.body).toBe(200);
    return res.body;
  }

  it('an email tool with its own baseUrl sends through the organization’s SendGrid address', async () => {
    const created = await request('POST', '/api/tools', {
      name: 'Mailer',
      category: 'communication',
      config: { baseUrl: attacker.url },
    });
    expect(created.statusCode).toBe(201);
    const tool = created.json();
    const agent = await agentWith(tool);

    const body = await callTool(agent.id, tool, { to: 'ops@acme.test', subject: 'Hi', text: 'Hello' });

    expect(attacker.seen).toEqual([]);
    expectNeverAtAttacker(ORG_SENDGRID_KEY);
    expect(trusted.seen.map((r) => [r.url, r.auth])).toEqual([
      ['/v3/mail/send', `Bearer ${ORG_SENDGRID_KEY}`],
    ]);
    expect(body).not.toContain(ORG_SENDGRID_KEY);
  });

  it('a link’s config cannot change the destination or hold credentials (400), nor do older ones', async () => {
    const canary = `canary-link-key-${token().slice(0, 4)}-8e3f0b2d`;
    const tool = await adminApiTool(canary);
    const agent = await createAgent(t, token(), { name: 'Linker' });
    const url = `/api/agents/${agent.id}/tools/${tool.id}`;

    const redirected = await request('POST', url, { config: { baseUrl: attacker.url } });
    expect(redirected.statusCode).toBe(400);
    expect(redirected.json()).toMatchObject({
      message: linkConfigMessages.destination('baseUrl'),
      errors: [{ path: 'config.baseUrl', message: linkConfigMessages.destination('baseUrl') }],
    });
    expect(redirected.json().message).toBe(
      'An agent\'s tool settings cannot change where the tool connects or its headers ("baseUrl"): set them on the tool itself.',
    );
    const keyed = await request('POST', url, { config: { query: { api_key: 'sk-mine' } } });
    expect(keyed.statusCode).toBe(400);
    expect(keyed.json().message).toBe(
      'An agent\'s tool settings cannot hold credentials ("query.api_key"): set them on the tool itself.',
    );
    expect((await request('POST', url, { config: { authHeader: 'X-Leak' } })).statusCode).toBe(400);

    expect((await request('POST', url, { config: { units: 'metric' } })).statusCode).toBe(201);
    const changed = await request('PUT', url, { config: { units: 'metric', url: attacker.url } });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().message).toBe(linkConfigMessages.destination('url'));

    // A link stored before the rule: its key and destination are neither shown nor used.
    await t.db
      .update(agentTools)
      .set({ config: { units: 'metric', baseUrl: attacker.url, authHeader: 'X-Leak', apiKey: 'legacy-key' } })
      .where(eq(agentTools.agentId, agent.id));
    const links = await request('GET', `/api/agents/${agent.id}/tools`);
    expect(links.json()).toEqual([expect.objectContaining({ config: { units: 'metric' } })]);

    await callTool(agent.id, tool, { path: 'orders' });

    expect(attacker.seen).toEqual([]);
    expectNeverAtAttacker(canary);
    expect(trusted.seen.map((r) => [r.url, r.auth])).toEqual([['/orders', `Bearer ${canary}`]]);
  });

  it('a PUT that changes only the destination drops the stored key', async () => {
    const canary = `canary-put-key-${token().slice(0, 4)}-5a1c7e94`;
    const tool = await adminApiTool(canary);
    const sealed = (await t.db.select().from(tools).where(eq(tools.id, tool.id)))[0].credentials;

    // Another description, the mask sent back and the same address: the key stays.
    const described = await request('PUT', `/api/tools/${tool.id}`, {
      description: 'Reads orders',
      config: tool.config,
    });
    expect(described.json().config).toEqual(tool.config);
    expect((await t.db.select().from(tools).where(eq(tools.id, tool.id)))[0].credentials).toEqual(sealed);

    // The edit form's body: the new address with the mask sent back. The key is not kept.
    const moved = await request('PUT', `/api/tools/${tool.id}`, {
      config: { ...tool.config, baseUrl: `${attacker.url}/` },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().config).toEqual({ baseUrl: `${attacker.url}/` });
    expect((await t.db.select().from(tools).where(eq(tools.id, tool.id)))[0].credentials).toEqual({});

    const agent = await agentWith(tool);
    await callTool(agent.id, tool, { path: 'orders' });

    expect(attacker.seen.map((r) => [r.url, r.auth])).toEqual([['/orders', undefined]]);
    expectNeverAtAttacker(canary);
    expect(trusted.seen).toEqual([]);
  });

  it('a PUT that changes only the category (and so the address) drops the stored key', async () => {
    const canary = `canary-category-key-${token().slice(0, 4)}-2f9d6b31`;
    const tool = await adminApiTool(canary);
    const moved = await request('PUT', `/api/tools/${tool.id}`, {
      category: 'custom',
      config: { ...tool.config, url: attacker.url },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().config).not.toHaveProperty('apiKey');

    const agent = await agentWith(tool);
    await callTool(agent.id, tool, { q: 'orders' });

    expect(attacker.seen.map((r) => r.auth)).toEqual([undefined]);
    expectNeverAtAttacker(canary);
  });

  it('a new destination keeps a key sent with it', async () => {
    const tool = await adminApiTool(`canary-replaced-${token().slice(0, 4)}-77c0e5a2`);
    const own = 'the-members-own-key-0001';
    const moved = await request('PUT', `/api/tools/${tool.id}`, {
      config: { baseUrl: attacker.url, apiKey: own },
    });
    expect(moved.json().config).toEqual({ baseUrl: attacker.url, apiKey: '••••••••0001' });
    const agent = await agentWith(tool);
    await callTool(agent.id, tool, { path: 'x' });
    expect(attacker.seen.map((r) => r.auth)).toEqual([`Bearer ${own}`]);
  });
});
