import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { requestActor } from '../../platform/request-actor';
import type { PublishingService } from './publishing.service';

const { mcp: api } = endpoints;

/** A workflow's publishing (PUT: owners and admins) and the organization's MCP server as published. */
export function publishingRoutes(publishing: PublishingService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.publishing, async (request) =>
      publishing.get(request.auth.organizationId, request.params.id),
    );

    route(app, api.setPublishing, async (request) =>
      publishing.set(request.auth.organizationId, request.params.id, request.body, requestActor(request)),
    );

    route(app, api.server, async (request) => publishing.server(request.auth.organizationId));
  };
}
