import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { PricesService } from './prices.service';

const { prices: api } = endpoints;

/** Settings → Costs: the caller's organization's price table (any member) and its own prices. */
export function pricesRoutes(prices: PricesService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.list, async (request) => prices.list(request.auth.organizationId));

    // Admins and owners (the descriptors' role): a member's call is a 403 naming it.
    route(app, api.set, async (request) => prices.set(request.auth.organizationId, request.body));

    route(app, api.remove, async (request, reply) => {
      const { provider, model } = request.params;
      await prices.remove(request.auth.organizationId, provider, model);
      return reply.status(204).send();
    });
  };
}
