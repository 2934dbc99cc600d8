import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { subscriptions } from '@crewline/db';
import { planPriceCents, type AuthResponse, type SubscriptionStatusResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { signedEvent, startFakeStripeServer, type FakeStripeServer } from '../../testing/fake-stripe-server';

// With Stripe (the fake): yearly prices, Enterprise by invoice, and the payment method the
// subscription reports, as the billing summary shows them.
const WEBHOOK_SECRET = 'whsec_test_yearly';
let fake: FakeStripeServer;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeStripeServer();
  t = await createTestApp({
    config: {
      stripe: {
        secretKey: fake.secretKey,
        publishableKey: 'pk_test_crewline',
        webhookSecret: WEBHOOK_SECRET,
        apiBase: fake.url,
      },
      egressAllowList: [],
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

type Obj = Record<string, unknown>;
type Items = {
  data: {
    price: { id: string; lookup_key: string; unit_amount: number; recurring: { interval: string } };
    current_period_end: number;
  }[];
};

async function summary(who: AuthResponse): Promise<SubscriptionStatusResponse> {
  const res = await t.request({ method: 'GET', url: '/api/subscription-status', token: who.token });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function stripeSubscription(who: AuthResponse) {
  const [org] = await t.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, who.organization.id));
  return fake.subscriptions.get(org.stripeSubscriptionId!)!;
}

/** A call to the fake as the SDK makes it: form-encoded, with the secret key. */
function stripeCall(path: string, form: Record<string, string>) {
  return fetch(`${fake.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${fake.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form).toString(),
  });
}

describe('yearly billing with Stripe', () => {
  it('subscribes on a yearly price: 12 × monthly less 20 %, billed every year', async () => {
    const ada = await t.signup({ plan: 'starter' });
    const res = await t.request({
      method: 'POST',
      url: '/api/create-subscription',
      token: ada.token,
      payload: { planId: 'professional', amount: 47_040, interval: 'year' },
    });
    expect(res.statusCode).toBe(200);
    const subscription = await stripeSubscription(ada);
    const item = (subscription.items as Items).data[0];
    expect(item.price).toMatchObject({
      lookup_key: 'crewline_professional_yearly',
      unit_amount: planPriceCents('professional', 'year'),
      recurring: { interval: 'year' },
    });
    expect(await summary(ada)).toMatchObject({ plan: 'professional', interval: 'year', status: 'trialing' });

    // Back to monthly: the monthly price, the item's period a month long.
    const monthly = await t.request({
      method: 'POST',
      url: '/api/create-subscription',
      token: ada.token,
      payload: { planId: 'professional', amount: 4900, interval: 'month' },
    });
    expect(monthly.statusCode).toBe(200);
    const after = (subscription.items as Items).data[0];
    expect(after.price).toMatchObject({
      lookup_key: 'crewline_professional',
      recurring: { interval: 'month' },
    });
    expect((await summary(ada)).interval).toBe('month');
  });

  it('reads the interval and the saved payment method from the subscription Stripe reports', async () => {
    const bea = await t.signup({ plan: 'starter' });
    const res = await t.request({
      method: 'POST',
      url: '/api/create-subscription',
      token: bea.token,
      payload: { planId: 'starter', amount: 18_240, interval: 'year' },
    });
    expect(res.statusCode).toBe(200);
    expect(await summary(bea)).toMatchObject({ paymentMethod: null, atTrialEnd: 'free' });
    const subscription = await stripeSubscription(bea);
    const event = signedEvent(WEBHOOK_SECRET, {
      type: 'customer.subscription.updated',
      object: { ...subscription, default_payment_method: 'pm_card_visa' },
    });
    const delivered = await t.request({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.payload,
    });
    expect(delivered.statusCode).toBe(200);
    expect(await summary(bea)).toMatchObject({
      interval: 'year',
      paymentMethod: 'saved',
      atTrialEnd: 'billed',
    });
  });

  it('is checked by the fake as Stripe checks it: recurring prices it knows, one interval', async () => {
    const noInterval = await stripeCall('/v1/prices', { currency: 'usd', unit_amount: '100' });
    expect(noInterval.status).toBe(400);
    expect(((await noInterval.json()) as { error: Obj }).error.param).toBe('recurring[interval]');

    const prices = [...fake.prices.values()];
    const month = prices.find((p) => (p.recurring as Obj).interval === 'month')!;
    const year = prices.find((p) => (p.recurring as Obj).interval === 'year')!;
    const customer = [...fake.customers.keys()][0];
    const mixed = await stripeCall('/v1/subscriptions', {
      customer,
      'items[0][price]': String(month.id),
      'items[1][price]': String(year.id),
    });
    expect(mixed.status).toBe(400);
    const unknown = await stripeCall('/v1/subscriptions', { customer, 'items[0][price]': 'price_nope' });
    expect(unknown.status).toBe(404);
    const invoiceWithoutDays = await stripeCall('/v1/subscriptions', {
      customer,
      'items[0][price]': String(year.id),
      collection_method: 'send_invoice',
    });
    expect(invoiceWithoutDays.status).toBe(400);
    expect(((await invoiceWithoutDays.json()) as { error: Obj }).error.param).toBe('days_until_due');
  });
});

describe('Enterprise by invoice with Stripe', () => {
  it('creates a subscription Stripe invoices, due in 30 days, with nothing to confirm', async () => {
    const cat = await t.signup({ plan: 'professional' });
    const res = await t.request({
      method: 'POST',
      url: '/api/create-subscription',
      token: cat.token,
      payload: { planId: 'enterprise', amount: 143_040, interval: 'year', payByInvoice: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ clientSecret: null, status: 'trialing' });
    const subscription = await stripeSubscription(cat);
    expect(subscription).toMatchObject({ collection_method: 'send_invoice', days_until_due: 30 });
    expect((subscription.items as Items).data[0].price.recurring.interval).toBe('year');
    expect(await summary(cat)).toMatchObject({
      plan: 'enterprise',
      interval: 'year',
      paymentMethod: 'invoice',
      atTrialEnd: 'billed',
    });
  });

  it('refuses invoices for other plans', async () => {
    const dan = await t.signup();
    const res = await t.request({
      method: 'POST',
      url: '/api/create-subscription',
      token: dan.token,
      payload: { planId: 'professional', amount: 4900, payByInvoice: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Only the Enterprise plan can be paid by invoice.' });
  });
});
