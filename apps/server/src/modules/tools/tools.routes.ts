import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { requestActor } from '../../platform/request-actor';
import type { ToolTester } from './tool-test';
import type { ToolsService } from './tools.service';

const { tools: api } = endpoints;

export function toolsRoutes(tools: ToolsService, tester: ToolTester): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.list, async (request) => tools.list(request.auth.organizationId));
    route(app, api.create, async (request) =>
      tools.create(request.auth.organizationId, requestActor(request), request.body),
    );
    route(app, api.update, async (request) =>
      tools.update(request.auth.organizationId, request.params.id, request.body, requestActor(request)),
    );
    // Whether a Vector Store tool can search now (its knowledge base, or its Pinecone index and key).
    route(app, api.test, async (request) => tester.test(request.auth.organizationId, request.params.id));
    // The agents that lose the tool if it goes: its delete dialog lists them (docs/product-rules.md).
    route(app, api.usage, async (request) => tools.usage(request.auth.organizationId, request.params.id));
    // An MCP server connection's tools: as last listed (listed now the first time), or listed again.
    route(app, api.mcpTools, async (request) =>
      tools.mcpTools(request.auth.organizationId, request.params.id),
    );
    route(app, api.mcpRefresh, async (request) =>
      tools.mcpRefresh(request.auth.organizationId, request.params.id),
    );
    route(app, api.remove, async (request, reply) => {
      await tools.remove(request.auth.organizationId, request.params.id, requestActor(request));
      return reply.status(204).send();
    });

    route(app, api.agentTools, async (request) =>
      tools.listLinks(request.auth.organizationId, request.params.agentId),
    );
    route(app, api.link, async (request) =>
      tools.connect(
        request.auth.organizationId,
        request.params.agentId,
        request.params.toolId,
        request.body.config,
        request.body.approval,
      ),
    );
    route(app, api.updateLink, async (request) =>
      tools.updateLink(
        request.auth.organizationId,
        request.params.agentId,
        request.params.toolId,
        request.body,
      ),
    );
    route(app, api.unlink, async (request, reply) => {
      await tools.disconnect(request.auth.organizationId, request.params.agentId, request.params.toolId);
      return reply.status(204).send();
    });
  };
}
