import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { messages, type AuthResponse } from '@crewline/contracts';
import { users } from '@crewline/db';
import { channels } from '../../platform/notifications/channels';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: { rateLimits: { loginMaxFailures: 3, loginWindowMinutes: 15, signupMaxPerHour: 1000 } },
  });
});
afterAll(() => t.close());

const updateMe = (token: string, payload: unknown) =>
  t.request({ method: 'PUT', url: '/api/auth/me', token, payload: payload as object });
const changePassword = (token: string, payload: unknown, remoteAddress?: string) =>
  t.request({
    method: 'POST',
    url: '/api/auth/change-password',
    token,
    payload: payload as object,
    remoteAddress,
  });
const login = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const me = (token: string) => t.request({ method: 'GET', url: '/api/auth/me', token });

describe('PUT /api/auth/me', () => {
  it('edits each field on its own and answers the session like GET /api/auth/me', async () => {
    const account = await t.signup();
    const suffix = account.user.id.slice(0, 8);
    const edits = [
      { firstName: 'Grace' },
      { lastName: 'Hopper' },
      { username: `grace.${suffix}` },
      { email: `  Grace.${suffix}@Example.COM ` },
    ];
    for (const edit of edits) {
      const res = await updateMe(account.token, edit);
      expect(res.statusCode).toBe(200);
      const current = await me(account.token);
      expect(res.json()).toEqual(current.json());
    }
    const session = (await me(account.token)).json();
    expect(session.user).toMatchObject({
      id: account.user.id,
      firstName: 'Grace',
      lastName: 'Hopper',
      username: `grace.${suffix}`,
      // Normalized like at signup.
      email: `grace.${suffix}@example.com`,
      role: 'user',
    });
    expect(session.organization).toEqual(account.organization);
    // The new email signs in; the old one no longer does.
    expect((await login(`grace.${suffix}@example.com`, 'secret123')).statusCode).toBe(200);
    expect((await login(account.user.email, 'secret123')).statusCode).toBe(401);
  });

  it('clears a name with an empty string and keeps the fields it is not sent', async () => {
    const account = await t.signup();
    const res = await updateMe(account.token, { firstName: '  ', lastName: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      firstName: null,
      lastName: null,
      username: account.user.username,
      email: account.user.email,
    });
    // An empty edit changes nothing.
    const same = await updateMe(account.token, {});
    expect(same.statusCode).toBe(200);
    expect(same.json().user).toEqual(res.json().user);
  });

  it("answers 409 naming the identity another user holds, whatever its case, and keeps one's own", async () => {
    const account = await t.signup();
    const other = await t.signup();
    const email = await updateMe(account.token, { email: other.user.email.toUpperCase() });
    expect(email.statusCode).toBe(409);
    expect(email.json().message).toBe(messages.emailTaken);
    const username = await updateMe(account.token, { username: other.user.username.toUpperCase() });
    expect(username.statusCode).toBe(409);
    expect(username.json().message).toBe(messages.usernameTaken);
    // Nothing was written.
    expect((await me(account.token)).json().user).toMatchObject({
      email: account.user.email,
      username: account.user.username,
    });
    // One's own identity, even in another case, is no conflict.
    const own = await updateMe(account.token, {
      email: account.user.email.toUpperCase(),
      username: account.user.username.toUpperCase(),
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().user.username).toBe(account.user.username.toUpperCase());
  });

  it('answers 400 with the signup field messages for invalid values', async () => {
    const account = await t.signup();
    const cases = [
      [{ email: 'not-an-email' }, 'email', messages.invalidEmail],
      [{ username: 'ab' }, 'username', 'Username must be at least 3 characters'],
      [{ username: 'a'.repeat(41) }, 'username', 'Username must be at most 40 characters'],
      [
        { username: 'no spaces' },
        'username',
        'Username may contain letters, digits, dots, dashes and underscores',
      ],
      [{ firstName: 'x'.repeat(81) }, 'firstName', 'First name must be at most 80 characters'],
      [{ lastName: 'x'.repeat(81) }, 'lastName', 'Last name must be at most 80 characters'],
    ] as const;
    for (const [body, path, message] of cases) {
      const res = await updateMe(account.token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContainEqual({ path, message });
    }
    for (const body of [{ role: 'admin' }, { password: 'new-secret' }, { firstName: 5 }, { email: null }]) {
      expect((await updateMe(account.token, body)).statusCode).toBe(400);
    }
    const [stored] = await t.db.select().from(users).where(eq(users.id, account.user.id));
    expect(stored).toMatchObject({
      role: 'user',
      username: account.user.username,
      email: account.user.email,
      firstName: account.user.firstName,
    });
  });

  it('answers 401 without a live session', async () => {
    expect(
      (await t.request({ method: 'PUT', url: '/api/auth/me', payload: { firstName: 'X' } })).statusCode,
    ).toBe(401);
    const account = await t.signup();
    await t.request({ method: 'POST', url: '/api/auth/logout', token: account.token });
    expect((await updateMe(account.token, { firstName: 'X' })).statusCode).toBe(401);
  });
});

describe('POST /api/auth/change-password', () => {
  it('refuses a wrong current password with 400 and changes nothing', async () => {
    const account = await t.signup();
    const res = await changePassword(account.token, {
      currentPassword: 'wrong-password',
      newPassword: 'brand-new-1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: messages.currentPasswordIncorrect,
      errors: [{ path: 'currentPassword', message: messages.currentPasswordIncorrect }],
    });
    expect((await login(account.user.email, 'secret123')).statusCode).toBe(200);
    expect((await login(account.user.email, 'brand-new-1')).statusCode).toBe(401);
  });

  it('refuses a new password the signup rule refuses, and a missing current one', async () => {
    const account = await t.signup();
    const weak = await changePassword(account.token, { currentPassword: 'secret123', newPassword: '123' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors).toContainEqual({ path: 'newPassword', message: messages.passwordTooShort });
    const missing = await changePassword(account.token, { currentPassword: '', newPassword: 'brand-new-1' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toContainEqual({
      path: 'currentPassword',
      message: messages.currentPasswordRequired,
    });
    expect((await login(account.user.email, 'secret123')).statusCode).toBe(200);
  });

  it('changes the password, keeps this session and signs every other one out', async () => {
    const account = await t.signup();
    const other: AuthResponse = (await login(account.user.email, 'secret123')).json();
    const bystander = await t.signup();
    const sessionChanges: unknown[] = [];
    const unsubscribe = t.services.events.listen(channels.sessions, {
      onNotify: (change) => sessionChanges.push(change),
    });
    onTestFinished(unsubscribe);

    const res = await changePassword(account.token, {
      currentPassword: 'secret123',
      newPassword: 'brand-new-1',
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    expect((await me(account.token)).statusCode).toBe(200);
    expect((await me(other.token)).statusCode).toBe(401);
    expect((await me(bystander.token)).statusCode).toBe(200);
    expect((await login(account.user.email, 'secret123')).statusCode).toBe(401);
    expect((await login(account.user.email, 'brand-new-1')).statusCode).toBe(200);

    const [stored] = await t.db.select().from(users).where(eq(users.id, account.user.id));
    expect(stored.password).toMatch(/^\$argon2id\$/);
    expect(t.responseBodies.join('\n')).not.toContain('brand-new-1');
    // Every process is told, so the other session's websockets close.
    expect(sessionChanges).toContainEqual(
      expect.objectContaining({ type: 'user_sessions_ended', userId: account.user.id }),
    );
  });

  it('locks out password guesses after the login failure limit, for that user only', async () => {
    const account = await t.signup();
    const guess = (currentPassword: string) =>
      changePassword(account.token, { currentPassword, newPassword: 'brand-new-1' });
    for (let i = 0; i < 3; i++) expect((await guess(`wrong-${i}`)).statusCode).toBe(400);
    const locked = await guess('secret123');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Try again in 15 minutes\./);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect((await login(account.user.email, 'secret123')).statusCode).toBe(200);

    const someoneElse = await t.signup();
    const fine = await changePassword(someoneElse.token, {
      currentPassword: 'secret123',
      newPassword: 'brand-new-1',
    });
    expect(fine.statusCode).toBe(204);
  });

  it('answers 401 without a token', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { currentPassword: 'secret123', newPassword: 'brand-new-1' },
    });
    expect(res.statusCode).toBe(401);
  });
});
