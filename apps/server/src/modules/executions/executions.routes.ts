import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { executionSchema } from '@crewline/contracts';
import { z } from 'zod';
import { EXECUTIONS_PAGE_DEFAULT, EXECUTIONS_PAGE_MAX, type ExecutionsService } from './executions.service';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(EXECUTIONS_PAGE_MAX).default(EXECUTIONS_PAGE_DEFAULT),
});

export function executionsRoutes(executions: ExecutionsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/executions',
      { schema: { querystring: listQuery, response: { 200: z.array(executionSchema) } } },
      async (request) => executions.list(request.auth.organizationId, request.query.limit),
    );
  };
}
