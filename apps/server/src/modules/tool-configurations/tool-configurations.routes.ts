import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  providerCatalogueSchema,
  toolConfigurationSchema,
  updateToolConfigurationSchema,
} from '@crewline/contracts';
import { z } from 'zod';
import type { ProviderModelsService } from './provider-models';
import type { ToolConfigurationsService } from './tool-configurations.service';

export function toolConfigurationsRoutes(
  configurations: ToolConfigurationsService,
  providerModels: ProviderModelsService,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/tools/configurations',
      // Connections are the organization's settings: an API key never reads them.
      { config: { sessionOnly: true }, schema: { response: { 200: z.array(toolConfigurationSchema) } } },
      async (request) => configurations.list(request.auth.organizationId),
    );
    app.put(
      '/api/tools/configurations/:id',
      {
        // Model connections and other credentials are the organization's settings: admins change them.
        config: { role: 'admin' },
        schema: {
          params: z.object({ id: z.string() }),
          body: updateToolConfigurationSchema,
          response: { 200: toolConfigurationSchema },
        },
      },
      async (request) => configurations.update(request.auth.organizationId, request.params.id, request.body),
    );

    // With a connection configured the models come from the provider (cached 5 minutes), else a built-in
    // list; each with the model a new agent starts with.
    app.get(
      '/api/llm/providers',
      { schema: { response: { 200: providerCatalogueSchema } } },
      async (request) => providerModels.list(request.auth.organizationId),
    );
  };
}
