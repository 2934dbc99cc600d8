import type { BillingInterval, BillingInvoice, PlanId } from '@crewline/contracts';

/**
 * How a subscribe call changes the paid subscription: 'create' (from Free), 'now' (upgrade, or any
 * change during a trial: prorated) or 'at_period_end' (a downgrade: the next period is billed at the
 * new price). A provider without a subscription for the organization yet creates one, in trial until
 * `trialEnd` (the trial's remaining end, or the one trial just started from Free); with `trialEnd`
 * null (the organization's trial is used) without trial days: its first period is paid at once.
 */
export type SubscribeChange = { kind: 'create' | 'now' | 'at_period_end'; trialEnd: Date | null };

/**
 * Where payments are taken. The billing service decides plans, trials and limits; a provider only
 * collects money and reports back. Without one ('none') no card is asked and the service's changes
 * are all there is. The Stripe provider (stripe-provider.ts) creates the customer and the
 * subscription, answers the client secret of the card form, and reports status changes by webhook.
 */
export interface PaymentProvider {
  readonly name: 'none' | 'stripe';
  /** False when no payment is collected. */
  readonly collectsPayment: boolean;
  /** The key the browser loads Stripe.js with; null without Stripe. */
  readonly publishableKey: string | null;
  /** Starts or changes the organization's paid subscription; the client secret confirms a card, if any. */
  subscribe(input: {
    organizationId: string;
    planId: PlanId;
    /** Monthly or yearly: the provider's price for the plan at that interval. */
    interval: BillingInterval;
    /** Enterprise only: invoices sent (due DAYS_UNTIL_INVOICE_DUE days later) instead of a charged payment method. */
    payByInvoice: boolean;
    amountCents: number;
    change: SubscribeChange;
  }): Promise<{ clientSecret: string | null }>;
  /** Asks the provider to end the subscription at the end of its period. */
  cancelAtPeriodEnd(organizationId: string): Promise<void>;
  /** A SetupIntent's client secret for a new payment method; null when no payment is collected. */
  createSetupIntent(organizationId: string): Promise<{ clientSecret: string } | null>;
  /** The organization's invoices, newest first (at most 24); empty when nothing was ever billed. */
  listInvoices(organizationId: string): Promise<BillingInvoice[]>;
}

/** No payment provider configured: trials without a card, changes applied by the billing service. */
export function createNoPaymentProvider(): PaymentProvider {
  return {
    name: 'none',
    collectsPayment: false,
    publishableKey: null,
    subscribe: () => Promise.resolve({ clientSecret: null }),
    cancelAtPeriodEnd: () => Promise.resolve(),
    createSetupIntent: () => Promise.resolve(null),
    listInvoices: () => Promise.resolve([]),
  };
}
