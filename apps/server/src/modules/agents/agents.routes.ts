import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { agentSchema } from '@crewline/contracts';
import { z } from 'zod';
import type { AgentsService } from './agents.service';

export function agentsRoutes(agents: AgentsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/agents', { schema: { response: { 200: z.array(agentSchema) } } }, async (request) =>
      agents.list(request.auth.organizationId),
    );
  };
}
