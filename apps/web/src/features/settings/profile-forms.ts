// The Profile tab's forms (Edit Profile, Change Password): their values and what is sent; and, for every
// settings form, where the server's refusals are shown. Pure, so it is unit-tested without a browser.
import {
  changePasswordSchema,
  messages,
  type ChangePasswordInput,
  type UpdateProfileInput,
  type User,
} from '@crewline/contracts';
import { z } from 'zod';

export type ProfileFormValues = { firstName: string; lastName: string; username: string; email: string };

export const PROFILE_FIELDS = ['firstName', 'lastName', 'username', 'email'] as const;
export const PASSWORD_FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/** The edit form starts from the user as stored; a missing name is an empty field. */
export function profileFormValues(user: User): ProfileFormValues {
  return {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    username: user.username,
    email: user.email,
  };
}

/**
 * Only the fields that differ from the user (after the schema trimmed them, the email lowercased):
 * an unchanged username or email is not sent, so it is never re-checked.
 */
export function changedProfileFields(user: User, values: UpdateProfileInput): UpdateProfileInput {
  const before = profileFormValues(user);
  const changed: UpdateProfileInput = {};
  for (const key of PROFILE_FIELDS) {
    const value = values[key];
    if (value !== undefined && value !== before[key]) changed[key] = value;
  }
  return changed;
}

/** The password form: the server's rules plus the confirmation, which only the form checks. */
export const passwordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: messages.passwordsDontMatch,
    path: ['confirmPassword'],
  });
export type PasswordFormValues = z.infer<typeof passwordFormSchema>;

export const emptyPasswordForm: PasswordFormValues = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
};

/** What POST /api/auth/change-password takes: the confirmation stays in the browser. */
export function changePasswordBody(values: PasswordFormValues): ChangePasswordInput {
  return { currentPassword: values.currentPassword, newPassword: values.newPassword };
}

// Where the server's refusals go is shared with the dialogs outside settings (lib/form-errors.ts).
export { applyServerError, placeServerError } from '@/lib/form-errors';
