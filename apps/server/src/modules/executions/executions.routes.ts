import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { executeWorkflowSchema, executionSchema, idParamsSchema } from '@crewline/contracts';
import { z } from 'zod';
import { EXECUTIONS_PAGE_DEFAULT, EXECUTIONS_PAGE_MAX, type ExecutionsService } from './executions.service';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(EXECUTIONS_PAGE_MAX).default(EXECUTIONS_PAGE_DEFAULT),
  workflowId: z.string().uuid().optional(),
});

// A bodiless POST arrives as null: everything in the execute body is optional.
const executeBody = executeWorkflowSchema
  .nullish()
  .transform((body) => executeWorkflowSchema.parse(body ?? {}));

export function executionsRoutes(executions: ExecutionsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/executions',
      { schema: { querystring: listQuery, response: { 200: z.array(executionSchema) } } },
      async (request) => executions.list(request.auth.organizationId, request.query),
    );
    app.get(
      '/api/executions/:id',
      { schema: { params: idParamsSchema, response: { 200: executionSchema } } },
      async (request) => executions.get(request.auth.organizationId, request.params.id),
    );
    app.post(
      '/api/executions/:id/cancel',
      { schema: { params: idParamsSchema, response: { 200: executionSchema } } },
      async (request) => executions.cancel(request.auth.organizationId, request.params.id),
    );
    app.post(
      '/api/workflows/:id/execute',
      { schema: { params: idParamsSchema, body: executeBody, response: { 202: executionSchema } } },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await executions.execute(
              request.auth.organizationId,
              request.auth.userId,
              request.params.id,
              request.body,
            ),
          ),
    );
  };
}
