import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { TemplatesService } from './templates.service';

const { templates: api } = endpoints;

/** The template marketplace: every member browses, uses and saves templates of their organization. */
export function templatesRoutes(templates: TemplatesService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.list, async (request) => templates.list(request.auth.organizationId, request.query.sort));

    route(app, api.library, async () => templates.library());

    route(app, api.seed, async () => templates.seed());

    route(app, api.createWorkflow, async (request) =>
      templates.createWorkflow(
        request.auth.organizationId,
        request.auth.userId,
        request.params.templateId,
        request.body,
      ),
    );

    route(app, api.createAgent, async (request) =>
      templates.createAgent(
        request.auth.organizationId,
        request.auth.userId,
        request.params.templateId,
        request.body,
      ),
    );

    route(app, api.saveWorkflow, async (request) =>
      templates.saveWorkflow(
        request.auth.organizationId,
        request.auth.userId,
        request.params.id,
        request.body,
      ),
    );

    route(app, api.saveAgent, async (request) =>
      templates.saveAgent(request.auth.organizationId, request.auth.userId, request.params.id, request.body),
    );
  };
}
