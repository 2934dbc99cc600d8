import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { organizations } from '@crewline/db';
import { PLAN_PRICE_CENTS, type AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testConfig } from '../../testing/test-config';
import { signedEvent, startFakeStripeServer, type FakeStripeServer } from '../../testing/fake-stripe-server';

const DAY = 86_400_000;
const WEBHOOK_SECRET = 'whsec_test_0123456789';
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
      // Only the configured Stripe host is trusted, not loopback in general.
      egressAllowList: [],
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const subscribe = (who: AuthResponse, planId: 'starter' | 'professional' | 'enterprise') =>
  t.request({
    method: 'POST',
    url: '/api/create-subscription',
    token: who.token,
    payload: { planId, amount: PLAN_PRICE_CENTS[planId] },
  });

const deliver = (payload: string, signature: string) =>
  t.request({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });

async function row(who: AuthResponse) {
  const [org] = await t.db.select().from(organizations).where(eq(organizations.id, who.organization.id));
  return org;
}

async function subscribed(who: AuthResponse) {
  const res = await subscribe(who, 'starter');
  expect(res.statusCode).toBe(200);
  const org = await row(who);
  return { res, org, subscription: fake.subscriptions.get(org.stripeSubscriptionId!)! };
}

function subscriptionEvent(
  subscription: Record<string, unknown>,
  changes: Record<string, unknown>,
  id?: string,
) {
  return signedEvent(WEBHOOK_SECRET, {
    id,
    type: 'customer.subscription.updated',
    object: { ...subscription, ...changes },
  });
}

describe('Stripe mode', () => {
  it('create-subscription makes a customer, a price and a subscription that ends its trial with the trial', async () => {
    const ada = await t.signup({ plan: 'starter' });
    const { res, org, subscription } = await subscribed(ada);
    const body = res.json();
    expect(body.status).toBe('trialing');
    expect(body.clientSecret).toMatch(/^seti_.*_secret_/);
    expect(org.stripeCustomerId).toMatch(/^cus_/);
    expect(fake.customers.get(org.stripeCustomerId!)?.metadata).toEqual({
      organization_id: ada.organization.id,
    });
    const price = [...fake.prices.values()].find((p) => p.lookup_key === 'crewline_starter');
    expect(price).toMatchObject({ unit_amount: 1900, currency: 'usd', recurring: { interval: 'month' } });
    expect(subscription).toMatchObject({
      customer: org.stripeCustomerId,
      status: 'trialing',
      trial_end: Math.floor(new Date(ada.organization.trialEndsAt!).getTime() / 1000),
      payment_behavior: 'default_incomplete',
    });
    // A second organization reuses the price found by its lookup key.
    await subscribed(await t.signup({ plan: 'starter' }));
    expect([...fake.prices.values()].filter((p) => p.lookup_key === 'crewline_starter')).toHaveLength(1);
  });

  it('a signed customer.subscription.updated moves the organization to active, once per event id', async () => {
    const bea = await t.signup({ plan: 'starter' });
    const { subscription } = await subscribed(bea);
    const periodEnd = Math.floor((Date.now() + 30 * DAY) / 1000);
    const items = subscription.items as { data: Record<string, unknown>[] };
    const event = subscriptionEvent(subscription, {
      status: 'active',
      trial_end: null,
      items: { object: 'list', data: [{ ...items.data[0], current_period_end: periodEnd }] },
    });
    const first = await deliver(event.payload, event.signature);
    expect(first.statusCode).toBe(200);
    const status = await t.request({ method: 'GET', url: '/api/subscription-status', token: bea.token });
    expect(status.json()).toMatchObject({ status: 'active', plan: 'starter', currentPeriodEnd: periodEnd });

    // The same event id again is acknowledged and not applied (the row was changed meanwhile).
    await t.db
      .update(organizations)
      .set({ subscriptionStatus: 'past_due' })
      .where(eq(organizations.id, bea.organization.id));
    const again = await deliver(event.payload, event.signature);
    expect(again.statusCode).toBe(200);
    expect((await row(bea)).subscriptionStatus).toBe('past_due');
  });

  it('refuses a bad signature with 400 and changes nothing', async () => {
    const cy = await t.signup({ plan: 'starter' });
    const { subscription } = await subscribed(cy);
    const event = subscriptionEvent(subscription, { status: 'active' });
    const forged = signedEvent('whsec_wrong', {
      type: 'customer.subscription.updated',
      object: subscription,
    });
    const res = await deliver(event.payload, forged.signature);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: expect.any(String) });
    const tampered = await deliver(event.payload.replace('"active"', '"canceled"'), event.signature);
    expect(tampered.statusCode).toBe(400);
    expect((await row(cy)).subscriptionStatus).toBe('trialing');
  });

  it('cancel sets cancel_at_period_end on the Stripe subscription', async () => {
    const dee = await t.signup({ plan: 'starter' });
    const { subscription } = await subscribed(dee);
    const res = await t.request({
      method: 'POST',
      url: '/api/cancel-subscription',
      token: dee.token,
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().cancelAtPeriodEnd).toBe(true);
    expect(subscription.cancel_at_period_end).toBe(true);
  });

  it('an upgrade changes the subscription item price at once, prorated', async () => {
    const eve = await t.signup({ plan: 'starter' });
    const { subscription } = await subscribed(eve);
    expect((await subscribe(eve, 'enterprise')).statusCode).toBe(200);
    const items = subscription.items as { data: { price: { lookup_key: string } }[] };
    expect(items.data[0].price.lookup_key).toBe('crewline_enterprise');
    expect(subscription.proration_behavior).toBe('create_prorations');
  });

  it('answers the billing config and a SetupIntent for a new payment method', async () => {
    const fay = await t.signup();
    const config = await t.request({ method: 'GET', url: '/api/billing/config', token: fay.token });
    expect(config.json()).toEqual({ provider: 'stripe', publishableKey: 'pk_test_crewline' });
    const intent = await t.request({
      method: 'POST',
      url: '/api/billing/setup-intent',
      token: fay.token,
      payload: {},
    });
    expect(intent.statusCode).toBe(200);
    expect(intent.json().clientSecret).toMatch(/^seti_/);
  });

  it('admits Stripe.js and the Stripe API in the CSP', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain('frame-src https://js.stripe.com');
    expect(csp).toContain('https://api.stripe.com');
  });
});

describe('without Stripe', () => {
  it('answers provider none, keeps Stripe out of the CSP and has no webhook', async () => {
    const plain = await createTestApp({ config: testConfig() });
    try {
      const who = await plain.signup();
      const config = await plain.request({ method: 'GET', url: '/api/billing/config', token: who.token });
      expect(config.json()).toEqual({ provider: 'none', publishableKey: null });
      const csp = String(config.headers['content-security-policy']);
      expect(csp).not.toContain('stripe');
      const intent = await plain.request({
        method: 'POST',
        url: '/api/billing/setup-intent',
        token: who.token,
        payload: {},
      });
      expect(intent.statusCode).toBe(409);
      const hook = await plain.request({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
        payload: '{}',
      });
      expect(hook.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
