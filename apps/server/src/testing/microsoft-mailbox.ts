import { expect } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import type { FakeMicrosoftServer } from './fake-microsoft-server';
import type { TestApp } from './test-app';

/*
 * A test app's organization connecting the fake Microsoft server's one mailbox, as a person does it
 * (the email trigger's tests). Start the fake with `redirectUris: [MICROSOFT_CALLBACK]` and the app
 * with `config: { publicUrl: PUBLIC_URL, microsoft: fakeMicrosoftConfig(…) }`.
 */

export const PUBLIC_URL = 'http://localhost:5000';
export const MICROSOFT_CALLBACK = `${PUBLIC_URL}/api/auth/microsoft/callback`;

/** The server's Microsoft settings pointing at the fake, polling each inbox every `pollMs`. */
export const fakeMicrosoftConfig = (microsoft: FakeMicrosoftServer, pollMs: number) => ({
  clientId: microsoft.clientId,
  clientSecret: microsoft.clientSecret,
  tenant: 'common',
  authorityHost: microsoft.url,
  graphUrl: microsoft.graphUrl,
  pollSeconds: pollMs / 1000,
});

/** The whole OAuth dance, as microsoft.routes.test.ts does it. */
export async function connectMailbox(t: TestApp, user: AuthResponse) {
  const start = await t.request({ method: 'GET', url: '/api/auth/microsoft', token: user.token });
  expect(start.statusCode).toBe(200);
  const consent = await fetch(start.json().authUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(MICROSOFT_CALLBACK);
  // The same browser: it carries the cookie the start set (docs/security.md, OAuth).
  const cookie = String(start.headers['set-cookie']).split(';')[0];
  const res = await t.request({ method: 'GET', url: `${back.pathname}${back.search}`, headers: { cookie } });
  expect(res.body).toContain('"success":true');
}
