import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages, messages, type AuthResponse } from '@crewline/contracts';
import { accountTokens } from '@crewline/db';
import { linkIn, startFakeSmtpServer, type FakeSmtpServer } from '../../testing/fake-smtp-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let smtp: FakeSmtpServer;
const from = 'Crewline <no-reply@crewline.test>';

beforeAll(async () => {
  smtp = await startFakeSmtpServer({ user: 'crewline', pass: 's3cret-smtp' });
  t = await createTestApp({
    config: {
      mail: { smtpUrl: smtp.url, from },
      publicUrl: 'https://crew.example.com',
      rateLimits: { loginMaxFailures: 3, loginWindowMinutes: 15, signupMaxPerHour: 1000 },
    },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
  t.request({ method, url, token, payload });
const verifyPrefix = 'https://crew.example.com/verify-email?token=';
const resetPrefix = 'https://crew.example.com/reset-password?token=';
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const newcomer = () => t.signup({}, { verified: false });

/** The link of the first mail to `to` containing one that starts with `prefix` and is not in `skip`. */
async function mailedLink(to: string, prefix: string, skip: string[] = []) {
  const mail = await smtp.waitFor(
    to,
    (m) => m.text.includes(prefix) && !skip.some((s) => m.text.includes(s)),
  );
  return { mail, link: linkIn(mail, prefix) };
}

describe('email verification', () => {
  it('mails a link after sign-up; opening it verifies the address once', async () => {
    const ada = await newcomer();
    expect(ada.user.emailVerified).toBe(false);
    const { mail, link } = await mailedLink(ada.user.email, verifyPrefix);
    expect(mail).toMatchObject({ user: 'crewline', envelopeTo: [ada.user.email], to: ada.user.email });
    expect(mail.from).toBe('"Crewline" <no-reply@crewline.test>');
    expect((await call('GET', '/api/auth/me', ada.token)).json().user.emailVerified).toBe(false);

    const verified = await call('POST', '/api/auth/verify-email', undefined, { token: tokenOf(link) });
    expect(verified.statusCode).toBe(200);
    expect((await call('GET', '/api/auth/me', ada.token)).json().user.emailVerified).toBe(true);
    const login = await call('POST', '/api/auth/login', undefined, {
      email: ada.user.email,
      password: 'secret123',
    });
    expect(login.json().user.emailVerified).toBe(true);

    const again = await call('POST', '/api/auth/verify-email', undefined, { token: tokenOf(link) });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ message: accountMessages.linkGone });
  });

  it('answers 410 for an unknown or expired link', async () => {
    const unknown = await call('POST', '/api/auth/verify-email', undefined, { token: 'not-a-token' });
    expect(unknown.statusCode).toBe(410);
    expect(unknown.json()).toEqual({ message: accountMessages.linkGone });

    const bea = await newcomer();
    const { link } = await mailedLink(bea.user.email, verifyPrefix);
    await t.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.userId, bea.user.id));
    const expired = await call('POST', '/api/auth/verify-email', undefined, { token: tokenOf(link) });
    expect(expired.statusCode).toBe(410);
    expect((await call('GET', '/api/auth/me', bea.token)).json().user.emailVerified).toBe(false);
  });

  it('resends a link to a signed-in user, within the rate limit', async () => {
    const cy = await newcomer();
    const first = await mailedLink(cy.user.email, verifyPrefix);
    const resent = await call('POST', '/api/auth/resend-verification', cy.token);
    expect(resent.statusCode).toBe(202);
    const second = await mailedLink(cy.user.email, verifyPrefix, [first.link]);
    expect(second.link).not.toBe(first.link);
    expect(
      (await call('POST', '/api/auth/verify-email', undefined, { token: tokenOf(second.link) })).statusCode,
    ).toBe(200);

    expect((await call('POST', '/api/auth/resend-verification')).statusCode).toBe(401);
    expect((await call('POST', '/api/auth/resend-verification', cy.token)).statusCode).toBe(202);
    expect((await call('POST', '/api/auth/resend-verification', cy.token)).statusCode).toBe(202);
    const limited = await call('POST', '/api/auth/resend-verification', cy.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many verification emails\. Try again in 15 minutes\.$/);
  });

  it('makes a changed address unverified until its own link is opened', async () => {
    const dee = await t.signup();
    expect(dee.user.emailVerified).toBe(true);
    const { link: oldLink } = await mailedLink(dee.user.email, verifyPrefix);
    const email = `new-${dee.user.email}`;
    const changed = await call('PUT', '/api/auth/me', dee.token, { email });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().user).toMatchObject({ email, emailVerified: false });
    // The link sent to the old address proves nothing about the new one.
    expect(
      (await call('POST', '/api/auth/verify-email', undefined, { token: tokenOf(oldLink) })).statusCode,
    ).toBe(410);
    const { link } = await mailedLink(email, verifyPrefix);
    expect(
      (await call('POST', '/api/auth/verify-email', undefined, { token: tokenOf(link) })).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/auth/me', dee.token)).json().user).toMatchObject({
      email,
      emailVerified: true,
    });
  });
});

describe('password reset', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const eve = await t.signup();
    const known = await call('POST', '/api/auth/forgot-password', undefined, { email: eve.user.email });
    const unknown = await call('POST', '/api/auth/forgot-password', undefined, {
      email: 'nobody-here@example.com',
    });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ message: accountMessages.resetLinkSent });
    const { mail } = await mailedLink(eve.user.email, resetPrefix);
    expect(mail.subject).toBe('Set a new Crewline password');
    expect(smtp.inbox.some((m) => m.envelopeTo.includes('nobody-here@example.com'))).toBe(false);
  });

  it('sets the password once, ends every session, and refuses the old password', async () => {
    const fay = await t.signup();
    const other = (
      await call('POST', '/api/auth/login', undefined, { email: fay.user.email, password: 'secret123' })
    ).json<AuthResponse>();
    await call('POST', '/api/auth/forgot-password', undefined, { email: fay.user.email });
    const { link } = await mailedLink(fay.user.email, resetPrefix);

    const short = await call('POST', '/api/auth/reset-password', undefined, {
      token: tokenOf(link),
      password: 'abc',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain(messages.passwordTooShort);

    const reset = await call('POST', '/api/auth/reset-password', undefined, {
      token: tokenOf(link),
      password: 'brand-new-pw',
    });
    expect(reset.statusCode).toBe(200);
    for (const session of [fay, other]) {
      expect((await call('GET', '/api/auth/me', session.token)).statusCode).toBe(401);
    }
    const login = (password: string) =>
      call('POST', '/api/auth/login', undefined, { email: fay.user.email, password });
    expect((await login('secret123')).statusCode).toBe(401);
    expect((await login('brand-new-pw')).statusCode).toBe(200);

    const again = await call('POST', '/api/auth/reset-password', undefined, {
      token: tokenOf(link),
      password: 'another-pw',
    });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ message: accountMessages.linkGone });
    expect((await login('brand-new-pw')).statusCode).toBe(200);
  });

  it('refuses a link after its hour, and an unknown one', async () => {
    const gus = await t.signup();
    await call('POST', '/api/auth/forgot-password', undefined, { email: gus.user.email });
    const { link } = await mailedLink(gus.user.email, resetPrefix);
    const [row] = await t.db
      .select()
      .from(accountTokens)
      .where(and(eq(accountTokens.userId, gus.user.id), eq(accountTokens.purpose, 'reset_password')));
    // An hour from its creation (the two clocks read a few milliseconds apart).
    expect(Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 60_000)).toBe(60);
    expect(row.tokenHash).not.toContain(tokenOf(link));
    await t.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.userId, gus.user.id));
    const expired = await call('POST', '/api/auth/reset-password', undefined, {
      token: tokenOf(link),
      password: 'brand-new-pw',
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({ message: accountMessages.linkGone });
    const unknown = await call('POST', '/api/auth/reset-password', undefined, {
      token: 'x'.repeat(43),
      password: 'brand-new-pw',
    });
    expect(unknown.statusCode).toBe(410);
    expect((await call('GET', '/api/auth/me', gus.token)).statusCode).toBe(200);
  });

  it('limits requests per address like failed sign-ins', async () => {
    const body = { email: 'flood@example.com' };
    for (let i = 0; i < 3; i++) {
      expect((await call('POST', '/api/auth/forgot-password', undefined, body)).statusCode).toBe(202);
    }
    const limited = await call('POST', '/api/auth/forgot-password', undefined, body);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many password reset requests. Try again in 15 minutes.');
  });
});

describe('invitations need a verified address', () => {
  it('refuses the invited address until it is verified, and mails the invitation through SMTP', async () => {
    const owner = await t.signup();
    const invitee = await newcomer();
    const { link } = await mailedLink(invitee.user.email, verifyPrefix);
    const invited = await call(
      'POST',
      `/api/organizations/${owner.organization.id}/invitations`,
      owner.token,
      {
        email: invitee.user.email,
        role: 'member',
      },
    );
    expect(invited.statusCode).toBe(201);
    expect(invited.json().emailSent).toBe(true);
    const invitation = await smtp.waitFor(invitee.user.email, (m) =>
      m.text.includes(invited.json().inviteUrl),
    );
    expect(invitation.subject).toMatch(/invited you to/);

    const accept = () => call('POST', `/api/invitations/${invited.json().token}/accept`, invitee.token, {});
    const refused = await accept();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: accountMessages.verifyToAcceptInvitation });

    expect(
      (await call('POST', '/api/auth/verify-email', undefined, { token: tokenOf(link) })).statusCode,
    ).toBe(200);
    const accepted = await accept();
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().organization.id).toBe(owner.organization.id);
  });
});

describe('without SMTP_URL', () => {
  it('says at info level that nothing was sent, without the link', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const bare = await createTestApp({ loggerInstance: logger });
    try {
      const hal = await bare.signup({}, { verified: false });
      await bare.request({
        method: 'POST',
        url: '/api/auth/forgot-password',
        payload: { email: hal.user.email },
      });
      await expect.poll(() => lines.filter((l) => l.includes('No mail transport configured')).length).toBe(2);
      const logged = lines
        .filter((l) => l.includes('No mail transport configured'))
        .map((l) => JSON.parse(l));
      expect(logged.map((l) => [l.level, l.msg])).toEqual([
        [30, 'No mail transport configured (SMTP_URL): the verification message was not sent'],
        [30, 'No mail transport configured (SMTP_URL): the password reset message was not sent'],
      ]);
      const tokens = await bare.db.select().from(accountTokens).where(eq(accountTokens.userId, hal.user.id));
      expect(tokens).toHaveLength(2);
      expect(lines.join('\n')).not.toMatch(/token=/);
    } finally {
      await bare.close();
    }
  });
});
