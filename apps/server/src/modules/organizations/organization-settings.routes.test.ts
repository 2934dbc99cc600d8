import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { joinOrganization } from '../../testing/app-fixtures';

// Settings → Organization: the trusted sender domains, read by any member, changed by admins and owners.

let t: TestApp;
let owner: AuthResponse;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(() => t?.close());

const URL = '/api/organization/settings';
const read = (auth: AuthResponse) => t.request({ method: 'GET', url: URL, token: auth.token });
const write = (auth: AuthResponse, trustedSenderDomains: unknown) =>
  t.request({ method: 'PUT', url: URL, token: auth.token, payload: { trustedSenderDomains } });

describe('organization settings', () => {
  it('start with no trusted sender domains, and keep the list an admin saves, tidied', async () => {
    const fresh = await t.signup();
    expect((await read(fresh)).json()).toEqual({ trustedSenderDomains: [] });

    const saved = await write(fresh, ['  Contoso.com ', 'mail.fabrikam.co.uk', 'contoso.com']);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ trustedSenderDomains: ['contoso.com', 'mail.fabrikam.co.uk'] });
    expect((await read(fresh)).json()).toEqual({
      trustedSenderDomains: ['contoso.com', 'mail.fabrikam.co.uk'],
    });

    expect((await write(fresh, [])).json()).toEqual({ trustedSenderDomains: [] });
    expect((await read(fresh)).json()).toEqual({ trustedSenderDomains: [] });
  });

  it('refuse an entry that is not a domain name with a 400 naming it, and change nothing', async () => {
    await write(owner, ['contoso.com']);
    for (const bad of [
      'https://contoso.com',
      'ada@contoso.com',
      'localhost',
      'con toso.com',
      '-contoso.com',
      '',
    ]) {
      const res = await write(owner, ['fabrikam.com', bad]);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain(`"${bad.trim().toLowerCase()}" is not a domain name`);
    }
    const tooLong = await write(owner, [
      `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
    ]);
    expect(tooLong.statusCode).toBe(400);
    const tooMany = await write(
      owner,
      Array.from({ length: 101 }, (_, i) => `d${i}.example`),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('At most 100 trusted sender domains');
    expect((await read(owner)).json()).toEqual({ trustedSenderDomains: ['contoso.com'] });
  });

  it('let a member read them but not change them (403), and an admin change them', async () => {
    await write(owner, ['contoso.com']);
    const member = await joinOrganization(t, owner, await t.signup(), 'member');
    expect((await read(member)).json()).toEqual({ trustedSenderDomains: ['contoso.com'] });
    const refused = await write(member, ['evil.example']);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This action needs the admin role (or owner)');

    const admin = await joinOrganization(t, owner, await t.signup(), 'admin');
    expect((await write(admin, ['contoso.com', 'partner.example'])).statusCode).toBe(200);
    expect((await read(owner)).json()).toEqual({ trustedSenderDomains: ['contoso.com', 'partner.example'] });
  });

  it('are each organization’s own: another’s are neither read nor changed', async () => {
    await write(owner, ['contoso.com']);
    const other = await t.signup();
    expect((await read(other)).json()).toEqual({ trustedSenderDomains: [] });
    await write(other, ['other.example']);
    expect((await read(owner)).json()).toEqual({ trustedSenderDomains: ['contoso.com'] });
    expect((await read(other)).json()).toEqual({ trustedSenderDomains: ['other.example'] });
  });

  it('need a signed-in caller', async () => {
    expect((await t.request({ method: 'GET', url: URL })).statusCode).toBe(401);
  });
});
