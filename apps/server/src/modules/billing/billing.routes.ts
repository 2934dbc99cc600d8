import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createSubscriptionResponseSchema,
  createSubscriptionSchema,
  subscriptionStatusResponseSchema,
} from '@crewline/contracts';
import type { BillingService } from './billing.service';

/** The organization's plan and subscription: any member reads it, only an owner changes it. */
export function billingRoutes(billing: BillingService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/subscription-status',
      { schema: { response: { 200: subscriptionStatusResponseSchema } } },
      async (request) => billing.status(request.auth.organizationId),
    );

    app.post(
      '/api/create-subscription',
      {
        config: { role: 'owner' },
        schema: { body: createSubscriptionSchema, response: { 200: createSubscriptionResponseSchema } },
      },
      async (request) => billing.createSubscription(request.auth.organizationId, request.body),
    );

    app.post(
      '/api/cancel-subscription',
      { config: { role: 'owner' }, schema: { response: { 200: subscriptionStatusResponseSchema } } },
      async (request) => billing.cancelSubscription(request.auth.organizationId),
    );
  };
}
