import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse, McpToolList } from '@crewline/contracts';
import {
  configureModel,
  createAgent,
  createChainWorkflow,
  expectNeverAnswered,
  joinOrganization,
  waitForRunEnd,
} from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { startFakeMcpOAuthServer, type FakeMcpOAuthServer } from '../../testing/fake-mcp-oauth-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * MCP connections that sign in with OAuth 2.1 (docs/product-rules.md, MCP: servers as tools): an
 * admin's sign-in in the browser (discovery, registration, PKCE, the RFC 8707 resource, bound to the
 * browser), then runs on the stored tokens, refreshed when they expire; a refused refresh marks the
 * connection for reconnecting. The fake server checks each step as a real one does.
 */

let t: TestApp;
let llm: FakeLlmServer;
let oauth: FakeMcpOAuthServer;
let ada: AuthResponse;

beforeAll(async () => {
  [llm, oauth] = await Promise.all([startFakeLlmServer(), startFakeMcpOAuthServer()]);
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
  await configureModel(t, ada.token, llm.url);
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
  await oauth?.close();
});
beforeEach(() => llm.reset());

async function newConnection(name = 'Accounts') {
  const created = await t.request({
    method: 'POST',
    url: '/api/tools',
    token: ada.token,
    payload: { name, category: 'mcp', config: { url: oauth.url, auth: 'oauth' } },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id as string;
}

const toolsOf = async (id: string): Promise<McpToolList> =>
  (await t.request({ method: 'GET', url: `/api/tools/${id}/mcp-tools`, token: ada.token })).json();

/** Starts the sign-in as the admin's browser does: the authorization URL and the binding cookie. */
async function startSignIn(id: string, token = ada.token) {
  const res = await t.request({ method: 'GET', url: `/api/tools/${id}/mcp-authorize`, token });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = String(res.headers['set-cookie']).split(';')[0];
  return { authUrl: new URL(res.json().authUrl as string), cookie };
}

/** The authorization server approves at once; its redirect comes back to our callback. */
async function approveAt(authUrl: URL) {
  const answer = await fetch(authUrl, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe('http://localhost:5000/api/mcp-oauth/callback');
  return `${back.pathname}${back.search}`;
}

/** A whole sign-in; answers the authorization URL the browser was sent to. */
async function signIn(id: string) {
  const { authUrl, cookie } = await startSignIn(id);
  const callback = await t.request({ method: 'GET', url: await approveAt(authUrl), headers: { cookie } });
  expect(callback.statusCode).toBe(200);
  expect(callback.body).toContain('MCP server connected');
  return authUrl;
}

async function agentRun(toolId: string, call: { name: string; arguments: Record<string, unknown> }) {
  const agent = await createAgent(t, ada.token, { name: `Clerk ${toolId.slice(0, 4)}` });
  const linked = await t.request({
    method: 'POST',
    url: `/api/agents/${agent.id}/tools/${toolId}`,
    token: ada.token,
    payload: { config: {}, approval: 'never' },
  });
  expect(linked.statusCode, linked.body).toBe(201);
  const workflowId = await createChainWorkflow(t, ada.token, `Accounts ${agent.id.slice(0, 4)}`, [agent.id]);
  return async () => {
    llm.reset();
    llm.script([{ toolCalls: [call] }, { echoToolResult: true }]);
    const res = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflowId}/execute`,
      token: ada.token,
      payload: { input: {} },
    });
    expect(res.statusCode, res.body).toBe(202);
    return waitForRunEnd(t, ada.token, res.json().id);
  };
}

describe('an MCP connection signed in with OAuth', () => {
  it('signs in through the admin’s browser, then its agents call the server with refreshed tokens', async () => {
    const id = await newConnection();
    // Not signed in: nothing is listed, and the listing says why.
    expect(await toolsOf(id)).toMatchObject({ tools: [], oauth: 'disconnected' });

    const authUrl = await signIn(id);
    // PKCE S256, the RFC 8707 resource and our callback; the client registered itself (RFC 7591).
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(oauth.url);
    expect(authUrl.searchParams.get('redirect_uri')).toBe('http://localhost:5000/api/mcp-oauth/callback');
    expect(oauth.refusals).toEqual([]);
    expect(oauth.counts.registrations).toBe(1);
    const listed = await toolsOf(id);
    expect(listed.oauth).toBe('connected');
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['lookup_account', 'whoami']);

    const run = await agentRun(id, { name: 'accounts__lookup_account', arguments: { number: '42' } });
    const first = await run();
    expect(first.status, first.error ?? '').toBe('completed');
    expect(first.result).toBe('Account 42: active');

    // An hour later the access token has expired: the refresh token gets a new one, and the run goes on.
    oauth.expireAccessTokens();
    const second = await run();
    expect(second.status, second.error ?? '').toBe('completed');
    expect(oauth.counts.refreshGrants).toBe(1);
    // A second sign-in reuses the registered client.
    await signIn(id);
    expect(oauth.counts.registrations).toBe(1);
  });

  it('marks the connection for reconnecting when the server refuses a refresh, and works again after it', async () => {
    const id = await newConnection('Ledger');
    await signIn(id);
    const run = await agentRun(id, { name: 'ledger__lookup_account', arguments: { number: '7' } });
    oauth.expireAccessTokens();
    oauth.refuseRefresh();
    try {
      const refused = await run();
      // The model was told, in words a person can act on; the run itself goes on (the model answers).
      expect(JSON.stringify(llm.requests.at(-1)?.body.messages)).toContain('needs signing in again');
      expect(refused.status).toBe('completed');
      expect((await toolsOf(id)).oauth).toBe('reconnect');
      const refreshed = await t.request({
        method: 'POST',
        url: `/api/tools/${id}/mcp-refresh`,
        token: ada.token,
      });
      expect(refreshed.json()).toMatchObject({ oauth: 'reconnect' });
      expect(refreshed.json().error).toContain('Reconnect');
    } finally {
      oauth.refuseRefresh(false);
    }
    await signIn(id);
    expect((await toolsOf(id)).oauth).toBe('connected');
    expect((await run()).result).toBe('Account 7: active');
  });

  it('finishes a sign-in only in the browser that started it, once, and only for an admin', async () => {
    const id = await newConnection('Bound');
    const { authUrl, cookie } = await startSignIn(id);
    const callback = await approveAt(authUrl);
    // Another browser (no cookie) spends the state without connecting anything.
    const elsewhere = await t.request({ method: 'GET', url: callback });
    expect(elsewhere.body).toContain('started in another browser');
    const replay = await t.request({ method: 'GET', url: callback, headers: { cookie } });
    expect(replay.body).toContain('expired or was already used');
    expect((await toolsOf(id)).oauth).toBe('disconnected');

    const ben = await joinOrganization(t, ada, await t.signup(), 'member');
    const refused = await t.request({
      method: 'GET',
      url: `/api/tools/${id}/mcp-authorize`,
      token: ben.token,
    });
    expect(refused.statusCode).toBe(403);
    const header = await t.request({
      method: 'POST',
      url: '/api/tools',
      token: ada.token,
      payload: { name: 'Plain', category: 'mcp', config: { url: oauth.url } },
    });
    const notOauth = await t.request({
      method: 'GET',
      url: `/api/tools/${header.json().id}/mcp-authorize`,
      token: ada.token,
    });
    expect(notOauth.statusCode).toBe(400);
    expect(notOauth.json().message).toBe('This MCP server connection does not use OAuth');
    // A server that offers no OAuth sign-in (no metadata to discover): a 400 that says so, not a 500.
    const noOauth = await t.request({
      method: 'POST',
      url: '/api/tools',
      token: ada.token,
      payload: { name: 'No OAuth', category: 'mcp', config: { url: `${llm.url}/mcp`, auth: 'oauth' } },
    });
    const started = await t.request({
      method: 'GET',
      url: `/api/tools/${noOauth.json().id}/mcp-authorize`,
      token: ada.token,
    });
    expect(started.statusCode, started.body).toBe(400);
    expect(started.json().message).toMatch(
      /^Could not start signing in to the MCP server at 127\.0\.0\.1:\d+: /,
    );
  });

  it('never passes the tokens on, even when the server echoes them', async () => {
    const id = await newConnection('Echoing');
    await signIn(id);
    const done = await (await agentRun(id, { name: 'echoing__whoami', arguments: {} }))();
    expect(done.status, done.error ?? '').toBe('completed');
    const sent = oauth.bearerTokens.at(-1)!.replace('Bearer ', '');
    expect(sent.length).toBeGreaterThan(20);
    expect(done.result).toBe('You sent Bearer ••••••••');
    expect(JSON.stringify(llm.requests)).not.toContain(sent);
    expectNeverAnswered(t, [sent]);
  });
});
