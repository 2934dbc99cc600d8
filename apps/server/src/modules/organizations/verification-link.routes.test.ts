import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, roleRequired, teamMessages, type AuthResponse } from '@crewline/contracts';
import { startFakeSmtpServer, type FakeSmtpServer } from '../../testing/fake-smtp-server';
import { joinOrganization } from '../../testing/app-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { loggerOptions } from '../../platform/logger';

/*
 * POST /api/organizations/:orgId/invitations/:id/verification-link: without a mail transport the admin
 * gets the invitee's verification link to pass on, which verifies the address so the invitation can
 * be accepted (docs/security.md, Tenancy and roles).
 */

let t: TestApp;
let mailing: TestApp;
let smtp: FakeSmtpServer;
const publicUrl = 'https://crew.example.com';
/** Every line the app without mail logs, at trace level: the link must never be among them. */
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startFakeSmtpServer();
  [t, mailing] = await Promise.all([
    createTestApp({
      logger: {
        ...loggerOptions('trace'),
        stream: new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }),
      },
      config: {
        publicUrl,
        rateLimits: { loginMaxFailures: 3, loginWindowMinutes: 15, signupMaxPerHour: 1000 },
      },
    }),
    createTestApp({ config: { publicUrl, mail: { smtpUrl: smtp.url, from: 'Crewline <no@crew.test>' } } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), mailing?.close()]);
  await smtp?.close();
});

type App = TestApp;
const call = (app: App, method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
  app.request({ method, url, token, payload: payload ?? (method === 'POST' ? {} : undefined) });

async function invite(app: App, owner: AuthResponse, email: string) {
  const res = await call(
    app,
    'POST',
    `/api/organizations/${owner.organization.id}/invitations`,
    owner.token,
    {
      email,
      role: 'member',
    },
  );
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string; token: string; verificationMailed: boolean }>();
}

const linkUrl = (owner: AuthResponse, id: string) =>
  `/api/organizations/${owner.organization.id}/invitations/${id}/verification-link`;
const askLink = (app: App, owner: AuthResponse, id: string, token = owner.token) =>
  call(app, 'POST', linkUrl(owner, id), token);

describe('without a mail transport', () => {
  it('answers a link that verifies the invitee, who can then accept', async () => {
    const owner = await t.signup();
    const invitee = await t.signup({}, { verified: false });
    const invitation = await invite(t, owner, invitee.user.email);
    expect(invitation.verificationMailed).toBe(false);
    const listed = await call(
      t,
      'GET',
      `/api/organizations/${owner.organization.id}/invitations`,
      owner.token,
    );
    expect(listed.json()).toEqual([expect.objectContaining({ verificationMailed: false })]);
    const preview = await call(t, 'GET', `/api/invitations/${invitation.token}`);
    expect(preview.json()).toMatchObject({ email: invitee.user.email, verificationMailed: false });

    const refused = await call(t, 'POST', `/api/invitations/${invitation.token}/accept`, invitee.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: accountMessages.verifyToAcceptInvitation });
    // Resend cannot mail anything here: the answer says where to turn instead.
    const resent = await call(t, 'POST', '/api/auth/resend-verification', invitee.token);
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toEqual({ message: accountMessages.verificationNotMailed });

    const res = await askLink(t, owner, invitation.id);
    expect(res.statusCode).toBe(200);
    const { link } = res.json<{ link: string }>();
    expect(link).toMatch(/^https:\/\/crew\.example\.com\/verify-email\?token=[\w-]{43}$/);
    const token = new URL(link).searchParams.get('token')!;
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(token))).toEqual([]);

    const verified = await call(t, 'POST', '/api/auth/verify-email', undefined, { token });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: accountMessages.emailVerified });
    // Single use, like the mailed link.
    const again = await call(t, 'POST', '/api/auth/verify-email', undefined, { token });
    expect(again.statusCode).toBe(410);

    const me = await call(t, 'GET', '/api/auth/me', invitee.token);
    expect(me.json().user.emailVerified).toBe(true);
    const accepted = await call(t, 'POST', `/api/invitations/${invitation.token}/accept`, invitee.token);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().organization).toMatchObject({ id: owner.organization.id, role: 'member' });
    // Accepted: no longer pending.
    const after = await askLink(t, owner, invitation.id);
    expect(after.statusCode).toBe(404);
    expect(after.json()).toEqual({ message: teamMessages.invitationGone });
  });

  it('answers 409 for a verified address and 404 while no account uses it', async () => {
    const owner = await t.signup();
    const verified = await t.signup();
    const forVerified = await invite(t, owner, verified.user.email);
    const conflict = await askLink(t, owner, forVerified.id);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toEqual({ message: 'This address is already verified.' });

    const forNobody = await invite(t, owner, `nobody-${Date.now()}@example.com`);
    const missing = await askLink(t, owner, forNobody.id);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      message: 'No account uses this address yet: the invitee signs up first, then ask again.',
    });
  });

  it('answers 404 for another organization’s, a revoked or an unknown invitation', async () => {
    const owner = await t.signup();
    const stranger = await t.signup();
    const invitee = await t.signup({}, { verified: false });
    const invitation = await invite(t, owner, invitee.user.email);

    // The stranger's own organization in the URL, the other organization's invitation id.
    const foreign = await askLink(t, stranger, invitation.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: teamMessages.invitationGone });

    const revoked = await invite(t, owner, `revoked-${Date.now()}@example.com`);
    const del = await t.request({
      method: 'DELETE',
      url: `/api/organizations/${owner.organization.id}/invitations/${revoked.id}`,
      token: owner.token,
    });
    expect(del.statusCode).toBe(204);
    expect((await askLink(t, owner, revoked.id)).statusCode).toBe(404);
    expect((await askLink(t, owner, 'not-a-uuid')).statusCode).toBe(404);
  });

  it('is for admins and owners in a session: a member gets 403, an API key too', async () => {
    const owner = await t.signup();
    const admin = await joinOrganization(t, owner, await t.signup(), 'admin');
    const member = await joinOrganization(t, owner, await t.signup(), 'member');
    const invitee = await t.signup({}, { verified: false });
    const invitation = await invite(t, owner, invitee.user.email);

    const byMember = await askLink(t, owner, invitation.id, member.token);
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toEqual({ message: roleRequired('admin') });

    const key = await call(t, 'POST', `/api/organizations/${owner.organization.id}/api-keys`, owner.token, {
      name: 'links',
    });
    expect(key.statusCode).toBe(201);
    const byKey = await askLink(t, owner, invitation.id, key.json().key);
    expect(byKey.statusCode).toBe(403);

    expect((await askLink(t, owner, invitation.id, admin.token)).statusCode).toBe(200);
  });

  it('counts the links an admin asks for, like verification resends', async () => {
    const owner = await t.signup();
    const invitee = await t.signup({}, { verified: false });
    const invitation = await invite(t, owner, invitee.user.email);
    for (let i = 0; i < 3; i++) expect((await askLink(t, owner, invitation.id)).statusCode).toBe(200);
    const limited = await askLink(t, owner, invitation.id);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: 'Too many verification links. Try again in 15 minutes.' });
  });
});

describe('with a mail transport', () => {
  it('answers 409: the server mails the link itself', async () => {
    const owner = await mailing.signup();
    const invitee = await mailing.signup({}, { verified: false });
    const invitation = await invite(mailing, owner, invitee.user.email);
    expect(invitation.verificationMailed).toBe(true);
    const preview = await call(mailing, 'GET', `/api/invitations/${invitation.token}`);
    expect(preview.json().verificationMailed).toBe(true);

    const res = await askLink(mailing, owner, invitation.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'The server mails verification links itself (SMTP_URL is set).' });
  });
});
