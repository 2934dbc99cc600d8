import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { ApprovalsService } from './approvals.service';

const { approvals: api } = endpoints;

/** People in the loop: the approvals waiting for people, and their decisions (docs/product-rules.md). */
export function approvalsRoutes(approvals: ApprovalsService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.list, async (request) => approvals.list(request.auth, request.query));
    route(app, api.get, async (request) => approvals.get(request.auth, request.params.id));
    route(app, api.decide, async (request) =>
      approvals.decide(request.auth, request.params.id, request.body),
    );
  };
}
