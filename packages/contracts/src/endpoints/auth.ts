import { z } from 'zod';
import {
  authResponseSchema,
  changePasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchema,
  sessionSchema,
  signupSchema,
  switchOrganizationSchema,
  updateProfileSchema,
  userOrganizationSchema,
  verifyEmailSchema,
} from '../index';
import { defineEndpoint } from './define-endpoint';
import * as paths from './paths';

const messageSchema = z.object({ message: z.string() });
const expiredLink = 'The link has expired, was already used or does not exist.';

/** Accounts: sign-up and sign-in, the signed-in user's profile and organizations, the emailed links. */
export const authEndpoints = {
  signup: defineEndpoint({
    method: 'POST',
    path: paths.auth.signup,
    body: signupSchema,
    response: { 201: authResponseSchema },
    summary: 'Sign up',
    tag: 'Authentication',
    auth: 'public',
    errors: {
      409: 'The email or username is taken.',
      429: 'Too many signups from this address: retry after the `Retry-After` seconds.',
    },
  }),
  login: defineEndpoint({
    method: 'POST',
    path: paths.auth.login,
    body: loginSchema,
    response: { 200: authResponseSchema },
    summary: 'Sign in',
    tag: 'Authentication',
    auth: 'public',
    errors: {
      401: 'Wrong email or password.',
      429: 'Too many failed sign-ins: retry after the `Retry-After` seconds.',
    },
  }),
  logout: defineEndpoint({
    method: 'POST',
    path: paths.auth.logout,
    summary: 'Sign out',
    tag: 'Authentication',
    auth: 'token',
    membershipOptional: true,
    noContent: true,
  }),
  organizations: defineEndpoint({
    method: 'GET',
    path: paths.auth.organizations,
    response: { 200: z.array(userOrganizationSchema) },
    summary: 'List my organizations',
    tag: 'Authentication',
    auth: 'token',
    membershipOptional: true,
  }),
  switchOrganization: defineEndpoint({
    method: 'POST',
    path: paths.auth.switchOrganization,
    body: switchOrganizationSchema,
    response: { 200: authResponseSchema },
    summary: 'Switch organization',
    tag: 'Authentication',
    auth: 'token',
    membershipOptional: true,
  }),
  me: defineEndpoint({
    method: 'GET',
    path: paths.auth.me,
    response: { 200: sessionSchema },
    summary: 'Get my profile',
    tag: 'Profile',
    auth: 'session',
  }),
  updateProfile: defineEndpoint({
    method: 'PUT',
    path: paths.auth.me,
    body: updateProfileSchema,
    response: { 200: sessionSchema },
    summary: 'Update my profile',
    tag: 'Profile',
    auth: 'session',
  }),
  changePassword: defineEndpoint({
    method: 'POST',
    path: paths.auth.changePassword,
    body: changePasswordSchema,
    summary: 'Change my password',
    tag: 'Profile',
    auth: 'session',
    noContent: true,
    errors: { 429: 'Too many wrong current passwords: retry after the `Retry-After` seconds.' },
  }),
  // The same 202 and body whether or not an account uses the address.
  forgotPassword: defineEndpoint({
    method: 'POST',
    path: paths.auth.forgotPassword,
    body: forgotPasswordSchema,
    response: { 202: messageSchema },
    summary: 'Request a password reset link',
    tag: 'Authentication',
    auth: 'public',
    errors: { 429: 'Too many reset requests for this address: retry after the `Retry-After` seconds.' },
  }),
  resetPassword: defineEndpoint({
    method: 'POST',
    path: paths.auth.resetPassword,
    body: resetPasswordSchema,
    response: { 200: messageSchema },
    summary: 'Set a new password with a reset link',
    tag: 'Authentication',
    auth: 'public',
    errors: { 410: expiredLink },
  }),
  verifyEmail: defineEndpoint({
    method: 'POST',
    path: paths.auth.verifyEmail,
    body: verifyEmailSchema,
    response: { 200: messageSchema },
    summary: 'Verify my email address',
    tag: 'Authentication',
    auth: 'public',
    errors: { 410: expiredLink },
  }),
  // Membership optional: someone removed from their organization may still need to verify in order
  // to accept an invitation to another one.
  resendVerification: defineEndpoint({
    method: 'POST',
    path: paths.auth.resendVerification,
    response: { 202: messageSchema },
    summary: 'Resend the verification email',
    tag: 'Authentication',
    auth: 'session',
    membershipOptional: true,
    errors: { 429: 'Too many verification emails: retry after the `Retry-After` seconds.' },
  }),
};
