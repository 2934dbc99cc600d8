import { z } from 'zod';

/*
 * What the billing service reads of a Stripe webhook event, checked before anything is applied. The
 * signature proves Stripe sent it, not that it has the shape this code needs: an event without a
 * customer, with a period end that is not a number or with an object of another shape is acknowledged
 * and logged (a 5xx would only make Stripe redeliver the same unusable event for days).
 */

/** Epoch seconds, as Stripe sends every time. */
const seconds = z.number().int().nonnegative();

/** A customer id, or the customer object when expanded. */
const customer = z
  .union([z.string().min(1), z.object({ id: z.string().min(1) })])
  .transform((value) => (typeof value === 'string' ? value : value.id));

export const stripeEventEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string(),
  data: z.object({ object: z.unknown() }),
});

export const stripeSubscriptionSchema = z.object({
  id: z.string().min(1),
  customer,
  status: z.string(),
  trial_end: seconds.nullish(),
  cancel_at_period_end: z.boolean(),
  /** 'send_invoice' for a subscription paid by invoice (Enterprise). */
  collection_method: z.string().nullish(),
  /** The payment method saved on the subscription: an id, the expanded object, or null (none). */
  default_payment_method: z.union([z.string(), z.object({ id: z.string() })]).nullish(),
  /** Before API version 2025-03-31 the period end was on the subscription, not on its items. */
  current_period_end: seconds.nullish(),
  items: z.object({
    data: z.array(
      z.object({
        price: z
          .object({
            lookup_key: z.string().nullish(),
            recurring: z.object({ interval: z.string() }).nullish(),
          })
          .nullish(),
        current_period_end: seconds.nullish(),
      }),
    ),
  }),
});

export const stripeInvoiceSchema = z.object({
  customer,
  amount_paid: z.number().int(),
  lines: z
    .object({ data: z.array(z.object({ period: z.object({ end: seconds.nullish() }).nullish() })) })
    .nullish(),
});

/** Why a schema refused a value, for the log: the first problem's path and message. */
export function shapeProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join('.') || 'object'}: ${issue.message}` : 'unexpected shape';
}
