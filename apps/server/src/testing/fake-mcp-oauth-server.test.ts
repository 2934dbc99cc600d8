import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auth,
  Client,
  StreamableHTTPClientTransport,
  type OAuthClientInformationMixed,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { startFakeMcpOAuthServer, type FakeMcpOAuthServer } from './fake-mcp-oauth-server';

/** The SDK's client flow against the fake, with an in-memory provider: the fake checks each step. */
function memoryProvider(redirectUrl = 'http://127.0.0.1:9/callback') {
  const saved: {
    client?: OAuthClientInformationMixed;
    tokens?: OAuthTokens;
    verifier?: string;
    discovery?: OAuthDiscoveryState;
    authorizationUrl?: URL;
  } = {};
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return { client_name: 'Suite', redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none' };
    },
    state: () => 'state-1',
    clientInformation: () => saved.client,
    saveClientInformation: (info) => void (saved.client = info),
    tokens: () => saved.tokens,
    saveTokens: (tokens) => void (saved.tokens = tokens),
    redirectToAuthorization: (url) => void (saved.authorizationUrl = url),
    saveCodeVerifier: (verifier) => void (saved.verifier = verifier),
    codeVerifier: () => saved.verifier!,
    saveDiscoveryState: (state) => void (saved.discovery = state),
    discoveryState: () => saved.discovery,
    // What the SDK calls when the authorization server refuses the refresh token (invalid_grant).
    invalidateCredentials: (scope) => {
      if (scope === 'tokens' || scope === 'all') saved.tokens = undefined;
    },
  };
  return { provider, saved };
}

/** Plays the browser: the fake approves at once and redirects back with a code. */
async function approve(url: URL) {
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location')!).searchParams;
}

let fake: FakeMcpOAuthServer;
beforeAll(async () => {
  fake = await startFakeMcpOAuthServer();
});
afterAll(async () => fake?.close());

describe('the fake OAuth-protected MCP server', () => {
  it('lets a client that does discovery, registration and PKCE in, and refreshes its tokens', async () => {
    const { provider, saved } = memoryProvider();
    expect(await auth(provider, { serverUrl: fake.url })).toBe('REDIRECT');
    const authorizationUrl = saved.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(fake.url);
    const back = await approve(authorizationUrl);
    expect(
      await auth(provider, {
        serverUrl: fake.url,
        authorizationCode: back.get('code')!,
        iss: back.get('iss')!,
      }),
    ).toBe('AUTHORIZED');

    const call = async () => {
      const client = new Client({ name: 'suite', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(fake.url), { authProvider: provider }));
      const result = await client.callTool({ name: 'lookup_account', arguments: { number: '42' } });
      await client.close();
      return result.content;
    };
    expect(await call()).toEqual([{ type: 'text', text: 'Account 42: active' }]);

    // An expired access token is refreshed with the refresh token, which rotates.
    const firstRefresh = saved.tokens!.refresh_token;
    fake.expireAccessTokens();
    expect(await call()).toEqual([{ type: 'text', text: 'Account 42: active' }]);
    expect(fake.counts.refreshGrants).toBe(1);
    expect(saved.tokens!.refresh_token).not.toBe(firstRefresh);
  });

  it('refuses a code exchanged with the wrong PKCE verifier, and a refused refresh asks for a new sign-in', async () => {
    const { provider, saved } = memoryProvider();
    await auth(provider, { serverUrl: fake.url });
    const back = await approve(saved.authorizationUrl!);
    saved.verifier = 'not-the-verifier-that-made-the-challenge-0123456789';
    await expect(
      auth(provider, { serverUrl: fake.url, authorizationCode: back.get('code')!, iss: back.get('iss')! }),
    ).rejects.toThrow();
    expect(fake.refusals).toContain('PKCE verification failed');

    const other = memoryProvider();
    await auth(other.provider, { serverUrl: fake.url });
    const again = await approve(other.saved.authorizationUrl!);
    await auth(other.provider, {
      serverUrl: fake.url,
      authorizationCode: again.get('code')!,
      iss: again.get('iss')!,
    });
    fake.expireAccessTokens();
    fake.refuseRefresh();
    other.saved.authorizationUrl = undefined;
    const client = new Client({ name: 'suite', version: '1' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(fake.url), { authProvider: other.provider })),
    ).rejects.toThrow();
    // The SDK fell back to a new authorization: a person must sign in again.
    expect(other.saved.authorizationUrl).toBeDefined();
    expect(fake.counts.refusedRefreshes).toBeGreaterThan(0);
    fake.refuseRefresh(false);
  });
});
