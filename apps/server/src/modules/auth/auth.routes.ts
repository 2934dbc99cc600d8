import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authResponseSchema, loginSchema, sessionSchema, signupSchema } from '@crewline/contracts';
import type { AuthService } from './auth.service';

export function authRoutes(auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/auth/signup',
      {
        config: { public: true },
        schema: { body: signupSchema, response: { 201: authResponseSchema } },
        // Counted before the body is read or validated: an invalid or duplicate signup is an attempt too.
        onRequest: async (request) => auth.countSignupAttempt(request.ip),
      },
      async (request, reply) => reply.status(201).send(await auth.signup(request.body)),
    );

    app.post(
      '/api/auth/login',
      { config: { public: true }, schema: { body: loginSchema, response: { 200: authResponseSchema } } },
      async (request) => auth.login(request.body, request.ip),
    );

    app.get(
      '/api/auth/me',
      { config: { sessionOnly: true }, schema: { response: { 200: sessionSchema } } },
      async (request) => auth.toSession(request.account),
    );

    // Works for a session whose membership ended too (modules/organizations/team.service.ts).
    app.post('/api/auth/logout', { config: { membershipOptional: true } }, async (request, reply) => {
      await auth.logout(request.auth.sessionId);
      return reply.status(204).send();
    });
  };
}
