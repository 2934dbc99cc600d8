import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  salesInquiriesResponseSchema,
  salesInquiryAcceptedSchema,
  salesInquirySchema,
} from '@crewline/contracts';
import type { SalesService } from './sales.service';

export function salesRoutes(sales: SalesService): FastifyPluginAsyncZod {
  return async (app) => {
    // Public: the landing page's Talk to Sales form; counted per client address.
    app.post(
      '/api/sales-inquiries',
      {
        config: { public: true },
        schema: { body: salesInquirySchema, response: { 202: salesInquiryAcceptedSchema } },
      },
      async (request, reply) =>
        reply.status(202).send(await sales.submit(request.body, request.ip, request.log)),
    );

    // The operator's administrators (OPERATOR_EMAILS), signed in: an API key never reads them.
    app.get(
      '/api/system/sales-inquiries',
      { config: { sessionOnly: true }, schema: { response: { 200: salesInquiriesResponseSchema } } },
      async (request) => ({ inquiries: await sales.list(request.account.user) }),
    );
  };
}
