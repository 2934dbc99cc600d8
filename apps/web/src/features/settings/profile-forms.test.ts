import { messages, updateProfileSchema, type User } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  changedProfileFields,
  changePasswordBody,
  passwordFormSchema,
  PASSWORD_FIELDS,
  applyServerError,
  placeServerError,
  PROFILE_FIELDS,
  profileFormValues,
} from './profile-forms';

const user: User = {
  id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: null,
  role: 'user',
  emailVerified: true,
  createdAt: '2024-01-01T00:00:00.000Z',
};

describe('profile form', () => {
  it('starts from the user, a missing name as an empty field', () => {
    expect(profileFormValues(user)).toEqual({
      firstName: 'Ada',
      lastName: '',
      username: 'ada',
      email: 'ada@example.com',
    });
  });

  it('sends only what changed, after the signup rules normalized it', () => {
    const parsed = updateProfileSchema.parse({
      firstName: ' Ada ',
      lastName: 'Lovelace',
      username: 'ada',
      email: ' ADA@Example.com ',
    });
    expect(changedProfileFields(user, parsed)).toEqual({ lastName: 'Lovelace' });
    expect(changedProfileFields(user, { ...parsed, firstName: '', username: 'countess' })).toEqual({
      firstName: '',
      lastName: 'Lovelace',
      username: 'countess',
    });
    expect(changedProfileFields(user, profileFormValues(user))).toEqual({});
  });
});

describe('password form', () => {
  it('checks the confirmation and the new password rule on their fields', () => {
    const result = passwordFormSchema.safeParse({
      currentPassword: 'old-secret',
      newPassword: '123',
      confirmPassword: '124',
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['newPassword', messages.passwordTooShort],
      ['confirmPassword', messages.passwordsDontMatch],
    ]);
    const mismatch = passwordFormSchema.safeParse({
      currentPassword: 'old-secret',
      newPassword: 'new-secret',
      confirmPassword: 'new-secreT',
    });
    expect(mismatch.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['confirmPassword', messages.passwordsDontMatch],
    ]);
  });

  it('leaves the confirmation out of the request', () => {
    expect(
      changePasswordBody({ currentPassword: 'a', newPassword: 'new-secret', confirmPassword: 'new-secret' }),
    ).toEqual({ currentPassword: 'a', newPassword: 'new-secret' });
  });
});

describe('placeServerError', () => {
  it('puts field errors under their fields and nothing in the banner', () => {
    expect(
      placeServerError(
        {
          status: 400,
          message: 'Invalid email address',
          errors: [
            { path: 'email', message: 'Invalid email address' },
            { path: 'role', message: 'Unrecognized key' },
          ],
        },
        PROFILE_FIELDS,
      ),
    ).toEqual({ fields: { email: 'Invalid email address' }, banner: null });
    expect(
      placeServerError(
        {
          status: 400,
          message: messages.currentPasswordIncorrect,
          errors: [{ path: 'currentPassword', message: messages.currentPasswordIncorrect }],
        },
        PASSWORD_FIELDS,
      ),
    ).toEqual({ fields: { currentPassword: messages.currentPasswordIncorrect }, banner: null });
  });

  it('puts a taken email or username under that field', () => {
    expect(
      placeServerError({ status: 409, message: messages.emailTaken, errors: [] }, PROFILE_FIELDS),
    ).toEqual({ fields: { email: messages.emailTaken }, banner: null });
    expect(
      placeServerError({ status: 409, message: messages.usernameTaken, errors: [] }, PROFILE_FIELDS),
    ).toEqual({ fields: { username: messages.usernameTaken }, banner: null });
  });

  it('shows anything else in the banner', () => {
    const tooMany = 'Too many wrong passwords. Try again in 15 minutes.';
    expect(placeServerError({ status: 429, message: tooMany, errors: [] }, PASSWORD_FIELDS)).toEqual({
      fields: {},
      banner: tooMany,
    });
    expect(placeServerError({ status: null, message: null, errors: [] }, PASSWORD_FIELDS)).toEqual({
      fields: {},
      banner: null,
    });
  });
});

describe('applyServerError', () => {
  const shown = (error: Parameters<typeof applyServerError>[0], fields: readonly string[]) => {
    const onFields: Record<string, string> = {};
    const banner = applyServerError(
      error,
      fields,
      (name, message) => (onFields[name] = message),
      'Try again.',
    );
    return { onFields, banner };
  };

  it('sets the field messages and leaves the banner empty', () => {
    expect(
      shown({ status: 400, message: 'Invalid', errors: [{ path: 'name', message: 'Too long' }] }, ['name']),
    ).toEqual({ onFields: { name: 'Too long' }, banner: null });
  });

  it("shows the server's message, else the fallback, when no field takes it", () => {
    expect(shown({ status: 409, message: 'Already a member', errors: [] }, ['email'])).toEqual({
      onFields: {},
      banner: 'Already a member',
    });
    expect(shown({ status: null, message: null, errors: [] }, ['email'])).toEqual({
      onFields: {},
      banner: 'Try again.',
    });
  });
});
