import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { microsoftOauthStates, microsoftTokens } from '@crewline/db';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { callbackPage } from './microsoft.routes';
import { startFakeMicrosoftServer, type FakeMicrosoftServer } from '../../testing/fake-microsoft-server';

const PUBLIC_URL = 'http://localhost:5000';
const CALLBACK = `${PUBLIC_URL}/api/auth/microsoft/callback`;
const ANOTHER_BROWSER = 'This sign-in was started in another browser. Start it again from Settings.';

let fake: FakeMicrosoftServer;
let t: TestApp;
let unconfigured: TestApp;

beforeAll(async () => {
  fake = await startFakeMicrosoftServer({ redirectUris: [CALLBACK] });
  t = await createTestApp({
    config: {
      publicUrl: PUBLIC_URL,
      // Only the Microsoft hosts are trusted, as in production: the allow-list does not name loopback.
      egressAllowList: [],
      microsoft: {
        clientId: fake.clientId,
        clientSecret: fake.clientSecret,
        tenant: 'common',
        authorityHost: fake.url,
        graphUrl: fake.graphUrl,
        pollSeconds: 60,
      },
    },
  });
  unconfigured = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await unconfigured?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.denyConsent(false);
  fake.refuseRefresh(false);
  fake.setExpiresIn(3600);
});

async function status(user: AuthResponse) {
  const res = await t.request({ method: 'GET', url: '/api/auth/microsoft/status', token: user.token });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The binding cookie (`name=value`) each started sign-in left in its browser, by state. */
const browserOf = new Map<string, string>();

/** The `name=value` of the one cookie a response sets. */
function cookieSet(res: { headers: Record<string, unknown> }): string {
  const header = res.headers['set-cookie'];
  expect(typeof header).toBe('string');
  return String(header).split(';')[0];
}

/** GET /api/auth/microsoft, then what the browser does at Microsoft: the redirect it is sent back with. */
async function authorize(user: AuthResponse): Promise<URL> {
  const res = await t.request({ method: 'GET', url: '/api/auth/microsoft', token: user.token });
  expect(res.statusCode).toBe(200);
  const consent = await fetch(res.json().authUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  browserOf.set(back.searchParams.get('state')!, cookieSet(res));
  return back;
}

/**
 * The browser arriving back on the callback (no token: it comes from Microsoft), by default the one
 * that started the sign-in of its state; `cookie: null` for another browser.
 */
async function callback(back: URL, browser: { cookie?: string | null } = {}) {
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  const cookie =
    browser.cookie === undefined ? browserOf.get(back.searchParams.get('state') ?? '') : browser.cookie;
  return t.request({
    method: 'GET',
    url: `${back.pathname}${back.search}`,
    headers: cookie ? { cookie } : {},
  });
}

async function pendingStates(user: AuthResponse) {
  return t.db
    .select()
    .from(microsoftOauthStates)
    .where(eq(microsoftOauthStates.organizationId, user.organization.id));
}

const redeemed = () => fake.log.filter((e) => e.endpoint === 'token' && e.grantType === 'authorization_code');

/** The message the callback page posts to its opener. */
function postedMessage(html: string) {
  const match = /var data = (\{.*\});/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]).message as { type: string; success: boolean; message?: string };
}

async function connect(user: AuthResponse) {
  const res = await callback(await authorize(user));
  expect(res.statusCode).toBe(200);
  expect(postedMessage(res.body)).toEqual({ type: 'microsoft_connected', success: true });
}

describe('Microsoft 365 connection', () => {
  it('says when the server is not configured and refuses to start', async () => {
    const user = await unconfigured.signup();
    const res = await unconfigured.request({
      method: 'GET',
      url: '/api/auth/microsoft/status',
      token: user.token,
    });
    expect(res.json()).toEqual({ connected: false, configured: false });
    const start = await unconfigured.request({
      method: 'GET',
      url: '/api/auth/microsoft',
      token: user.token,
    });
    expect(start.statusCode).toBe(503);
    expect(start.json().message).toMatch(/MICROSOFT_CLIENT_ID and MICROSOFT_CLIENT_SECRET/);
  });

  it('builds the authorization URL Microsoft expects', async () => {
    const user = await t.signup();
    const res = await t.request({ method: 'GET', url: '/api/auth/microsoft', token: user.token });
    const url = new URL(res.json().authUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/common/oauth2/v2.0/authorize`);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: fake.clientId,
      response_type: 'code',
      redirect_uri: CALLBACK,
      response_mode: 'query',
      scope: 'offline_access User.Read Mail.Read Mail.ReadWrite',
      code_challenge_method: 'S256',
    });
    expect(q.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('connects through the whole dance and stores the tokens sealed', async () => {
    const user = await t.signup();
    expect(await status(user)).toEqual({ connected: false, configured: true });

    const back = await authorize(user);
    expect(back.searchParams.get('code')).toBeTruthy();
    const res = await callback(back);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.body).toContain(`<script nonce="${nonce}">`);
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(res.headers['cross-origin-opener-policy']).toBe('unsafe-none');
    expect(res.body).toContain('window.opener.postMessage(data.message, window.location.origin)');
    expect(res.body).toContain('/settings/profile?tab=tools&microsoft_connected=true');
    expect(postedMessage(res.body)).toEqual({ type: 'microsoft_connected', success: true });

    expect(await status(user)).toEqual({
      connected: true,
      configured: true,
      account: { email: fake.account.email, name: fake.account.name },
    });

    // Sealed at rest, bound to the organization; the state is gone.
    const [row] = await t.db
      .select()
      .from(microsoftTokens)
      .where(eq(microsoftTokens.organizationId, user.organization.id));
    expect(row.accessToken).toMatch(/^v1:/);
    expect(row.refreshToken).toMatch(/^v1:/);
    expect(JSON.stringify(row)).not.toContain('fake-at-');
    expect(JSON.stringify(row)).not.toContain('fake-rt-');
    expect(row.expiresOn!.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    const states = await t.db
      .select()
      .from(microsoftOauthStates)
      .where(eq(microsoftOauthStates.organizationId, user.organization.id));
    expect(states).toEqual([]);
    expect(t.responseBodies.join('\n')).not.toContain('fake-at-');

    const token = await t.services.microsoft.accessTokenFor(user.organization.id);
    expect(token).toMatch(/^fake-at-/);
  });

  it('binds the sign-in to the browser that started it with a short-lived cookie, cleared by the callback', async () => {
    const user = await t.signup();
    const res = await t.request({ method: 'GET', url: '/api/auth/microsoft', token: user.token });
    const state = new URL(res.json().authUrl).searchParams.get('state')!;
    const hash = createHash('sha256').update(state).digest('base64url');
    // PUBLIC_URL is http here: not Secure (oauth-browser-binding.test.ts covers https).
    expect(res.headers['set-cookie']).toBe(
      `crewline_oauth_microsoft=${hash}; Max-Age=600; Path=/api/auth/microsoft/callback; HttpOnly; SameSite=Lax`,
    );
    expect(res.body).not.toContain(hash);

    const back = await authorize(user);
    const done = await callback(back);
    expect(postedMessage(done.body).success).toBe(true);
    expect(done.headers['set-cookie']).toBe(
      'crewline_oauth_microsoft=; Max-Age=0; Path=/api/auth/microsoft/callback; HttpOnly; SameSite=Lax',
    );
  });

  it('refuses the callback in a browser without the cookie: nothing redeemed, nothing connected, state spent', async () => {
    const admin = await t.signup();
    // The admin hands the authorization URL to someone else, whose browser comes back without the cookie.
    const back = await authorize(admin);
    const before = redeemed().length;
    const res = await callback(back, { cookie: null });
    expect(res.statusCode).toBe(200);
    expect(postedMessage(res.body)).toEqual({
      type: 'microsoft_connected',
      success: false,
      message: ANOTHER_BROWSER,
    });
    expect(res.body).toContain('/settings/profile?tab=tools&microsoft_error=true');
    expect(res.body).toContain(
      `<p>Microsoft 365 connection failed. ${ANOTHER_BROWSER} You can close this window.</p>`,
    );
    // Read in the browser's scheme: not a white page in a dark one.
    expect(res.body).toContain('<meta name="color-scheme" content="light dark">');
    expect(res.headers['set-cookie']).toMatch(/^crewline_oauth_microsoft=; Max-Age=0;/);
    expect(redeemed()).toHaveLength(before);
    expect(await status(admin)).toEqual({ connected: false, configured: true });
    expect(await pendingStates(admin)).toEqual([]);

    // The address that browser landed on cannot be finished in the admin's browser afterwards.
    const later = await callback(back);
    expect(postedMessage(later.body)).toMatchObject({
      success: false,
      message: expect.stringMatching(/expired or was already used/),
    });
    expect(redeemed()).toHaveLength(before);
    expect((await status(admin)).connected).toBe(false);
  });

  it("refuses the callback in a browser whose cookie is another sign-in's", async () => {
    const eve = await t.signup();
    const ada = await t.signup();
    // Ada started a sign-in of her own; Eve's authorization URL comes back in Ada's browser.
    const adaBack = await authorize(ada);
    const eveBack = await authorize(eve);
    const before = redeemed().length;
    const res = await callback(eveBack, { cookie: browserOf.get(adaBack.searchParams.get('state')!) });
    expect(postedMessage(res.body)).toEqual({
      type: 'microsoft_connected',
      success: false,
      message: ANOTHER_BROWSER,
    });
    expect(redeemed()).toHaveLength(before);
    expect((await status(eve)).connected).toBe(false);
    expect((await status(ada)).connected).toBe(false);
    // A cookie that is not a hash at all is refused the same way.
    const forged = await callback(adaBack, { cookie: 'crewline_oauth_microsoft=%E0%A4%A' });
    expect(postedMessage(forged.body)).toMatchObject({ success: false, message: ANOTHER_BROWSER });
    expect((await status(ada)).connected).toBe(false);
    // Ada's own browser, with her own sign-in, connects her organization only.
    await connect(ada);
    expect((await status(ada)).connected).toBe(true);
    expect((await status(eve)).connected).toBe(false);
  });

  it('refuses a reused state without touching the connection', async () => {
    const user = await t.signup();
    const back = await authorize(user);
    const first = await callback(back);
    expect(postedMessage(first.body).success).toBe(true);
    await t.services.microsoft.disconnect(user.organization.id);

    const again = await callback(back);
    expect(again.statusCode).toBe(200);
    expect(postedMessage(again.body)).toMatchObject({
      success: false,
      message: expect.stringMatching(/expired or was already used/),
    });
    expect(again.body).toContain('/settings/profile?tab=tools&microsoft_error=true');
    expect((await status(user)).connected).toBe(false);
  });

  it('refuses an expired state', async () => {
    const user = await t.signup();
    const back = await authorize(user);
    await t.db
      .update(microsoftOauthStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(microsoftOauthStates.organizationId, user.organization.id));
    const res = await callback(back);
    expect(postedMessage(res.body)).toMatchObject({
      success: false,
      message: expect.stringMatching(/expired/),
    });
    expect((await status(user)).connected).toBe(false);
  });

  it("refuses a code answered with another organization's state, connecting neither", async () => {
    const ada = await t.signup();
    const eve = await t.signup();
    const adaBack = await authorize(ada);
    const eveBack = await authorize(eve);
    // Eve's state with Ada's code: the code was issued for Ada's challenge, Eve's verifier does not match.
    const mixed = new URL(adaBack);
    mixed.searchParams.set('state', eveBack.searchParams.get('state')!);
    const res = await callback(mixed);
    expect(postedMessage(res.body)).toMatchObject({
      success: false,
      message: expect.stringMatching(/code_verifier/),
    });
    expect((await status(ada)).connected).toBe(false);
    expect((await status(eve)).connected).toBe(false);
    // The code is spent (Microsoft redeems a code once) and so is Eve's state; Ada signs in again,
    // and her own state connects her organization only.
    expect(postedMessage((await callback(adaBack)).body).success).toBe(false);
    await connect(ada);
    expect((await status(ada)).connected).toBe(true);
    expect((await status(eve)).connected).toBe(false);
  });

  it('reports declined consent and a missing or unknown state as failures', async () => {
    const user = await t.signup();
    fake.denyConsent();
    const back = await authorize(user);
    expect(back.searchParams.get('error')).toBe('access_denied');
    const denied = await callback(back);
    expect(postedMessage(denied.body)).toMatchObject({
      success: false,
      message: expect.stringMatching(/declined/),
    });

    const unknown = await t.request({ method: 'GET', url: '/api/auth/microsoft/callback?code=x&state=nope' });
    expect(postedMessage(unknown.body).success).toBe(false);
    const empty = await t.request({ method: 'GET', url: '/api/auth/microsoft/callback' });
    expect(postedMessage(empty.body).success).toBe(false);
    const hostile = await t.request({
      method: 'GET',
      url: `/api/auth/microsoft/callback?state=${encodeURIComponent('</script><script>alert(1)</script>')}&code[]=1`,
    });
    expect(hostile.statusCode).toBe(200);
    expect(hostile.body).not.toContain('<script>alert(1)');
    // A failure's wording (Microsoft's, in part) is written into the page escaped.
    expect(callbackPage({ success: false, message: '<b>AADSTS</b> & "x"' }, 'n')).toContain(
      '<p>Microsoft 365 connection failed. &lt;b&gt;AADSTS&lt;/b&gt; &amp; &quot;x&quot; You can close',
    );
    expect((await status(user)).connected).toBe(false);
  });

  it('refreshes an expired access token and marks the connection broken when Microsoft refuses', async () => {
    const user = await t.signup();
    fake.setExpiresIn(5); // within the one-minute margin: refreshed on the next use
    await connect(user);
    const orgId = user.organization.id;
    const [before] = await t.db
      .select()
      .from(microsoftTokens)
      .where(eq(microsoftTokens.organizationId, orgId));

    fake.setExpiresIn(3600);
    const refreshed = await t.services.microsoft.accessTokenFor(orgId);
    expect(refreshed).toMatch(/^fake-at-/);
    const [after] = await t.db
      .select()
      .from(microsoftTokens)
      .where(eq(microsoftTokens.organizationId, orgId));
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessToken).toMatch(/^v1:/);
    expect(after.expiresOn!.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    // The refreshed token works at Graph; a fresh one is not refreshed again.
    const me = await fetch(`${fake.graphUrl}/me`, { headers: { authorization: `Bearer ${refreshed}` } });
    expect(me.status).toBe(200);
    expect(await t.services.microsoft.accessTokenFor(orgId)).toBe(refreshed);
    expect(fake.log.filter((e) => e.grantType === 'refresh_token' && e.ok)).toHaveLength(1);

    // Microsoft refuses the refresh: broken, shown as such, no token.
    await t.db
      .update(microsoftTokens)
      .set({ expiresOn: new Date(0) })
      .where(eq(microsoftTokens.organizationId, orgId));
    fake.refuseRefresh();
    expect(await t.services.microsoft.accessTokenFor(orgId)).toBeNull();
    expect(await status(user)).toMatchObject({ connected: true, broken: true });
    expect(await t.services.microsoft.accessTokenFor(orgId)).toBeNull();

    // Connecting again repairs it.
    fake.refuseRefresh(false);
    await connect(user);
    expect((await status(user)).broken).toBeUndefined();
  });

  it('disconnects', async () => {
    const user = await t.signup();
    await connect(user);
    const res = await t.request({ method: 'POST', url: '/api/auth/microsoft/disconnect', token: user.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await status(user)).toEqual({ connected: false, configured: true });
    expect(await t.services.microsoft.accessTokenFor(user.organization.id)).toBeNull();
  });

  it('requires a signed-in user for everything but the callback', async () => {
    for (const [method, url] of [
      ['GET', '/api/auth/microsoft/status'],
      ['GET', '/api/auth/microsoft'],
      ['POST', '/api/auth/microsoft/disconnect'],
    ] as const) {
      const res = await t.request({ method, url });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toEqual(expect.any(String));
    }
    const callbackRes = await t.request({
      method: 'GET',
      url: '/api/auth/microsoft/callback?state=x&code=y',
    });
    expect(callbackRes.statusCode).toBe(200);
  });
});
