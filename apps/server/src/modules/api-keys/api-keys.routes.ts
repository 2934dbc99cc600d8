import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiKeyParamsSchema,
  apiKeySchema,
  createApiKeySchema,
  createdApiKeySchema,
  orgIdParamsSchema,
} from '@crewline/contracts';
import { z } from 'zod';
import { requireOwnOrganization } from '../auth/auth.guard';
import type { ApiKeysService } from './api-keys.service';

/** Settings → API keys: owners and admins, signed in (a key never manages keys). */
export function apiKeysRoutes(apiKeys: ApiKeysService): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { role: 'admin', sessionOnly: true } as const;

    app.get(
      '/api/organizations/:orgId/api-keys',
      { config, schema: { params: orgIdParamsSchema, response: { 200: z.array(apiKeySchema) } } },
      async (request) => apiKeys.list(requireOwnOrganization(request, request.params.orgId)),
    );

    app.post(
      '/api/organizations/:orgId/api-keys',
      {
        config,
        schema: {
          params: orgIdParamsSchema,
          body: createApiKeySchema,
          response: { 201: createdApiKeySchema },
        },
      },
      async (request, reply) => {
        const orgId = requireOwnOrganization(request, request.params.orgId);
        return reply.status(201).send(await apiKeys.create(orgId, request.auth.userId, request.body));
      },
    );

    app.delete(
      '/api/organizations/:orgId/api-keys/:id',
      { config, schema: { params: apiKeyParamsSchema } },
      async (request, reply) => {
        await apiKeys.revoke(requireOwnOrganization(request, request.params.orgId), request.params.id);
        return reply.status(204).send();
      },
    );
  };
}
