import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { endpoints } from '@crewline/contracts/endpoints';
import { route } from '../../platform/route';
import type { SalesService } from './sales.service';

const { sales: api } = endpoints;

export function salesRoutes(sales: SalesService): FastifyPluginAsyncZod {
  return async (app) => {
    // Public: the landing page's Talk to Sales form; counted per client address.
    route(app, api.submit, async (request, reply) =>
      reply.status(202).send(await sales.submit(request.body, request.ip, request.log)),
    );

    // The operator's administrators (OPERATOR_EMAILS), signed in: an API key never reads them.
    route(app, api.list, async (request) => ({ inquiries: await sales.list(request.account.user) }));
  };
}
