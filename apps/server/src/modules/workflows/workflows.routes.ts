import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createWorkflowSchema,
  idParamsSchema,
  updateWorkflowSchema,
  workflowSchema,
  workflowVersionParamsSchema,
  workflowVersionSchema,
  workflowVersionSummarySchema,
  workflowWithWarningsSchema,
} from '@crewline/contracts';
import { z } from 'zod';
import type { WorkflowsService } from './workflows.service';

export function workflowsRoutes(workflows: WorkflowsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/workflows', { schema: { response: { 200: z.array(workflowSchema) } } }, async (request) =>
      workflows.list(request.auth.organizationId),
    );
    app.post(
      '/api/workflows',
      { schema: { body: createWorkflowSchema, response: { 201: workflowWithWarningsSchema } } },
      async (request, reply) =>
        reply
          .status(201)
          .send(await workflows.create(request.auth.organizationId, request.auth.userId, request.body)),
    );
    app.get(
      '/api/workflows/:id',
      { schema: { params: idParamsSchema, response: { 200: workflowWithWarningsSchema } } },
      async (request) => workflows.get(request.auth.organizationId, request.params.id),
    );
    app.put(
      '/api/workflows/:id',
      {
        schema: {
          params: idParamsSchema,
          body: updateWorkflowSchema,
          response: { 200: workflowWithWarningsSchema },
        },
      },
      async (request) =>
        workflows.update(request.auth.organizationId, request.auth.userId, request.params.id, request.body),
    );
    app.get(
      '/api/workflows/:id/versions',
      { schema: { params: idParamsSchema, response: { 200: z.array(workflowVersionSummarySchema) } } },
      async (request) => workflows.versions(request.auth.organizationId, request.params.id),
    );
    app.get(
      '/api/workflows/:id/versions/:version',
      { schema: { params: workflowVersionParamsSchema, response: { 200: workflowVersionSchema } } },
      async (request) =>
        workflows.version(request.auth.organizationId, request.params.id, request.params.version),
    );
    app.post(
      '/api/workflows/:id/versions/:version/restore',
      { schema: { params: workflowVersionParamsSchema, response: { 200: workflowWithWarningsSchema } } },
      async (request) =>
        workflows.restore(
          request.auth.organizationId,
          request.auth.userId,
          request.params.id,
          request.params.version,
        ),
    );
    app.delete('/api/workflows/:id', { schema: { params: idParamsSchema } }, async (request, reply) => {
      await workflows.remove(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });
  };
}
