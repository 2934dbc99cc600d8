import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentSchema,
  agentTemplateSchema,
  createFromTemplateSchema,
  idParamsSchema,
  saveAsTemplateSchema,
  seedTemplatesResponseSchema,
  templateIdParamsSchema,
  templateLibraryResponseSchema,
  templatesQuerySchema,
  templatesResponseSchema,
  workflowFromTemplateResponseSchema,
  workflowTemplateSchema,
} from '@crewline/contracts';
import type { TemplatesService } from './templates.service';

/** The template marketplace: every member browses, uses and saves templates of their organization. */
export function templatesRoutes(templates: TemplatesService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/templates',
      { schema: { querystring: templatesQuerySchema, response: { 200: templatesResponseSchema } } },
      async (request) => templates.list(request.auth.organizationId, request.query.sort),
    );

    app.get(
      '/api/templates/library',
      { config: { public: true }, schema: { response: { 200: templateLibraryResponseSchema } } },
      async () => templates.library(),
    );

    app.post(
      '/api/templates/seed',
      { schema: { response: { 200: seedTemplatesResponseSchema } } },
      async () => templates.seed(),
    );

    app.post(
      '/api/templates/:templateId/create',
      {
        schema: {
          params: templateIdParamsSchema,
          body: createFromTemplateSchema,
          response: { 201: workflowFromTemplateResponseSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await templates.createWorkflow(
              request.auth.organizationId,
              request.auth.userId,
              request.params.templateId,
              request.body,
            ),
          ),
    );

    app.post(
      '/api/templates/agents/:templateId/create',
      {
        schema: {
          params: templateIdParamsSchema,
          body: createFromTemplateSchema,
          response: { 201: agentSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await templates.createAgent(
              request.auth.organizationId,
              request.auth.userId,
              request.params.templateId,
              request.body,
            ),
          ),
    );

    app.post(
      '/api/workflows/:id/save-as-template',
      {
        schema: {
          params: idParamsSchema,
          body: saveAsTemplateSchema,
          response: { 201: workflowTemplateSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await templates.saveWorkflow(
              request.auth.organizationId,
              request.auth.userId,
              request.params.id,
              request.body,
            ),
          ),
    );

    app.post(
      '/api/agents/:id/save-as-template',
      {
        schema: {
          params: idParamsSchema,
          body: saveAsTemplateSchema,
          response: { 201: agentTemplateSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await templates.saveAgent(
              request.auth.organizationId,
              request.auth.userId,
              request.params.id,
              request.body,
            ),
          ),
    );
  };
}
