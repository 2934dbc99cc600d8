import { z } from 'zod';
import { messages, PASSWORD_MIN_LENGTH } from './messages';
import { planIdSchema } from './billing';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: messages.invalidEmail }));
const password = z.string().min(PASSWORD_MIN_LENGTH, { message: messages.passwordTooShort }).max(200);

export const loginSchema = z.object({
  email,
  password,
});
export type LoginInput = z.infer<typeof loginSchema>;

// The field rules, shared by signup and the profile edit (updateProfileSchema).
const username = z
  .string()
  .trim()
  .min(3, { message: 'Username must be at least 3 characters' })
  .max(40, { message: 'Username must be at most 40 characters' })
  .regex(/^[a-zA-Z0-9_.-]+$/, {
    message: 'Username may contain letters, digits, dots, dashes and underscores',
  });
const personName = (what: string) =>
  z
    .string()
    .trim()
    .max(80, { message: `${what} must be at most 80 characters` });

const signupFields = z.object({
  username,
  email,
  firstName: personName('First name').optional().default(''),
  lastName: personName('Last name').optional().default(''),
  password,
  confirmPassword: z.string(),
  // The form sends role 'user'; an account can never sign itself up as anything else.
  role: z.literal('user').optional().default('user'),
  /** The plan the visitor came from (landing page `?plan=`): the new organization's trial is on it (Professional when absent). */
  plan: planIdSchema.optional(),
});

export const signupSchema = signupFields.refine((v) => v.password === v.confirmPassword, {
  message: messages.passwordsDontMatch,
  path: ['confirmPassword'],
});
export type SignupInput = z.input<typeof signupSchema>;

/**
 * PUT /api/auth/me: any of the profile fields, with the signup rules; an empty name clears it.
 * Other fields (role, password, organization) are refused.
 */
export const updateProfileSchema = z.strictObject({
  firstName: personName('First name').optional(),
  lastName: personName('Last name').optional(),
  username: username.optional(),
  email: email.optional(),
});
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

/** POST /api/auth/change-password: the new password follows the signup rule. */
export const changePasswordSchema = z.strictObject({
  currentPassword: z.string().min(1, { message: messages.currentPasswordRequired }).max(200),
  newPassword: password,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.string(),
  /** Whether the current email was proven by a verification link (accepting invitations needs it). */
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  plan: z.string(),
  role: z.string(),
  trialEndsAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;

export const sessionSchema = z.object({ user: userSchema, organization: organizationSchema });
export type Session = z.infer<typeof sessionSchema>;

export const authResponseSchema = sessionSchema.extend({ token: z.string() });
export type AuthResponse = z.infer<typeof authResponseSchema>;

/** Texts of the emailed account links (verification, password reset), shown by the server and the web app. */
export const accountMessages = {
  linkGone: 'This link has expired or was already used',
  verifyToAcceptInvitation: 'Verify your email address to accept this invitation.',
  resetLinkSent: 'If an account uses this email, we sent it a link to set a new password.',
  passwordReset: 'Password changed. Sign in with your new password.',
  emailVerified: 'Email address verified',
  verificationSent: 'Verification email sent',
  verificationNotMailed:
    'No mail server is configured, so nothing was sent: ask an admin of the organization that invited you for a verification link.',
} as const;

/** POST /api/auth/forgot-password: answered 202 whether or not an account uses the address. */
export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

const linkToken = z.string().min(1).max(200);

/** POST /api/auth/reset-password: the emailed token and the new password (the signup rule). */
export const resetPasswordSchema = z.object({ token: linkToken, password });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** POST /api/auth/verify-email: the emailed token. */
export const verifyEmailSchema = z.object({ token: linkToken });
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;
