import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import { evaluationMessages } from '@crewline/contracts';
import { ForbiddenError } from '../../platform/errors';
import { requestActor } from '../../platform/request-actor';
import type { WorkflowsService } from './workflows.service';

const { workflows: api } = endpoints;

export function workflowsRoutes(workflows: WorkflowsService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.list, async (request) => workflows.list(request.auth.organizationId));
    route(app, api.create, async (request) =>
      workflows.create(
        request.auth.organizationId,
        request.auth.userId,
        request.body,
        undefined,
        requestActor(request),
      ),
    );
    route(app, api.get, async (request) => workflows.get(request.auth.organizationId, request.params.id));
    route(app, api.update, async (request) => {
      if (request.body.gateOverride && request.auth.role !== 'owner')
        throw new ForbiddenError(evaluationMessages.gateOverrideOwnersOnly);
      return workflows.update(
        request.auth.organizationId,
        request.auth.userId,
        request.params.id,
        request.body,
        {
          mayChangeGate: request.auth.role === 'owner' || request.auth.role === 'admin',
          ip: request.ip || null,
          apiKey: requestActor(request).apiKey,
        },
      );
    });
    route(app, api.versions, async (request) =>
      workflows.versions(request.auth.organizationId, request.params.id),
    );
    route(app, api.version, async (request) =>
      workflows.version(request.auth.organizationId, request.params.id, request.params.version),
    );
    route(app, api.restore, async (request) =>
      workflows.restore(
        request.auth.organizationId,
        request.auth.userId,
        request.params.id,
        request.params.version,
      ),
    );
    route(app, api.remove, async (request, reply) => {
      await workflows.remove(request.auth.organizationId, request.params.id);
      return reply.status(204).send();
    });
  };
}
