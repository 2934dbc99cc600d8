import { describe, expect, it } from 'vitest';
import { loginSchema, signupSchema } from './auth';

const valid = {
  username: 'ada',
  email: ' Ada@Example.com ',
  firstName: 'Ada',
  lastName: 'Lovelace',
  password: 'secret1',
  confirmPassword: 'secret1',
};

const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => result.error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

describe('auth contracts', () => {
  it('normalizes the email and defaults the role to user', () => {
    const parsed = signupSchema.parse(valid);
    expect(parsed.email).toBe('ada@example.com');
    expect(parsed.role).toBe('user');
  });

  it('puts each validation message on its field', () => {
    expect(issues(loginSchema.safeParse({ email: 'nope', password: '12345' }))).toEqual([
      ['email', 'Invalid email address'],
      ['password', 'Password must be at least 6 characters'],
    ]);
    expect(issues(signupSchema.safeParse({ ...valid, confirmPassword: 'secret2' }))).toEqual([
      ['confirmPassword', "Passwords don't match"],
    ]);
  });

  it('accepts exactly six characters', () => {
    expect(loginSchema.safeParse({ email: 'a@b.co', password: '123456' }).success).toBe(true);
  });
});
