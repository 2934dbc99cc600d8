import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { endpoints } from '@crewline/contracts/endpoints';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import { route } from '../../platform/route';
import { requestActor } from '../../platform/request-actor';
import type { BillingService } from './billing.service';

const { billing: api } = endpoints;

/**
 * The organization's plan and subscription: any member reads it, only an owner changes it; owners and
 * admins read the invoices.
 */
export function billingRoutes(billing: BillingService): FastifyPluginAsyncZod {
  return async (app) => {
    route(app, api.status, async (request) => billing.status(request.auth.organizationId));

    route(app, api.config, async () => billing.config());

    route(app, api.subscribe, async (request) =>
      billing.createSubscription(request.auth.organizationId, request.body, requestActor(request)),
    );

    route(app, api.cancel, async (request) =>
      billing.cancelSubscription(request.auth.organizationId, requestActor(request)),
    );

    // Invoices show amounts paid: owners and admins, not every member.
    route(app, api.invoices, async (request) => billing.invoices(request.auth.organizationId));

    route(app, api.setupIntent, async (request) => billing.createSetupIntent(request.auth.organizationId));
  };
}

/** How far a Stripe signature's timestamp may be from now, either way (the SDK's default for the past). */
const STRIPE_TOLERANCE_SECONDS = 300;

/**
 * The timestamp a Stripe-Signature header was verified with, read as the SDK reads it (the last `t=`
 * item wins), so the check below looks at the same number.
 */
function signedAt(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = Number.parseInt(value, 10);
  }
  return Number.isFinite(timestamp) ? timestamp : Number.POSITIVE_INFINITY;
}

/**
 * POST /api/stripe/webhook (public: the Stripe-Signature header is the credential). The signature
 * covers the exact bytes sent, so this plugin scope alone parses JSON bodies as a raw Buffer.
 */
export function stripeWebhookRoutes(deps: {
  billing: BillingService;
  /** Null when Stripe is not configured: the route answers 404. */
  stripe: Stripe | null;
  webhookSecret: string | undefined;
}): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    route(app, api.stripeWebhook, async (request) => {
      if (!deps.stripe || !deps.webhookSecret) throw new NotFoundError('Stripe is not configured');
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        throw new BadRequestError('Missing Stripe signature');
      }
      let event: Stripe.Event;
      try {
        event = deps.stripe.webhooks.constructEvent(
          request.body,
          signature,
          deps.webhookSecret,
          STRIPE_TOLERANCE_SECONDS,
        );
      } catch {
        throw new BadRequestError('Invalid Stripe signature');
      }
      // The SDK refuses a timestamp too old, not one from the future: a signature made ahead of time
      // would stay valid until then. Both sides of the tolerance count.
      if (signedAt(signature) > Math.floor(deps.billing.now().getTime() / 1000) + STRIPE_TOLERANCE_SECONDS) {
        throw new BadRequestError('Invalid Stripe signature');
      }
      const { ignored } = await deps.billing.applyStripeEvent(event);
      if (ignored) {
        request.log.warn(
          { stripeEvent: { id: event?.id, type: event?.type }, reason: ignored },
          'Stripe event ignored: not a shape billing can use',
        );
      }
      return { received: true };
    });
  };
}
