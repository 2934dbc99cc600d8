import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import {
  DAYS_UNTIL_INVOICE_DUE,
  planDisplayNames,
  planPriceCents,
  type BillingInterval,
  type BillingInvoice,
  type PlanId,
} from '@crewline/contracts';
import { createEgress, egressFetch, type Egress, type ReservedCheck } from '../../platform/egress';
import type { Config, StripeSettings } from '../../platform/env';
import { allowListEntry } from '../../platform/egress/allow-list-entry';
import type { PaymentProvider } from './payment-provider';
import { asPlanId } from './subscription-state';

/**
 * The Stripe price of each plan and interval is found (or made) by this lookup key: `crewline_starter`
 * (monthly, the key from before yearly billing) and `crewline_starter_yearly`.
 */
const priceLookupKey = (plan: PlanId, interval: BillingInterval = 'month') =>
  interval === 'year' ? `crewline_${plan}_yearly` : `crewline_${plan}`;

/** The plan a Stripe price stands for, from its lookup key; null for a price that is not ours. */
export function planOfLookupKey(lookupKey: string | null | undefined): PlanId | null {
  if (!lookupKey?.startsWith('crewline_')) return null;
  return asPlanId(lookupKey.slice('crewline_'.length).replace(/_yearly$/, ''));
}

/** Egress for the Stripe API: the configured API host is trusted like the Microsoft hosts. */
export function createStripeEgress(config: Config, reserved?: ReservedCheck): Egress {
  return createEgress({
    allowList: [...config.egressAllowList, allowListEntry(config.stripe.apiBase)],
    reserved,
  }).for('service');
}

let stripeSdk: typeof Stripe | undefined;

/**
 * The SDK's module, loaded on first use: only a process with STRIPE_SECRET_KEY makes a client, and the
 * others are spared its memory. Synchronously (its CommonJS build), as services are made synchronously.
 */
function loadStripeSdk(): typeof Stripe {
  stripeSdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  return stripeSdk;
}

/** The SDK, pointed at STRIPE_API_BASE, its HTTP through the egress module. */
export function createStripeClient(settings: StripeSettings, egress: Egress): Stripe {
  const StripeSdk = loadStripeSdk();
  const base = new URL(settings.apiBase);
  return new StripeSdk(settings.secretKey!, {
    host: base.hostname,
    port: base.port || (base.protocol === 'https:' ? 443 : 80),
    protocol: base.protocol === 'https:' ? 'https' : 'http',
    httpClient: StripeSdk.createFetchHttpClient(egressFetch(egress)),
    maxNetworkRetries: 1,
    telemetry: false,
  });
}

/** What the Stripe provider stores on the organization row. */
export interface StripeIdsStore {
  stripeIds(
    organizationId: string,
  ): Promise<{ name: string; customerId: string | null; subscriptionId: string | null } | undefined>;
  saveStripeCustomer(organizationId: string, customerId: string): Promise<void>;
  saveStripeSubscription(organizationId: string, subscriptionId: string): Promise<void>;
}

type Expandable<T> = string | T | null | undefined;
const expanded = <T extends object>(value: Expandable<T>): T | null =>
  value && typeof value === 'object' ? value : null;

/**
 * The client secret the Payment Element confirms: the trial's SetupIntent, or the payment of the latest
 * invoice while it is still open (unpaid). A paid latest invoice (an upgrade whose proration is billed
 * with the next invoice, a renewal) has nothing to confirm: its PaymentIntent has succeeded.
 */
function clientSecretOf(subscription: Stripe.Subscription): string | null {
  const setup = expanded(subscription.pending_setup_intent);
  if (setup?.client_secret) return setup.client_secret;
  const invoice = expanded(subscription.latest_invoice);
  if (invoice && invoice.status !== 'open') return null;
  return invoice?.confirmation_secret?.client_secret ?? null;
}

/** A Stripe invoice as GET /api/billing/invoices answers it. */
function invoiceOf(invoice: Stripe.Invoice): BillingInvoice {
  return {
    id: invoice.id,
    number: invoice.number ?? null,
    status: invoice.status ?? null,
    amountDue: invoice.amount_due,
    amountPaid: invoice.amount_paid,
    currency: invoice.currency,
    created: invoice.created,
    periodStart: invoice.period_start ?? null,
    periodEnd: invoice.period_end ?? null,
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
    pdfUrl: invoice.invoice_pdf ?? null,
  };
}

/** How many invoices View History lists (two years of monthly invoices). */
const INVOICE_LIST_LIMIT = 24;

/**
 * Stripe collects: one customer per organization, one subscription, prices by lookup key. Status,
 * periods and plan come back by webhook (billing.service.ts applyStripeEvent).
 */
export function createStripeProvider(deps: {
  stripe: Stripe;
  publishableKey: string | null;
  store: StripeIdsStore;
}): PaymentProvider {
  const { stripe, store } = deps;

  async function ids(organizationId: string) {
    const found = await store.stripeIds(organizationId);
    if (!found) throw new Error(`organization ${organizationId} not found`);
    return found;
  }

  async function customerFor(organizationId: string): Promise<string> {
    const found = await ids(organizationId);
    if (found.customerId) return found.customerId;
    const customer = await stripe.customers.create(
      { name: found.name, metadata: { organization_id: organizationId } },
      { idempotencyKey: `crewline-customer-${organizationId}` },
    );
    await store.saveStripeCustomer(organizationId, customer.id);
    return customer.id;
  }

  /**
   * The price of the plan at the interval. A price found by its key is used only if it bills that
   * interval and amount; otherwise a new one takes the key over (`transfer_lookup_key`), so a price
   * edited in the dashboard never charges what the page does not show.
   */
  async function priceFor(plan: PlanId, interval: BillingInterval): Promise<string> {
    const lookupKey = priceLookupKey(plan, interval);
    const amount = planPriceCents(plan, interval);
    const found = await stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 });
    const existing = found.data[0];
    if (existing && existing.recurring?.interval === interval && existing.unit_amount === amount) {
      return existing.id;
    }
    const price = await stripe.prices.create({
      currency: 'usd',
      unit_amount: amount,
      recurring: { interval },
      lookup_key: lookupKey,
      transfer_lookup_key: Boolean(existing),
      product_data: { name: `Crewline ${planDisplayNames[plan]}${interval === 'year' ? ' (yearly)' : ''}` },
    });
    return price.id;
  }

  /** Invoices sent and due in DAYS_UNTIL_INVOICE_DUE days, or the saved payment method charged. */
  const collection = (payByInvoice: boolean) =>
    payByInvoice
      ? { collection_method: 'send_invoice' as const, days_until_due: DAYS_UNTIL_INVOICE_DUE }
      : { collection_method: 'charge_automatically' as const };

  return {
    name: 'stripe',
    collectsPayment: true,
    publishableKey: deps.publishableKey,

    async subscribe({ organizationId, planId, interval, payByInvoice, change }) {
      const price = await priceFor(planId, interval);
      const { subscriptionId } = await ids(organizationId);
      const expand = ['pending_setup_intent', 'latest_invoice.confirmation_secret'];
      if (change.kind !== 'create' && subscriptionId) {
        const current = await stripe.subscriptions.retrieve(subscriptionId);
        const item = current.items.data[0];
        const updated = await stripe.subscriptions.update(subscriptionId, {
          items: [{ id: item.id, price }],
          proration_behavior: change.kind === 'now' ? 'create_prorations' : 'none',
          cancel_at_period_end: false,
          ...collection(payByInvoice),
          expand,
        });
        return { clientSecret: clientSecretOf(updated) };
      }
      const customer = await customerFor(organizationId);
      const subscription = await stripe.subscriptions.create({
        customer,
        items: [{ price }],
        // No trial days once the organization's trial is used: the first invoice is due at once.
        ...(change.trialEnd ? { trial_end: Math.floor(change.trialEnd.getTime() / 1000) } : {}),
        // Paid by invoice, Stripe emails each invoice and nothing is confirmed here.
        ...(payByInvoice
          ? collection(true)
          : {
              payment_behavior: 'default_incomplete' as const,
              payment_settings: { save_default_payment_method: 'on_subscription' as const },
            }),
        metadata: { organization_id: organizationId },
        expand,
      });
      await store.saveStripeSubscription(organizationId, subscription.id);
      return { clientSecret: clientSecretOf(subscription) };
    },

    async cancelAtPeriodEnd(organizationId) {
      const { subscriptionId } = await ids(organizationId);
      if (!subscriptionId) return;
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    },

    async createSetupIntent(organizationId) {
      const customer = await customerFor(organizationId);
      const intent = await stripe.setupIntents.create({
        customer,
        usage: 'off_session',
        metadata: { organization_id: organizationId },
      });
      return { clientSecret: intent.client_secret! };
    },

    async listInvoices(organizationId) {
      // No customer yet: nothing was ever billed (and none is created just to look).
      const { customerId } = await ids(organizationId);
      if (!customerId) return [];
      const page = await stripe.invoices.list({ customer: customerId, limit: INVOICE_LIST_LIMIT });
      // Drafts are not final (a renewal's invoice is a draft for about an hour) and have no page yet.
      return page.data.filter((invoice) => invoice.status !== 'draft').map(invoiceOf);
    },
  };
}
