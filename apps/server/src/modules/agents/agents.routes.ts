import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentSchema,
  agentTestResultSchema,
  createAgentSchema,
  idParamsSchema,
  testAgentSchema,
  updateAgentSchema,
} from '@crewline/contracts';
import { z } from 'zod';
import type { AgentsService } from './agents.service';

export function agentsRoutes(agents: AgentsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/agents', { schema: { response: { 200: z.array(agentSchema) } } }, async (request) =>
      agents.list(request.auth.organizationId),
    );

    app.post(
      '/api/agents',
      { schema: { body: createAgentSchema, response: { 201: agentSchema } } },
      async (request, reply) =>
        reply
          .status(201)
          .send(await agents.create(request.auth.organizationId, request.auth.userId, request.body)),
    );

    app.get(
      '/api/agents/:id',
      { schema: { params: idParamsSchema, response: { 200: agentSchema } } },
      async (request) => agents.get(request.auth.organizationId, request.params.id),
    );

    app.put(
      '/api/agents/:id',
      { schema: { params: idParamsSchema, body: updateAgentSchema, response: { 200: agentSchema } } },
      async (request) =>
        agents.update(request.auth.organizationId, request.auth.userId, request.params.id, request.body),
    );

    app.post(
      '/api/agents/:id/test',
      {
        schema: {
          params: idParamsSchema,
          body: testAgentSchema.nullish(),
          response: { 200: agentTestResultSchema },
        },
      },
      async (request) =>
        agents.test(
          request.auth.organizationId,
          request.params.id,
          (request.body ?? testAgentSchema.parse({})).input,
        ),
    );

    app.delete('/api/agents/:id', { schema: { params: idParamsSchema } }, async (request, reply) => {
      await agents.remove(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });
  };
}
