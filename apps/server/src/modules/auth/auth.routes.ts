import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { AuthService } from './auth.service';

const { auth: api } = endpoints;

export function authRoutes(auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.signup, async (request) => auth.signup(request.body), {
      // Counted before the body is read or validated: an invalid or duplicate signup is an attempt too.
      onRequest: async (request) => auth.countSignupAttempt(request.ip),
    });

    route(app, api.login, async (request) => auth.login(request.body, request.ip));

    route(app, api.me, async (request) => auth.toSession(request.account));

    // Works for a session whose membership ended too (modules/organizations/team.service.ts).
    route(app, api.logout, async (request, reply) => {
      await auth.logout(request.auth.sessionId);
      return reply.status(204).send();
    });
  };
}
