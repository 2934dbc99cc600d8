import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { requireOwnOrganization } from '../../platform/auth/auth-context';
import { requestActor } from '../../platform/request-actor';
import type { ApiKeysService } from './api-keys.service';

const { apiKeys: api } = endpoints;

/** Settings → API keys: owners and admins, signed in (a key never manages keys). */
export function apiKeysRoutes(apiKeys: ApiKeysService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.list, async (request) =>
      apiKeys.list(requireOwnOrganization(request, request.params.orgId)),
    );

    route(app, api.create, async (request) => {
      const orgId = requireOwnOrganization(request, request.params.orgId);
      return apiKeys.create(orgId, requestActor(request), request.body);
    });

    route(app, api.revoke, async (request, reply) => {
      await apiKeys.revoke(
        requireOwnOrganization(request, request.params.orgId),
        request.params.id,
        requestActor(request),
      );
      return reply.status(204).send();
    });
  };
}
