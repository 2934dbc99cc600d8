import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { oauthGrants, oauthTokens, subscriptions } from '@crewline/db';
import type { AuthResponse, OAuthGrant } from '@crewline/contracts';
import {
  configureModel,
  createAgent,
  createChainWorkflow,
  joinOrganization,
} from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testConfig } from '../../testing/test-config';

/*
 * Crewline as the OAuth 2.1 authorization server of its own MCP endpoint, driven by the SDK's own
 * client over the network (the app listens on a port, its public URL is that address): discovery,
 * dynamic registration, the consent (the test plays the browser and the signed-in member), the code
 * exchange, then `tools/list` on /mcp with the access token.
 */

let t: TestApp;
let fake: FakeLlmServer;
let base: string;
let ada: AuthResponse;
let bob: AuthResponse;

const REDIRECT = 'http://127.0.0.1:8976/callback';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function publish(who: AuthResponse, toolName: string) {
  await configureModel(t, who.token, fake.url);
  const agent = await createAgent(t, who.token, { name: `${toolName} writer` });
  const workflowId = await createChainWorkflow(t, who.token, toolName, [agent.id]);
  const res = await t.request({
    method: 'PUT',
    url: `/api/workflows/${workflowId}/publishing`,
    token: who.token,
    payload: {
      mcp: {
        enabled: true,
        toolName,
        description: `Runs ${toolName}`,
        inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The SDK's client side of the flow, kept in memory (docs/clients/oauth.md of the SDK). */
class MemoryProvider implements OAuthClientProvider {
  creds = new Map<string, OAuthClientInformationMixed>();
  stored?: OAuthTokens;
  verifier?: string;
  discovery?: OAuthDiscoveryState;
  lastState?: string;
  authorizationUrl?: URL;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'Claude',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation(ctx?: { issuer: string }) {
    return ctx ? this.creds.get(ctx.issuer) : undefined;
  }
  saveClientInformation(info: OAuthClientInformationMixed, ctx?: { issuer: string }) {
    if (ctx) this.creds.set(ctx.issuer, info);
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  state() {
    this.lastState = randomBytes(8).toString('hex');
    return this.lastState;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier');
    return this.verifier;
  }
}

/** The browser: follows the authorization URL to the consent page, and the member allows. */
async function consent(authorizationUrl: URL, who: AuthResponse, organizationId = who.organization.id) {
  const authorize = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const page = new URL(authorize.headers.get('location')!);
  expect(page.origin + page.pathname).toBe(`${base}/oauth/consent`);
  const q = page.searchParams;
  const info = await t.request({
    method: 'GET',
    url: `/api/oauth/consent?${new URLSearchParams({ clientId: q.get('client_id')!, redirectUri: q.get('redirect_uri')! })}`,
    token: who.token,
  });
  expect(info.statusCode, info.body).toBe(200);
  const allowed = await t.request({
    method: 'POST',
    url: '/api/oauth/consent',
    token: who.token,
    payload: {
      clientId: q.get('client_id'),
      redirectUri: q.get('redirect_uri'),
      codeChallenge: q.get('code_challenge'),
      state: q.get('state') ?? undefined,
      resource: q.get('resource') ?? undefined,
      organizationId,
      allow: true,
    },
  });
  expect(allowed.statusCode, allowed.body).toBe(200);
  return {
    clientName: info.json().clientName as string,
    redirectTo: new URL(allowed.json().redirectTo as string),
  };
}

/** The whole flow through the SDK's client: answers the provider holding the tokens and the tool names. */
async function connectWithOAuth(who: AuthResponse, organizationId?: string) {
  const provider = new MemoryProvider();
  const url = new URL(`${base}/mcp`);
  const first = new Client({ name: 'oauth-test', version: '1.0.0' });
  await expect(
    first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider })),
  ).rejects.toThrow(UnauthorizedError);
  expect(provider.authorizationUrl).toBeDefined();
  const { clientName, redirectTo } = await consent(provider.authorizationUrl!, who, organizationId);
  expect(clientName).toBe('Claude');
  expect(redirectTo.searchParams.get('state')).toBe(provider.lastState);
  expect(redirectTo.searchParams.get('iss')).toBe(base);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await transport.finishAuth(redirectTo.searchParams);
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  const { tools } = await client.listTools();
  await client.close();
  return { provider, tools: tools.map((tool) => tool.name) };
}

const form = (params: Record<string, string>) =>
  fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params),
  });

async function register(body: object = { client_name: 'Raw client', redirect_uris: [REDIRECT] }) {
  return fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A code for a fresh client by hand, with its PKCE verifier. */
async function codeFor(who: AuthResponse) {
  const clientId = ((await (await register()).json()) as { client_id: string }).client_id;
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorizationUrl = new URL(`${base}/oauth/authorize`);
  for (const [key, value] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz',
  })) {
    authorizationUrl.searchParams.set(key, value);
  }
  const { redirectTo } = await consent(authorizationUrl, who);
  return { clientId, verifier, code: redirectTo.searchParams.get('code')! };
}

const exchange = (c: { clientId: string; code: string; verifier: string }) =>
  form({
    grant_type: 'authorization_code',
    code: c.code,
    code_verifier: c.verifier,
    redirect_uri: REDIRECT,
    client_id: c.clientId,
  });

const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

const listTools = (token: string) =>
  fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

beforeAll(async () => {
  fake = await startFakeLlmServer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ config: { ...testConfig(), publicUrl: base } });
  await t.app.listen({ port, host: '127.0.0.1' });
  ada = await t.signup();
  bob = await t.signup();
  await publish(ada, 'ada_digest');
  await publish(bob, 'bob_report');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('metadata', () => {
  it('publishes the protected resource and the authorization server, as RFC 9728 and 8414 say', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        resource: `${base}/mcp`,
        authorization_servers: [base],
        bearer_methods_supported: ['header'],
      });
    }
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
    });
    // Browser-based clients (an inspector) may read them and call the token endpoint.
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(`${base}/oauth/token`, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers /mcp without a token 401 with a challenge naming the resource metadata', async () => {
    const res = await fetch(`${base}/mcp`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe('the SDK client through the whole flow', () => {
  it('discovers, registers, gets consent, exchanges the code and lists only its organization’s tools', async () => {
    const { provider, tools } = await connectWithOAuth(ada);
    expect(tools).toContain('ada_digest');
    expect(tools).not.toContain('bob_report');
    // Only hashes are stored.
    const stored = await t.db.select().from(oauthTokens);
    expect(JSON.stringify(stored)).not.toContain(provider.stored!.access_token);
    expect(JSON.stringify(stored)).not.toContain(provider.stored!.refresh_token!);

    const listed = await t.request({ method: 'GET', url: '/api/oauth/grants', token: ada.token });
    const grant = (listed.json() as OAuthGrant[]).find((g) => g.clientName === 'Claude')!;
    expect(grant).toMatchObject({ grantedBy: { id: ada.user.id }, canRevoke: true });
    expect(grant.lastUsedAt).not.toBeNull();
  });

  it('refuses a consent for an organization the member does not belong to', async () => {
    const provider = new MemoryProvider();
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider })),
    ).rejects.toThrow(UnauthorizedError);
    const page = new URL(
      (await fetch(provider.authorizationUrl!, { redirect: 'manual' })).headers.get('location')!,
    );
    const q = page.searchParams;
    const res = await t.request({
      method: 'POST',
      url: '/api/oauth/consent',
      token: ada.token,
      payload: {
        clientId: q.get('client_id'),
        redirectUri: q.get('redirect_uri'),
        codeChallenge: q.get('code_challenge'),
        organizationId: bob.organization.id,
        allow: true,
      },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('registration and authorization requests', () => {
  it('registers public clients with https or loopback redirect URIs only', async () => {
    const ok = await register({
      client_name: 'IDE',
      redirect_uris: ['https://ide.example.com/cb', 'http://localhost:3/cb'],
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ client_name: 'IDE', token_endpoint_auth_method: 'none' });
    for (const body of [
      { client_name: 'x', redirect_uris: ['http://evil.example.com/cb'] },
      { client_name: 'x', redirect_uris: [] },
      {
        client_name: 'x',
        redirect_uris: ['https://a.example.com/cb'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      { client_name: 'x', redirect_uris: ['https://a.example.com/cb'], grant_types: ['client_credentials'] },
    ]) {
      const res = await register(body);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatch(/^invalid_(client_metadata|redirect_uri)$/);
    }
  });

  it('never redirects to an address the client did not register', async () => {
    const clientId = ((await (await register()).json()) as { client_id: string }).client_id;
    const url = new URL(`${base}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: 'https://attacker.example.com/cb',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();

    // A registered address without PKCE: back to it with the error.
    url.searchParams.set('redirect_uri', REDIRECT);
    url.searchParams.delete('code_challenge');
    const noPkce = await fetch(url, { redirect: 'manual' });
    expect(noPkce.status).toBe(302);
    expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('sends Deny back as access_denied with state and iss', async () => {
    const clientId = ((await (await register()).json()) as { client_id: string }).client_id;
    const res = await t.request({
      method: 'POST',
      url: '/api/oauth/consent',
      token: ada.token,
      payload: { clientId, redirectUri: REDIRECT, codeChallenge: 'a'.repeat(43), state: 's1', allow: false },
    });
    const back = new URL(res.json().redirectTo);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 's1',
      iss: base,
    });
  });
});

describe('hostile requests to the protocol routes', () => {
  it('answers them below 500', async () => {
    const bodies: [string, string][] = [
      ['application/json', '[]'],
      ['application/json', 'null'],
      ['application/json', '{"redirect_uris":[{"a":1}],"client_name":["x"]}'],
      [
        'application/json',
        '{"redirect_uris":["https://a.example.com/cb"],"client_name":"' + 'x'.repeat(500) + '"}',
      ],
      ['application/x-www-form-urlencoded', 'grant_type=authorization_code&grant_type=refresh_token'],
      [
        'application/x-www-form-urlencoded',
        'grant_type=authorization_code&code=%00&code_verifier=x&redirect_uri=y&client_id=z',
      ],
      ['application/x-www-form-urlencoded', '%'],
      ['text/plain', 'hello'],
    ];
    for (const path of ['/oauth/register', '/oauth/token', '/oauth/revoke']) {
      for (const [contentType, body] of bodies) {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': contentType },
          body,
        });
        expect({ path, body, status: res.status < 500 }).toEqual({ path, body, status: true });
      }
    }
    const odd = await fetch(`${base}/oauth/authorize?client_id=%00&client_id=a&redirect_uri[]=x`, {
      redirect: 'manual',
    });
    expect(odd.status).toBe(400);
  });
});

describe('tokens', () => {
  it('refuses a wrong PKCE verifier with invalid_grant', async () => {
    const c = await codeFor(ada);
    const res = await exchange({ ...c, verifier: randomBytes(32).toString('base64url') });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe('invalid_grant');
  });

  it('takes a code once: the second use fails and revokes what the first gave', async () => {
    const c = await codeFor(ada);
    const first = await exchange(c);
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as { access_token: string; token_type: string; expires_in: number };
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect((await listTools(tokens.access_token)).status).toBe(200);
    const second = await exchange(c);
    expect(second.status).toBe(400);
    expect(await errorOf(second)).toBe('invalid_grant');
    expect((await listTools(tokens.access_token)).status).toBe(401);
  });

  it('rotates refresh tokens, and a reused one ends the grant', async () => {
    const c = await codeFor(ada);
    const pair = (await (await exchange(c)).json()) as { refresh_token: string; access_token: string };
    const rotated = await form({
      grant_type: 'refresh_token',
      refresh_token: pair.refresh_token,
      client_id: c.clientId,
    });
    expect(rotated.status).toBe(200);
    const next = (await rotated.json()) as { refresh_token: string; access_token: string };
    expect(next.refresh_token).not.toBe(pair.refresh_token);
    expect((await listTools(next.access_token)).status).toBe(200);

    const reused = await form({
      grant_type: 'refresh_token',
      refresh_token: pair.refresh_token,
      client_id: c.clientId,
    });
    expect(reused.status).toBe(400);
    expect(await errorOf(reused)).toBe('invalid_grant');
    expect((await listTools(next.access_token)).status).toBe(401);
    const again = await form({
      grant_type: 'refresh_token',
      refresh_token: next.refresh_token,
      client_id: c.clientId,
    });
    expect(again.status).toBe(400);
  });

  it('answers unsupported grant types and missing parameters as RFC 6749 says', async () => {
    const res = await form({ grant_type: 'password', client_id: 'x' });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe('unsupported_grant_type');
    const missing = await form({ grant_type: 'authorization_code', client_id: 'x' });
    expect(await errorOf(missing)).toBe('invalid_request');
  });

  it('revokes a refresh token by RFC 7009, ending its grant', async () => {
    const c = await codeFor(ada);
    const pair = (await (await exchange(c)).json()) as { refresh_token: string; access_token: string };
    const res = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: pair.refresh_token, client_id: c.clientId }),
    });
    expect(res.status).toBe(200);
    expect((await listTools(pair.access_token)).status).toBe(401);
  });

  it('stops an expired access token', async () => {
    const c = await codeFor(ada);
    const pair = (await (await exchange(c)).json()) as { access_token: string };
    const hash = createHash('sha256').update(pair.access_token).digest('hex');
    await t.db
      .update(oauthTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthTokens.tokenHash, hash));
    expect((await listTools(pair.access_token)).status).toBe(401);
  });
});

describe('the plan', () => {
  it('must include API access, as for an API key: a connected app of a downgraded organization gets 402', async () => {
    const eve = await t.signup();
    const c = await codeFor(eve);
    const pair = (await (await exchange(c)).json()) as { access_token: string };
    expect((await listTools(pair.access_token)).status).toBe(200);
    await t.db
      .update(subscriptions)
      .set({ plan: 'starter', subscriptionStatus: 'active', trialEndsAt: null, currentPeriodEnd: null })
      .where(eq(subscriptions.organizationId, eve.organization.id));
    const refused = await listTools(pair.access_token);
    expect(refused.status).toBe(402);
    expect(JSON.stringify(await refused.json())).toContain('API');
  });
});

describe('connected apps in Settings', () => {
  it('lists grants (admins all, members their own) and revokes them: the token stops at once', async () => {
    const cy = await joinOrganization(t, ada, await t.signup(), 'member');
    const cysCode = await codeFor(cy);
    const cysTokens = (await (await exchange(cysCode)).json()) as { access_token: string };
    const adasCode = await codeFor(ada);
    const adasTokens = (await (await exchange(adasCode)).json()) as { access_token: string };

    const mine = (
      await t.request({ method: 'GET', url: '/api/oauth/grants', token: cy.token })
    ).json() as OAuthGrant[];
    expect(mine.map((g) => g.grantedBy.id)).toEqual([cy.user.id]);
    const all = (
      await t.request({ method: 'GET', url: '/api/oauth/grants', token: ada.token })
    ).json() as OAuthGrant[];
    expect(new Set(all.map((g) => g.grantedBy.id))).toEqual(new Set([ada.user.id, cy.user.id]));

    // A member cannot revoke another member's grant.
    const [adasGrant] = await t.db
      .select({ id: oauthGrants.id })
      .from(oauthGrants)
      .innerJoin(oauthTokens, eq(oauthTokens.grantId, oauthGrants.id))
      .where(eq(oauthTokens.tokenHash, createHash('sha256').update(adasTokens.access_token).digest('hex')));
    const refused = await t.request({
      method: 'DELETE',
      url: `/api/oauth/grants/${adasGrant.id}`,
      token: cy.token,
    });
    expect(refused.statusCode).toBe(403);
    expect((await listTools(adasTokens.access_token)).status).toBe(200);

    // The member revokes their own; the admin revokes anyone's.
    const own = await t.request({
      method: 'DELETE',
      url: `/api/oauth/grants/${mine[0].id}`,
      token: cy.token,
    });
    expect(own.statusCode).toBe(204);
    expect((await listTools(cysTokens.access_token)).status).toBe(401);
    const byAdmin = await t.request({
      method: 'DELETE',
      url: `/api/oauth/grants/${adasGrant.id}`,
      token: ada.token,
    });
    expect(byAdmin.statusCode).toBe(204);
    const after = await listTools(adasTokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('resource_metadata=');

    // Another organization's grant is not found.
    const foreign = await t.request({
      method: 'DELETE',
      url: `/api/oauth/grants/${adasGrant.id}`,
      token: bob.token,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('never lets an API key consent or manage connected apps', async () => {
    const created = await t.request({
      method: 'POST',
      url: `/api/organizations/${ada.organization.id}/api-keys`,
      token: ada.token,
      payload: { name: 'oauth' },
    });
    const key = created.json().key as string;
    for (const [method, url] of [
      ['GET', '/api/oauth/grants'],
      ['POST', '/api/oauth/consent'],
    ] as const) {
      const res = await t.request({ method, url, token: key, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode).toBe(403);
    }
  });
});
