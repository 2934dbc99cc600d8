import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountMessages } from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { AccountLinksService } from './account-links.service';

const { auth: api } = endpoints;

/** Password reset and email verification (docs/security.md, Accounts and mail). */
export function accountLinksRoutes(links: AccountLinksService): FastifyPluginAsyncZod {
  return async (app) => {
    // The same 202 and body whether or not an account uses the address.
    route(app, api.forgotPassword, async (request, reply) => {
      await links.forgotPassword(request.body.email);
      return reply.status(202).send({ message: accountMessages.resetLinkSent });
    });

    route(app, api.resetPassword, async (request) => {
      await links.resetPassword(request.body.token, request.body.password);
      return { message: accountMessages.passwordReset };
    });

    route(app, api.verifyEmail, async (request) => {
      await links.verifyEmail(request.body.token);
      return { message: accountMessages.emailVerified };
    });

    // Membership optional: someone removed from their organization may still need to verify in
    // order to accept an invitation to another one.
    route(app, api.resendVerification, async (request, reply) => {
      const message = await links.resendVerification(request.account.user);
      return reply.status(202).send({ message });
    });
  };
}
