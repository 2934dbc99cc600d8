import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { MemoryService } from './memory.service';

const { memory: api } = endpoints;

/** An agent's memories (its Advanced tab): list and search, forget one or all. */
export function memoryRoutes(memory: MemoryService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.list, async (request) =>
      memory.list(request.auth.organizationId, request.params.id, request.query.search),
    );

    route(app, api.forget, async (request, reply) => {
      await memory.remove(request.auth.organizationId, request.params.id, request.params.memoryId);
      return reply.status(204).send();
    });

    route(app, api.forgetAll, async (request, reply) => {
      await memory.clear(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });
  };
}
