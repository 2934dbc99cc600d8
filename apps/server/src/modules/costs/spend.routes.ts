import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { SpendService } from './spend.service';

const { costs: api } = endpoints;

/** Analytics → Costs (any member, API keys too) and Settings → Costs' monthly budget (admins change it). */
export function spendRoutes(spend: SpendService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.usage, async (request) => spend.report(request.auth.organizationId, request.query));

    route(app, api.budget, async (request) => spend.budget(request.auth.organizationId));

    // Admins and owners (the descriptor's role): a member's call is a 403 naming it.
    route(app, api.setBudget, async (request) =>
      spend.setBudget(request.auth.organizationId, request.body.monthlyCapUsd),
    );
  };
}
