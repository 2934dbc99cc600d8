import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentToolLinkSchema,
  agentToolParamsSchema,
  connectToolSchema,
  createToolSchema,
  idParamsSchema,
  toolSchema,
  toolTestResultSchema,
  updateAgentToolSchema,
  updateToolSchema,
  usageSchema,
} from '@crewline/contracts';
import { z } from 'zod';
import type { ToolTester } from './tool-test';
import type { ToolsService } from './tools.service';

export function toolsRoutes(tools: ToolsService, tester: ToolTester): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/tools', { schema: { response: { 200: z.array(toolSchema) } } }, async (request) =>
      tools.list(request.auth.organizationId),
    );
    app.post(
      '/api/tools',
      { schema: { body: createToolSchema, response: { 201: toolSchema } } },
      async (request, reply) =>
        reply
          .status(201)
          .send(await tools.create(request.auth.organizationId, request.auth.userId, request.body)),
    );
    app.put(
      '/api/tools/:id',
      { schema: { params: idParamsSchema, body: updateToolSchema, response: { 200: toolSchema } } },
      async (request) => tools.update(request.auth.organizationId, request.params.id, request.body),
    );
    // Whether a Vector Store tool can search now (its knowledge base, or its Pinecone index and key).
    app.post(
      '/api/tools/:id/test',
      { schema: { params: idParamsSchema, response: { 200: toolTestResultSchema } } },
      async (request) => tester.test(request.auth.organizationId, request.params.id),
    );
    // The agents that lose the tool if it goes: its delete dialog lists them (docs/product-rules.md).
    app.get(
      '/api/tools/:id/usage',
      { schema: { params: idParamsSchema, response: { 200: usageSchema } } },
      async (request) => tools.usage(request.auth.organizationId, request.params.id),
    );
    app.delete('/api/tools/:id', { schema: { params: idParamsSchema } }, async (request, reply) => {
      await tools.remove(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });

    app.get(
      '/api/agents/:agentId/tools',
      {
        schema: {
          params: z.object({ agentId: z.string() }),
          response: { 200: z.array(agentToolLinkSchema) },
        },
      },
      async (request) => tools.listLinks(request.auth.organizationId, request.params.agentId),
    );
    app.post(
      '/api/agents/:agentId/tools/:toolId',
      {
        schema: {
          params: agentToolParamsSchema,
          body: connectToolSchema,
          response: { 201: agentToolLinkSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await tools.connect(
              request.auth.organizationId,
              request.params.agentId,
              request.params.toolId,
              request.body.config,
            ),
          ),
    );
    app.put(
      '/api/agents/:agentId/tools/:toolId',
      {
        schema: {
          params: agentToolParamsSchema,
          body: updateAgentToolSchema,
          response: { 200: agentToolLinkSchema },
        },
      },
      async (request) =>
        tools.updateLink(
          request.auth.organizationId,
          request.params.agentId,
          request.params.toolId,
          request.body,
        ),
    );
    app.delete(
      '/api/agents/:agentId/tools/:toolId',
      { schema: { params: agentToolParamsSchema } },
      async (request, reply) => {
        await tools.disconnect(request.auth.organizationId, request.params.agentId, request.params.toolId);
        return reply.status(204).send();
      },
    );
  };
}
