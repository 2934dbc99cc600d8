import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changePasswordSchema, sessionSchema, updateProfileSchema } from '@crewline/contracts';
import type { ProfileService } from './profile.service';

/** The signed-in user's own account: profile fields and password (docs/product-rules.md, Profile). */
export function profileRoutes(profile: ProfileService): FastifyPluginAsyncZod {
  return async (app) => {
    app.put(
      '/api/auth/me',
      {
        config: { sessionOnly: true },
        schema: { body: updateProfileSchema, response: { 200: sessionSchema } },
      },
      async (request) => profile.updateProfile(request.account, request.body),
    );

    app.post(
      '/api/auth/change-password',
      { config: { sessionOnly: true }, schema: { body: changePasswordSchema } },
      async (request, reply) => {
        await profile.changePassword(request.auth, request.body);
        return reply.status(204).send();
      },
    );
  };
}
