import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentMemoriesQuerySchema,
  agentMemoriesSchema,
  agentMemoryParamsSchema,
  idParamsSchema,
} from '@crewline/contracts';
import type { MemoryService } from './memory.service';

/** An agent's memories (its Advanced tab): list and search, forget one or all. */
export function memoryRoutes(memory: MemoryService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/agents/:id/memories',
      {
        schema: {
          params: idParamsSchema,
          querystring: agentMemoriesQuerySchema,
          response: { 200: agentMemoriesSchema },
        },
      },
      async (request) => memory.list(request.auth.organizationId, request.params.id, request.query.search),
    );

    app.delete(
      '/api/agents/:id/memories/:memoryId',
      { schema: { params: agentMemoryParamsSchema } },
      async (request, reply) => {
        await memory.remove(request.auth.organizationId, request.params.id, request.params.memoryId);
        return reply.status(204).send();
      },
    );

    app.delete('/api/agents/:id/memories', { schema: { params: idParamsSchema } }, async (request, reply) => {
      await memory.clear(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });
  };
}
