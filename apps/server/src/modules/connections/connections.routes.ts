import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { requestActor } from '../../platform/request-actor';
import type { ProviderModelsService } from './provider-models';
import type { ConnectionsService } from './connections.service';

const { connections: api } = endpoints;

export function connectionsRoutes(
  configurations: ConnectionsService,
  providerModels: ProviderModelsService,
): FastifyPluginAsyncZod {
  return async (app) => {
    // Connections are the organization's settings: an API key never reads them.
    route(app, api.list, async (request) => configurations.list(request.auth.organizationId));
    // Model connections and other credentials are the organization's settings: admins change them.
    route(app, api.update, async (request) =>
      configurations.update(
        request.auth.organizationId,
        request.params.id,
        request.body,
        requestActor(request),
      ),
    );

    // With a connection configured the models come from the provider (cached 5 minutes), else a built-in
    // list; each with the model a new agent starts with.
    route(app, api.providers, async (request) => providerModels.list(request.auth.organizationId));
  };
}
