import { z } from 'zod';
import { formatNumber } from './format-number';
import { PLAN_PRICE_CENTS, planIdValues, type PlanId } from './vocabulary/plans';

// The subscription API of the plans (docs/product-rules.md, Billing and plans); the plans themselves,
// their names, prices and limits, are the vocabulary's (vocabulary/plans.ts).

export const planIdSchema = z.enum(planIdValues);

/** How often a subscription is billed: monthly, or yearly at YEARLY_DISCOUNT off twelve months. */
export const billingIntervalValues = ['month', 'year'] as const;
export const billingIntervalSchema = z.enum(billingIntervalValues);
export type BillingInterval = z.infer<typeof billingIntervalSchema>;

/** Yearly billing costs twelve months less this share (20 %). */
export const YEARLY_DISCOUNT = 0.2;

/** The price of one billing interval, in cents: the monthly price, or 12 × monthly × 0.8 a year. */
export function planPriceCents(plan: PlanId, interval: BillingInterval = 'month'): number {
  const monthly = PLAN_PRICE_CENTS[plan];
  return interval === 'year' ? Math.round(monthly * 12 * (1 - YEARLY_DISCOUNT)) : monthly;
}

/** The only plan that may be paid by invoice (Stripe sends it; due DAYS_UNTIL_INVOICE_DUE days later). */
export const INVOICE_PLANS: readonly PlanId[] = ['enterprise'];
export const DAYS_UNTIL_INVOICE_DUE = 30;

/** How the subscription is paid: a payment method saved with the provider, or invoices sent; null: neither. */
export const paymentMethodValues = ['saved', 'invoice'] as const;
export type PaymentMethodValue = (typeof paymentMethodValues)[number];

export const subscriptionStatusValues = [
  'no_subscription',
  'trialing',
  'active',
  'past_due',
  'canceled',
] as const;
export const subscriptionStatusSchema = z.enum(subscriptionStatusValues);
export type SubscriptionStatusValue = z.infer<typeof subscriptionStatusSchema>;

const limitsSchema = z.object({
  agents: z.number().nullable(),
  executionsPerMonth: z.number().nullable(),
  members: z.number().nullable(),
  knowledgeStorageBytes: z.number().nullable(),
  /** The longest list a workflow's map takes. */
  mapItems: z.number().int(),
  /** Runs of the organization in progress at once; more wait in the queue. */
  concurrentRuns: z.number().int(),
});

/** GET /api/subscription-status: times in epoch seconds; limits null when unlimited. */
export const subscriptionStatusResponseSchema = z.object({
  status: subscriptionStatusSchema,
  /** The plan of the trial or subscription; null on the Free tier. */
  plan: planIdSchema.nullable(),
  trialEnd: z.number().nullable(),
  currentPeriodEnd: z.number().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** A downgrade waiting for the end of the period (FAQ: downgrades apply then). */
  pendingPlan: planIdSchema.nullable(),
  /** The organization had its one free trial: from Free, only a paid subscription is offered. */
  trialUsed: z.boolean(),
  /** How often the plan is billed (also during a trial: the interval billed after it). */
  interval: billingIntervalSchema,
  /** How the subscription is paid: a saved payment method, invoices (Enterprise), or null: nothing to charge. */
  paymentMethod: z.enum(paymentMethodValues).nullable(),
  /**
   * During a trial, what its end brings: 'billed' (the plan continues, paid by the payment method) or
   * 'free' (no payment method, or canceled: the organization moves to Free then); null outside a trial.
   */
  atTrialEnd: z.enum(['billed', 'free']).nullable(),
  usage: z.object({
    agents: z.number(),
    executionsThisMonth: z.number(),
    members: z.number(),
    /** Bytes of the organization's knowledge documents, counted as knowledgeStorageBytes limits them. */
    knowledgeStorageBytes: z.number(),
  }),
  limits: limitsSchema,
});
export type SubscriptionStatusResponse = z.infer<typeof subscriptionStatusResponseSchema>;

/**
 * POST /api/create-subscription: the plan, the interval (monthly when absent) and its price in cents
 * (must be planPriceCents); `payByInvoice` (Enterprise only, with Stripe) sends invoices instead of
 * charging a payment method.
 */
export const createSubscriptionSchema = z.object({
  planId: planIdSchema,
  amount: z.number().int(),
  interval: billingIntervalSchema.optional(),
  payByInvoice: z.boolean().optional(),
});
export type CreateSubscriptionInput = z.infer<typeof createSubscriptionSchema>;

/** Its answer: no client secret when no payment provider is configured (no card is collected). */
export const createSubscriptionResponseSchema = z.object({
  clientSecret: z.string().nullable(),
  status: subscriptionStatusSchema,
});

/** GET /api/billing/config: which payment provider collects, and Stripe's publishable key (run time). */
export const billingConfigResponseSchema = z.object({
  provider: z.enum(['none', 'stripe']),
  publishableKey: z.string().nullable(),
});
export type BillingConfigResponse = z.infer<typeof billingConfigResponseSchema>;

/** POST /api/billing/setup-intent (Stripe only): the client secret of a SetupIntent for a new card. */
export const setupIntentResponseSchema = z.object({ clientSecret: z.string() });
export type SetupIntentResponse = z.infer<typeof setupIntentResponseSchema>;

/** The statuses Stripe gives an invoice (`draft` ones are never listed). */
export const invoiceStatusValues = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;
export type InvoiceStatus = (typeof invoiceStatusValues)[number];

/**
 * One invoice of the organization, as the payment provider issued it: amounts in the currency's
 * smallest unit (cents), `currency` lowercase ISO 4217 ('usd'), times in epoch seconds. The status is
 * one of invoiceStatusValues, kept a string so a status Stripe adds later still passes.
 */
export const invoiceSchema = z.object({
  id: z.string(),
  /** 'A1B2C3D4-0001'; null until Stripe finalizes the invoice. */
  number: z.string().nullable(),
  status: z.string().nullable(),
  amountDue: z.number(),
  amountPaid: z.number(),
  currency: z.string(),
  created: z.number(),
  periodStart: z.number().nullable(),
  periodEnd: z.number().nullable(),
  /** Stripe's hosted page of the invoice (pay or view it). */
  hostedInvoiceUrl: z.string().nullable(),
  /** The invoice as a PDF. */
  pdfUrl: z.string().nullable(),
});
export type BillingInvoice = z.infer<typeof invoiceSchema>;

/** GET /api/billing/invoices (owners and admins): newest first; always empty without a provider. */
export const invoicesResponseSchema = z.object({
  invoices: z.array(invoiceSchema),
  provider: z.enum(['none', 'stripe']),
});
export type InvoicesResponse = z.infer<typeof invoicesResponseSchema>;

/** The 402 body when a plan limit blocks an action. */
export const planLimitErrorSchema = z.object({
  message: z.string(),
  code: z.literal('plan_limit'),
  limit: z.enum(['agents', 'executions', 'members', 'api_access', 'knowledge_storage']),
  /** The plan whose limit applies; 'free' without a trial or subscription. */
  plan: z.string(),
});
export type PlanLimitError = z.infer<typeof planLimitErrorSchema>;

export const billingMessages = {
  /** e.g. 'Your Starter plan allows 5 agents. Upgrade your plan to add more.' */
  agentLimit: (planName: string, limit: number) =>
    `Your ${planName} plan allows ${limit} agents. Upgrade your plan to add more.`,
  executionLimit: (planName: string, limit: number) =>
    `Your ${planName} plan allows ${formatNumber(limit)} executions a month. Upgrade your plan to run more.`,
  memberLimit: (planName: string, limit: number) =>
    `Your ${planName} plan allows ${limit} team member${limit === 1 ? '' : 's'}. Upgrade your plan to invite more.`,
  apiAccess: (planName: string) =>
    `Your ${planName} plan does not include API access. Upgrade to Professional or Enterprise to use API keys.`,
  noSubscription: 'There is no subscription to cancel: the organization is on the Free plan.',
  alreadyCanceled: 'The subscription is already canceled: it ends at the end of the current period.',
  noPaymentProvider: 'No payment provider is configured: there is no payment method to update.',
  trialUsed:
    'This organization has already used its free trial, and no payment provider is configured to pay for a plan.',
  wrongAmount: (planName: string, cents: number, interval: BillingInterval = 'month') =>
    `The ${planName} plan costs ${cents} cents a ${interval}; the amount sent does not match.`,
  invoiceEnterpriseOnly: 'Only the Enterprise plan can be paid by invoice.',
  invoiceNeedsProvider:
    'Invoices are sent through the payment provider, and none is configured: contact us to pay Enterprise by invoice.',
} as const;
