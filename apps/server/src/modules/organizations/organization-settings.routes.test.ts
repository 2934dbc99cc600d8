import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '@crewline/contracts';
import { organizations } from '@crewline/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { joinOrganization } from '../../testing/app-fixtures';

// Settings → Organization: the trusted sender domains and the approval notification URL, read by any
// member (the URL as its origin only), changed by admins and owners.

let t: TestApp;
let owner: AuthResponse;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signup();
});
afterAll(() => t?.close());

const URL = '/api/organization/settings';
/** What GET answers for an organization with these domains and no notification URL. */
const settings = (trustedSenderDomains: string[]) => ({
  trustedSenderDomains,
  approvalNotificationUrl: null,
});
const read = (auth: AuthResponse) => t.request({ method: 'GET', url: URL, token: auth.token });
const put = (auth: AuthResponse, payload: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: URL, token: auth.token, payload });
const write = (auth: AuthResponse, trustedSenderDomains: unknown) => put(auth, { trustedSenderDomains });

describe('organization settings', () => {
  it('start with no trusted sender domains, and keep the list an admin saves, tidied', async () => {
    const fresh = await t.signup();
    expect((await read(fresh)).json()).toEqual(settings([]));

    const saved = await write(fresh, ['  Contoso.com ', 'mail.fabrikam.co.uk', 'contoso.com']);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(settings(['contoso.com', 'mail.fabrikam.co.uk']));
    expect((await read(fresh)).json()).toEqual(settings(['contoso.com', 'mail.fabrikam.co.uk']));

    expect((await write(fresh, [])).json()).toEqual(settings([]));
    expect((await read(fresh)).json()).toEqual(settings([]));
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
    expect((await read(owner)).json()).toEqual(settings(['contoso.com']));
  });

  it('let a member read them but not change them (403), and an admin change them', async () => {
    await write(owner, ['contoso.com']);
    const member = await joinOrganization(t, owner, await t.signup(), 'member');
    expect((await read(member)).json()).toEqual(settings(['contoso.com']));
    const refused = await write(member, ['evil.example']);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This action needs the admin role (or owner)');

    const admin = await joinOrganization(t, owner, await t.signup(), 'admin');
    expect((await write(admin, ['contoso.com', 'partner.example'])).statusCode).toBe(200);
    expect((await read(owner)).json()).toEqual(settings(['contoso.com', 'partner.example']));
  });

  it('are each organization’s own: another’s are neither read nor changed', async () => {
    await write(owner, ['contoso.com']);
    const other = await t.signup();
    expect((await read(other)).json()).toEqual(settings([]));
    await write(other, ['other.example']);
    expect((await read(owner)).json()).toEqual(settings(['contoso.com']));
    expect((await read(other)).json()).toEqual(settings(['other.example']));
  });

  it('keep the notification URL encrypted, show its origin only, and leave what a change does not name', async () => {
    const fresh = await t.signup();
    await write(fresh, ['contoso.com']);
    const url = 'https://hooks.slack.com/services/T0001/B0002/s3cr3tToken';
    const saved = await put(fresh, { approvalNotificationUrl: ` ${url} ` });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      trustedSenderDomains: ['contoso.com'],
      approvalNotificationUrl: 'https://hooks.slack.com/…',
    });
    expect((await read(fresh)).json().approvalNotificationUrl).toBe('https://hooks.slack.com/…');
    const [stored] = await t.db
      .select({ settings: organizations.settings })
      .from(organizations)
      .where(eq(organizations.id, fresh.organization.id));
    expect(JSON.stringify(stored.settings)).not.toContain('s3cr3tToken');
    expect(await t.services.organizationSettings.approvalNotificationUrl(fresh.organization.id)).toBe(url);

    // The domains alone change the domains; the URL stays.
    await write(fresh, ['fabrikam.com']);
    expect((await read(fresh)).json().approvalNotificationUrl).toBe('https://hooks.slack.com/…');

    for (const bad of ['hooks.slack.com/services/x', 'ftp://example.com/x', 'javascript:alert(1)', '']) {
      const res = await put(fresh, { approvalNotificationUrl: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(
        'The notification URL must be a web address starting with https:// or http://',
      );
    }
    expect((await put(fresh, { approvalNotificationUrl: null })).json()).toEqual(settings(['fabrikam.com']));
    expect(await t.services.organizationSettings.approvalNotificationUrl(fresh.organization.id)).toBeNull();

    const member = await joinOrganization(t, fresh, await t.signup(), 'member');
    expect((await put(member, { approvalNotificationUrl: 'https://evil.example/x' })).statusCode).toBe(403);
  });

  it('need a signed-in caller', async () => {
    expect((await t.request({ method: 'GET', url: URL })).statusCode).toBe(401);
  });
});
