import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMicrosoftServer, type FakeMicrosoftServer } from './fake-microsoft-server';

const REDIRECT = 'http://localhost:5000/api/auth/microsoft/callback';
let fake: FakeMicrosoftServer;
beforeAll(async () => {
  fake = await startFakeMicrosoftServer({ redirectUris: [REDIRECT] });
});
afterAll(() => fake.close());

type Tokens = { access_token: string; refresh_token: string };
type DeltaPage = { value: { subject: string }[]; '@odata.nextLink'?: string; '@odata.deltaLink'?: string };

const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

async function authorize(overrides: Record<string, string> = {}) {
  const url = new URL(`${fake.url}/common/oauth2/v2.0/authorize`);
  url.search = new URLSearchParams({
    client_id: fake.clientId,
    response_type: 'code',
    redirect_uri: REDIRECT,
    response_mode: 'query',
    scope: 'offline_access User.Read Mail.Read Mail.ReadWrite',
    state: 's1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  }).toString();
  return fetch(url, { redirect: 'manual' });
}

const token = (form: Record<string, string>, contentType = 'application/x-www-form-urlencoded') =>
  fetch(`${fake.url}/common/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: contentType.includes('json')
      ? JSON.stringify(form)
      : new URLSearchParams({ client_id: fake.clientId, client_secret: fake.clientSecret, ...form }),
  });

describe('fake Microsoft server', () => {
  it('refuses an unknown client or redirect URI and a plain challenge', async () => {
    expect((await authorize({ client_id: 'other' })).status).toBe(400);
    expect((await authorize({ redirect_uri: 'http://evil.example/cb' })).status).toBe(400);
    const plain = await authorize({ code_challenge_method: 'plain' });
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('redeems a code once, with the right verifier and secret only, and refreshes with rotation', async () => {
    const location = new URL((await authorize()).headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('s1');
    const code = location.searchParams.get('code')!;
    const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT };
    expect((await token({ ...base, code_verifier: verifier }, 'application/json')).status).toBe(400);
    expect((await token({ ...base, code_verifier: verifier, client_secret: 'wrong' })).status).toBe(401);

    const wrongVerifier = new URL((await authorize()).headers.get('location')!).searchParams.get('code')!;
    const refused = await token({ ...base, code: wrongVerifier, code_verifier: 'x'.repeat(43) });
    expect(await refused.json()).toMatchObject({ error: 'invalid_grant' });

    const ok = await token({ ...base, code_verifier: verifier });
    expect(ok.status).toBe(200);
    const tokens = (await ok.json()) as Tokens;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect((await token({ ...base, code_verifier: verifier })).status).toBe(400); // reused

    const me = await fetch(`${fake.graphUrl}/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(await me.json()).toMatchObject({ mail: fake.account.email, displayName: fake.account.name });
    expect((await fetch(`${fake.graphUrl}/me`)).status).toBe(401);

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    const again = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
    fake.expireAccessTokens();
    expect(
      (await fetch(`${fake.graphUrl}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } }))
        .status,
    ).toBe(401);
  });

  it('pages the inbox delta and then lists only new messages', async () => {
    const location = new URL((await authorize({ state: 's2' })).headers.get('location')!);
    const tokens = (await (
      await token({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      })
    ).json()) as Tokens;
    const get = async (url: string | undefined): Promise<DeltaPage> => {
      const res = await fetch(url!, {
        headers: { authorization: `Bearer ${tokens.access_token}`, prefer: 'odata.maxpagesize=2' },
      });
      return (await res.json()) as DeltaPage;
    };
    for (const subject of ['one', 'two', 'three']) fake.addMessage({ subject });
    const first = await get(`${fake.graphUrl}/me/mailFolders/inbox/messages/delta`);
    expect(first.value.map((m) => m.subject)).toEqual(['one', 'two']);
    const second = await get(first['@odata.nextLink']);
    expect(second.value.map((m) => m.subject)).toEqual(['three']);
    expect(second['@odata.deltaLink']).toContain('%24deltatoken=');
    fake.addMessage({ subject: 'four' });
    const next = await get(second['@odata.deltaLink']);
    expect(next.value.map((m) => m.subject)).toEqual(['four']);
    expect((await fetch(`${fake.graphUrl}/me/mailFolders/inbox/messages/delta`)).status).toBe(401);
  });
});
