import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { ProfileService } from './profile.service';

const { auth: api } = endpoints;

/** The signed-in user's own account: profile fields and password (docs/product-rules.md, Profile). */
export function profileRoutes(profile: ProfileService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.updateProfile, async (request) => profile.updateProfile(request.account, request.body));

    route(app, api.changePassword, async (request, reply) => {
      await profile.changePassword(request.auth, request.body);
      return reply.status(204).send();
    });
  };
}
