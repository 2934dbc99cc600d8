import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountMessages,
  forgotPasswordSchema,
  resetPasswordSchema,
  verifyEmailSchema,
} from '@crewline/contracts';
import type { AccountLinksService } from './account-links.service';

const messageSchema = z.object({ message: z.string() });

/** Password reset and email verification (docs/security.md, Accounts and mail). */
export function accountLinksRoutes(links: AccountLinksService): FastifyPluginAsyncZod {
  return async (app) => {
    // The same 202 and body whether or not an account uses the address.
    app.post(
      '/api/auth/forgot-password',
      { config: { public: true }, schema: { body: forgotPasswordSchema, response: { 202: messageSchema } } },
      async (request, reply) => {
        await links.forgotPassword(request.body.email);
        return reply.status(202).send({ message: accountMessages.resetLinkSent });
      },
    );

    app.post(
      '/api/auth/reset-password',
      { config: { public: true }, schema: { body: resetPasswordSchema, response: { 200: messageSchema } } },
      async (request) => {
        await links.resetPassword(request.body.token, request.body.password);
        return { message: accountMessages.passwordReset };
      },
    );

    app.post(
      '/api/auth/verify-email',
      { config: { public: true }, schema: { body: verifyEmailSchema, response: { 200: messageSchema } } },
      async (request) => {
        await links.verifyEmail(request.body.token);
        return { message: accountMessages.emailVerified };
      },
    );

    // Membership optional: someone removed from their organization may still need to verify in
    // order to accept an invitation to another one.
    app.post(
      '/api/auth/resend-verification',
      {
        config: { sessionOnly: true, membershipOptional: true },
        schema: { response: { 202: messageSchema } },
      },
      async (request, reply) => {
        const message = await links.resendVerification(request.account.user);
        return reply.status(202).send({ message });
      },
    );
  };
}
