import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { NodeTests } from './node-test.service';

/** POST /api/workflows/:id/nodes/:nodeId/test: "Test this node" (node-test.service.ts). */
export function nodeTestRoutes(nodeTests: NodeTests): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, endpoints.workflows.testNode, async (request) =>
      nodeTests.test(request.auth.organizationId, request.params.id, request.params.nodeId, request.body),
    );
  };
}
