import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createOAuthBrowserBinding } from './oauth-browser-binding';

const STATE = 'state-9f2c1d7e4b';
const HASH = createHash('sha256').update(STATE).digest('base64url');

/** A bare server with the three steps of a flow: start binds, callback checks and clears. */
async function flow(redirectUri: string) {
  const binding = createOAuthBrowserBinding({ flow: 'demo', redirectUri, ttlMs: 10 * 60_000 });
  const app = Fastify();
  app.get('/start', async (request, reply) => {
    binding.bind(request, reply, STATE);
    return { ok: true };
  });
  app.get('/callback', async (request, reply) => {
    const state = (request.query as { state?: string }).state;
    const bound = binding.isBound(request, state);
    binding.clear(request, reply);
    return { bound };
  });
  await app.ready();
  return app;
}

describe('the OAuth browser binding', () => {
  it("sets an HttpOnly, SameSite=Lax cookie with the state's hash, for the callback path and the state's lifetime", async () => {
    const app = await flow('http://localhost:5000/callback');
    const res = await app.inject({ method: 'GET', url: '/start' });
    expect(res.headers['set-cookie']).toBe(
      `crewline_oauth_demo=${HASH}; Max-Age=600; Path=/callback; HttpOnly; SameSite=Lax`,
    );
    expect(res.headers['set-cookie']).not.toContain(STATE);
  });

  it('is Secure when the redirect URI is https or the request came over https', async () => {
    const https = await flow('https://crewline.example/callback');
    const res = await https.inject({ method: 'GET', url: '/start' });
    expect(res.headers['set-cookie']).toBe(
      `crewline_oauth_demo=${HASH}; Max-Age=600; Path=/callback; HttpOnly; Secure; SameSite=Lax`,
    );
    const cleared = await https.inject({ method: 'GET', url: '/callback' });
    expect(cleared.headers['set-cookie']).toBe(
      'crewline_oauth_demo=; Max-Age=0; Path=/callback; HttpOnly; Secure; SameSite=Lax',
    );

    const proxied = Fastify({ trustProxy: true });
    const binding = createOAuthBrowserBinding({
      flow: 'demo',
      redirectUri: 'http://localhost:5000/callback',
      ttlMs: 60_000,
    });
    proxied.get('/start', async (request, reply) => (binding.bind(request, reply, STATE), {}));
    const overHttps = await proxied.inject({
      method: 'GET',
      url: '/start',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(overHttps.headers['set-cookie']).toMatch(
      /; Max-Age=60; Path=\/callback; HttpOnly; Secure; SameSite=Lax$/,
    );
  });

  it('accepts only the cookie of the state the callback receives, and clears it', async () => {
    const app = await flow('http://localhost:5000/callback');
    const callback = (query: string, cookie?: string) =>
      app.inject({ method: 'GET', url: `/callback${query}`, headers: cookie ? { cookie } : {} });
    const own = `crewline_oauth_demo=${HASH}`;

    expect((await callback(`?state=${STATE}`, `theme=dark; ${own}`)).json()).toEqual({ bound: true });
    expect((await callback(`?state=${STATE}`)).json()).toEqual({ bound: false });
    expect((await callback('?state=another-state', own)).json()).toEqual({ bound: false });
    expect((await callback('', own)).json()).toEqual({ bound: false });
    expect((await callback(`?state=${STATE}`, `crewline_oauth_other=${HASH}`)).json()).toEqual({
      bound: false,
    });
    expect((await callback(`?state=${STATE}`, 'crewline_oauth_demo=%E0%A4%A')).json()).toEqual({
      bound: false,
    });
    expect((await callback(`?state=${STATE}`, `crewline_oauth_demo=${HASH.slice(0, 20)}`)).json()).toEqual({
      bound: false,
    });

    const res = await callback(`?state=${STATE}`, own);
    expect(res.headers['set-cookie']).toBe(
      'crewline_oauth_demo=; Max-Age=0; Path=/callback; HttpOnly; SameSite=Lax',
    );
  });
});
