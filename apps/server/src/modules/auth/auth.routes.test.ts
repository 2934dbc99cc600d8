import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@crewline/contracts';
import { userOrganizations, users } from '@crewline/db';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: { rateLimits: { loginMaxFailures: 3, loginWindowMinutes: 15, signupMaxPerHour: 1000 } },
  });
});
afterAll(() => t.close());

const signupBody = (n: string, extra: Record<string, unknown> = {}) => ({
  username: `ada${n}`,
  email: `ada${n}@example.com`,
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: 'analytical',
  confirmPassword: 'analytical',
  role: 'user',
  ...extra,
});

describe('signup', () => {
  it('creates the user, an organization named after them and an owner membership', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/signup', payload: signupBody('1') });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body.user).toMatchObject({
      username: 'ada1',
      email: 'ada1@example.com',
      firstName: 'Ada',
      role: 'user',
    });
    expect(body.organization).toMatchObject({
      name: "Ada Lovelace's Organization",
      slug: 'ada1',
      role: 'owner',
    });
    expect(res.body).not.toContain('analytical');
    expect(res.body).not.toContain('$argon2');

    const [stored] = await t.db.select().from(users).where(eq(users.email, 'ada1@example.com'));
    expect(stored.password).toMatch(/^\$argon2id\$/);
    const memberships = await t.db
      .select()
      .from(userOrganizations)
      .where(eq(userOrganizations.userId, stored.id));
    expect(memberships).toEqual([
      expect.objectContaining({ organizationId: body.organization.id, role: 'owner' }),
    ]);
  });

  it('gives each organization a unique slug even when usernames slugify alike', async () => {
    const a = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody('x', { username: 'grace.h', email: 'g1@example.com' }),
    });
    const b = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody('y', { username: 'grace_h', email: 'g2@example.com' }),
    });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(a.json().organization.slug).toBe('grace-h');
    expect(b.json().organization.slug).toMatch(/^grace-h-[a-z0-9]{1,4}$/);
  });

  it('answers the validation message for invalid input, on the right field', async () => {
    const cases = [
      [{ email: 'not-an-email' }, 'email', 'Invalid email address'],
      [{ password: '123', confirmPassword: '123' }, 'password', 'Password must be at least 6 characters'],
      [{ confirmPassword: 'different1' }, 'confirmPassword', "Passwords don't match"],
    ] as const;
    for (const [override, path, message] of cases) {
      const res = await t.request({
        method: 'POST',
        url: '/api/auth/signup',
        payload: signupBody('bad', override),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContainEqual({ path, message });
    }
  });

  it('refuses a role other than user', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody('admin', { role: 'admin' }),
    });
    expect(res.statusCode).toBe(400);
  });

  it('says which identity is taken with 409', async () => {
    await t.request({ method: 'POST', url: '/api/auth/signup', payload: signupBody('dup') });
    const sameEmail = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody('other', { email: 'ADAdup@example.com' }),
    });
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().message).toMatch(/email/i);
    const sameUsername = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: signupBody('other2', { username: 'adadup' }),
    });
    expect(sameUsername.statusCode).toBe(409);
    expect(sameUsername.json().message).toMatch(/username/i);
  });
});

describe('login, session and logout', () => {
  it('logs in, reads the session and revokes the token on logout', async () => {
    const account = await t.signup({ password: 'pa55word', confirmPassword: 'pa55word' });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.user.email.toUpperCase(), password: 'pa55word' },
    });
    expect(login.statusCode).toBe(200);
    const { token } = login.json();

    const me = await t.request({ method: 'GET', url: '/api/auth/me', token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      user: { id: account.user.id },
      organization: { id: account.organization.id },
    });

    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode).toBe(401);
    // The other session (from signup) is untouched.
    expect((await t.request({ method: 'GET', url: '/api/auth/me', token: account.token })).statusCode).toBe(
      200,
    );
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const account = await t.signup();
    const wrong = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: account.user.email, password: 'wrong-password' },
    });
    const unknown = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.com', password: 'wrong-password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('refuses a bad login body with the email and password messages', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'x', password: '1' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Invalid email address' },
        { path: 'password', message: 'Password must be at least 6 characters' },
      ]),
    );
  });

  it('rejects forged and malformed tokens', async () => {
    const account = await t.signup();
    const [header, payload] = account.token.split('.');
    for (const token of [`${header}.${payload}.forged-signature`, 'garbage', `${account.token}x`]) {
      expect((await t.request({ method: 'GET', url: '/api/auth/me', token })).statusCode).toBe(401);
    }
  });

  it('locks an account and address out after too many failures, and says when to retry', async () => {
    const account = await t.signup({ password: 'correct-horse', confirmPassword: 'correct-horse' });
    const attempt = (password: string, remoteAddress = '10.1.1.1') =>
      t.request({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress,
        payload: { email: account.user.email, password },
      });
    for (let i = 0; i < 3; i++) expect((await attempt('wrong-guess')).statusCode).toBe(401);
    const locked = await attempt('correct-horse');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Try again in 15 minutes\./);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    // A teammate on another network is not locked out of their own sign-in.
    expect((await attempt('correct-horse', '10.2.2.2')).statusCode).toBe(200);
  });
});

describe('signup rate limit', () => {
  it('stops a burst of sign-ups from one address', async () => {
    const limited = await createTestApp({
      config: { rateLimits: { loginMaxFailures: 10, loginWindowMinutes: 15, signupMaxPerHour: 2 } },
    });
    try {
      const send = (n: string, remoteAddress = '10.9.9.9') =>
        limited.request({
          method: 'POST',
          url: '/api/auth/signup',
          remoteAddress,
          payload: signupBody(`rl${n}`),
        });
      expect((await send('1')).statusCode).toBe(201);
      expect((await send('2')).statusCode).toBe(201);
      const third = await send('3');
      expect(third.statusCode).toBe(429);
      expect(third.json().message).toMatch(/Try again in \d+ minutes?\./);
      expect((await send('4', '10.8.8.8')).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('counts failed attempts too: duplicates and invalid bodies, then 429 past the limit', async () => {
    const limited = await createTestApp({
      config: { rateLimits: { loginMaxFailures: 10, loginWindowMinutes: 15, signupMaxPerHour: 5 } },
    });
    try {
      const existing = signupBody('taken');
      expect(
        (await limited.request({ method: 'POST', url: '/api/auth/signup', payload: existing })).statusCode,
      ).toBe(201);
      const attempt = (payload: unknown, remoteAddress = '10.7.7.7') =>
        limited.request({
          method: 'POST',
          url: '/api/auth/signup',
          remoteAddress,
          headers: { 'content-type': 'application/json' },
          payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        });
      // What someone testing which identities exist would send, plus plain junk.
      const probes = [
        () => signupBody('probe-email', { email: existing.email }),
        () => signupBody('probe-name', { username: existing.username }),
        () => signupBody('probe-bad', { email: 'not-an-email' }),
        () => ({}),
        () => '{not json',
      ];
      const answers = [];
      for (let i = 0; i < 30; i++) answers.push(await attempt(probes[i % probes.length]()));

      // The first five get their usual answers, the duplicate messages unchanged.
      expect(answers.slice(0, 5).map((r) => r.statusCode)).toEqual([409, 409, 400, 400, 400]);
      expect(answers[0].json().message).toBe(messages.emailTaken);
      expect(answers[1].json().message).toBe(messages.usernameTaken);
      for (const res of answers.slice(5)) {
        expect(res.statusCode).toBe(429);
        expect(res.json().message).toMatch(/Try again in \d+ minutes?\./);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      // Even a valid signup is refused from that address now; another address is not affected.
      expect((await attempt(signupBody('fresh'))).statusCode).toBe(429);
      expect((await attempt(signupBody('fresh'), '10.6.6.6')).statusCode).toBe(201);
    } finally {
      await limited.close();
    }
  });

  it('lets no more than the limit through when attempts arrive at once', async () => {
    const limited = await createTestApp({
      config: { rateLimits: { loginMaxFailures: 10, loginWindowMinutes: 15, signupMaxPerHour: 5 } },
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          limited.request({
            method: 'POST',
            url: '/api/auth/signup',
            remoteAddress: '10.5.5.5',
            payload: signupBody(`burst${i}`),
          }),
        ),
      );
      const codes = answers.map((r) => r.statusCode).sort((x, y) => x - y);
      expect(codes).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
    } finally {
      await limited.close();
    }
  });
});
