import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { workflowSchema } from '@crewline/contracts';
import { z } from 'zod';
import type { WorkflowsService } from './workflows.service';

export function workflowsRoutes(workflows: WorkflowsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/workflows', { schema: { response: { 200: z.array(workflowSchema) } } }, async (request) =>
      workflows.list(request.auth.organizationId),
    );
  };
}
