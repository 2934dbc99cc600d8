import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { subscriptions } from '@crewline/db';
import {
  FREE_LIMITS,
  PLAN_LIMITS,
  PLAN_PRICE_CENTS,
  invoicesResponseSchema,
  roleRequired,
  type AuthResponse,
  type PlanId,
  type SubscriptionStatusResponse,
} from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { joinOrganization } from '../../testing/app-fixtures';
import { testConfig } from '../../testing/test-config';
import { signedEvent, startFakeStripeServer, type FakeStripeServer } from '../../testing/fake-stripe-server';

const DAY = 86_400_000;
const WEBHOOK_SECRET = 'whsec_test_0123456789';
let fake: FakeStripeServer;
let t: TestApp;
const logLines: { level: number; msg: string; reason?: string }[] = [];

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
    loggerInstance: pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
          done();
        },
      }),
    ),
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const subscribe = (who: AuthResponse, planId: PlanId) =>
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
  const [org] = await t.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.organizationId, who.organization.id));
  return org;
}

async function subscribed(who: AuthResponse, plan: PlanId = 'starter') {
  const res = await subscribe(who, plan);
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

async function status(who: AuthResponse): Promise<SubscriptionStatusResponse> {
  const res = await t.request({ method: 'GET', url: '/api/subscription-status', token: who.token });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Signs and delivers an event; Stripe's delivery counts as done on a 2xx. */
async function deliverEvent(type: string, object: Record<string, unknown>) {
  const event = signedEvent(WEBHOOK_SECRET, { type, object });
  const res = await deliver(event.payload, event.signature);
  expect(res.statusCode).toBe(200);
}

type Items = { data: Record<string, unknown>[] };
const price = (plan: PlanId) => [...fake.prices.values()].find((p) => p.lookup_key === `crewline_${plan}`)!;
/** The subscription as Stripe sends it in a webhook: its one item on `plan`'s price, the period ending at `periodEnd`. */
function subscriptionOn(
  subscription: Record<string, unknown>,
  plan: PlanId,
  periodEnd: number,
  changes: Record<string, unknown> = {},
) {
  const item = (subscription.items as Items).data[0];
  return {
    ...subscription,
    items: { object: 'list', data: [{ ...item, price: price(plan), current_period_end: periodEnd }] },
    ...changes,
  };
}

/**
 * The organization's Stripe subscription made active on `plan` until `periodEnd`, as Stripe has it once
 * the card is saved (no pending SetupIntent) and the trial is over, and its webhook delivered.
 */
async function activeOn(who: AuthResponse, plan: PlanId, periodEnd: number) {
  const { subscription, org } = await subscribed(who, plan);
  Object.assign(subscription, subscriptionOn(subscription, plan, periodEnd), {
    status: 'active',
    trial_end: null,
    pending_setup_intent: null,
  });
  await deliverEvent('customer.subscription.updated', subscription);
  expect(await status(who)).toMatchObject({ status: 'active', plan, currentPeriodEnd: periodEnd });
  return { subscription, customer: org.stripeCustomerId! };
}

const invoicesOf = (who: AuthResponse) =>
  t.request({ method: 'GET', url: '/api/billing/invoices', token: who.token });

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
      .update(subscriptions)
      .set({ subscriptionStatus: 'past_due' })
      .where(eq(subscriptions.organizationId, bea.organization.id));
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

  it('answers no client secret when the latest invoice is already paid (nothing to confirm)', async () => {
    const gus = await t.signup({ plan: 'starter' });
    const { subscription, org } = await subscribed(gus);
    // The trial's SetupIntent was used, and the latest invoice was paid: its PaymentIntent succeeded.
    const paid = fake.addInvoice(org.stripeCustomerId!, {
      subscription: subscription.id as string,
      amount_due: 1900,
      confirmation_secret: { type: 'payment_intent', client_secret: 'pi_paid_secret_done' },
    });
    Object.assign(subscription, { pending_setup_intent: null, latest_invoice: paid.id });
    const res = await subscribe(gus, 'enterprise');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ clientSecret: null, status: 'trialing' });
  });

  it('admits Stripe.js and the Stripe API in the CSP', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self' https://js.stripe.com");
    expect(csp).toContain('frame-src https://js.stripe.com');
    expect(csp).toContain('https://api.stripe.com');
  });
});

describe('Stripe webhooks', () => {
  it('invoice.paid with an amount moves a trialing organization to active until the line’s period end', async () => {
    const ann = await t.signup({ plan: 'starter' });
    const { org, subscription } = await subscribed(ann);
    const customer = org.stripeCustomerId!;
    // The trial's $0 invoice changes nothing.
    const trialInvoice = fake.addInvoice(customer, { subscription: subscription.id as string });
    await deliverEvent('invoice.paid', trialInvoice);
    expect((await status(ann)).status).toBe('trialing');

    const start = Math.floor(Date.now() / 1000);
    const periodEnd = start + 30 * 86_400;
    const invoice = fake.addInvoice(customer, {
      subscription: subscription.id as string,
      amount_due: 1900,
      line_period: { start, end: periodEnd },
    });
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 1900, currency: 'usd' });
    await deliverEvent('invoice.paid', invoice);
    expect(await status(ann)).toMatchObject({
      status: 'active',
      plan: 'starter',
      trialEnd: null,
      currentPeriodEnd: periodEnd,
      limits: PLAN_LIMITS.starter,
    });
  });

  it('invoice.payment_failed makes the subscription past_due and keeps its plan', async () => {
    const ben = await t.signup({ plan: 'starter' });
    const periodEnd = Math.floor((Date.now() + 30 * DAY) / 1000);
    const { customer, subscription } = await activeOn(ben, 'starter', periodEnd);
    const failed = fake.addInvoice(customer, {
      subscription: subscription.id as string,
      status: 'open',
      amount_due: 1900,
      line_period: { start: periodEnd - 30 * 86_400, end: periodEnd },
    });
    expect(failed.amount_paid).toBe(0);
    await deliverEvent('invoice.payment_failed', failed);
    expect(await status(ben)).toMatchObject({
      status: 'past_due',
      plan: 'starter',
      currentPeriodEnd: periodEnd,
      limits: PLAN_LIMITS.starter,
    });
  });

  it('customer.subscription.deleted puts the organization on Free', async () => {
    const cal = await t.signup({ plan: 'professional' });
    const periodEnd = Math.floor((Date.now() + 30 * DAY) / 1000);
    const { subscription } = await activeOn(cal, 'professional', periodEnd);
    await deliverEvent(
      'customer.subscription.deleted',
      subscriptionOn(subscription, 'professional', periodEnd, { status: 'canceled' }),
    );
    expect(await status(cal)).toMatchObject({
      status: 'no_subscription',
      plan: null,
      trialEnd: null,
      currentPeriodEnd: null,
      pendingPlan: null,
      limits: FREE_LIMITS,
    });
  });

  it('a downgrade keeps the paid plan until the subscription renews on the lower price', async () => {
    const dot = await t.signup({ plan: 'professional' });
    const periodEnd = Math.floor((Date.now() + 20 * DAY) / 1000);
    const { subscription } = await activeOn(dot, 'professional', periodEnd);

    const res = await subscribe(dot, 'starter');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ clientSecret: null, status: 'active' });
    // Stripe's subscription bills Starter from the next period, without proration.
    const item = (subscription.items as Items).data[0] as { price: { lookup_key: string } };
    expect(item.price.lookup_key).toBe('crewline_starter');
    expect(subscription.proration_behavior).toBe('none');
    const pending = { status: 'active', plan: 'professional', pendingPlan: 'starter' };
    expect(await status(dot)).toMatchObject({ ...pending, currentPeriodEnd: periodEnd });

    // The update's own webhook (Starter price, same period) changes nothing yet.
    await deliverEvent('customer.subscription.updated', subscriptionOn(subscription, 'starter', periodEnd));
    expect(await status(dot)).toMatchObject({
      ...pending,
      currentPeriodEnd: periodEnd,
      limits: PLAN_LIMITS.professional,
    });

    // The renewal: a later period on the Starter price.
    const nextEnd = periodEnd + 30 * 86_400;
    await deliverEvent('customer.subscription.updated', subscriptionOn(subscription, 'starter', nextEnd));
    expect(await status(dot)).toMatchObject({
      status: 'active',
      plan: 'starter',
      pendingPlan: null,
      currentPeriodEnd: nextEnd,
      limits: PLAN_LIMITS.starter,
    });
  });

  it('a renewal invoice paid before the renewal’s subscription event applies the downgrade too', async () => {
    const eli = await t.signup({ plan: 'professional' });
    const periodEnd = Math.floor((Date.now() + 20 * DAY) / 1000);
    const { subscription, customer } = await activeOn(eli, 'professional', periodEnd);
    expect((await subscribe(eli, 'starter')).statusCode).toBe(200);

    const nextEnd = periodEnd + 30 * 86_400;
    const renewal = fake.addInvoice(customer, {
      subscription: subscription.id as string,
      amount_due: 1900,
      line_period: { start: periodEnd, end: nextEnd },
    });
    await deliverEvent('invoice.paid', renewal);
    const renewed = { status: 'active', plan: 'starter', pendingPlan: null, currentPeriodEnd: nextEnd };
    expect(await status(eli)).toMatchObject(renewed);
    // The subscription event of the same renewal, arriving after it, agrees.
    await deliverEvent('customer.subscription.updated', subscriptionOn(subscription, 'starter', nextEnd));
    expect(await status(eli)).toMatchObject(renewed);
  });
});

describe('one trial per organization, with Stripe', () => {
  /** The organization's trial ended (as if its 14 days had passed): it is on Free. */
  async function trialEnded(who: AuthResponse) {
    await t.db
      .update(subscriptions)
      .set({ trialEndsAt: new Date(Date.now() - DAY) })
      .where(eq(subscriptions.organizationId, who.organization.id));
    expect(await status(who)).toMatchObject({ status: 'no_subscription', plan: null, trialUsed: true });
  }

  it('after the trial, subscribing creates a subscription without trial days, on Free until it is paid', async () => {
    const ivy = await t.signup({ plan: 'starter' });
    await trialEnded(ivy);
    const res = await subscribe(ivy, 'professional');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // The first invoice's payment, not a trial's SetupIntent: the card pays at once.
    expect(body).toEqual({
      clientSecret: expect.stringMatching(/^pi_.*_secret_/),
      status: 'no_subscription',
    });
    const org = await row(ivy);
    const subscription = fake.subscriptions.get(org.stripeSubscriptionId!)!;
    expect(subscription).toMatchObject({ status: 'incomplete', trial_end: null, pending_setup_intent: null });
    expect(fake.requests.at(-1)?.body.trial_end).toBeUndefined();
    const invoice = fake.invoices.get(subscription.latest_invoice as string)!;
    expect(invoice).toMatchObject({ status: 'open', amount_due: PLAN_PRICE_CENTS.professional });
    expect(await status(ivy)).toMatchObject({ status: 'no_subscription', plan: null, limits: FREE_LIMITS });

    // Its creation reported, and a declined first payment: still Free (no plan without a payment).
    await deliverEvent('customer.subscription.created', subscription);
    await deliverEvent('invoice.payment_failed', invoice);
    expect(await status(ivy)).toMatchObject({ status: 'no_subscription', plan: null, limits: FREE_LIMITS });

    // Stripe reports the payment: the organization is on the plan, without a trial.
    const periodEnd = Math.floor((Date.now() + 30 * DAY) / 1000);
    await deliverEvent(
      'customer.subscription.updated',
      subscriptionOn(subscription, 'professional', periodEnd, { status: 'active' }),
    );
    expect(await status(ivy)).toMatchObject({
      status: 'active',
      plan: 'professional',
      trialEnd: null,
      currentPeriodEnd: periodEnd,
      limits: PLAN_LIMITS.professional,
    });
  });

  it('an event about the organization’s earlier subscription changes nothing', async () => {
    const jo = await t.signup({ plan: 'starter' });
    const { subscription: first } = await subscribed(jo);
    await trialEnded(jo);
    expect((await subscribe(jo, 'starter')).statusCode).toBe(200);
    // The first (trial) subscription ends at Stripe after the second one was made.
    await deliverEvent('customer.subscription.deleted', { ...first, status: 'canceled' });
    const second = fake.subscriptions.get((await row(jo)).stripeSubscriptionId!)!;
    expect(second.id).not.toBe(first.id);
    const periodEnd = Math.floor((Date.now() + 30 * DAY) / 1000);
    await deliverEvent(
      'customer.subscription.updated',
      subscriptionOn(second, 'starter', periodEnd, { status: 'active' }),
    );
    await deliverEvent('customer.subscription.deleted', { ...first, status: 'canceled' });
    expect(await status(jo)).toMatchObject({ status: 'active', plan: 'starter' });
  });

  it('the fake refuses a trial end in the past, as Stripe does', async () => {
    const post = (path: string, form: Record<string, string>) =>
      fetch(`${fake.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${fake.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(form).toString(),
      });
    const customer = ((await (await post('/v1/customers', { name: 'Late' })).json()) as { id: string }).id;
    const res = await post('/v1/subscriptions', { customer, trial_end: '1000' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('trial_end');
  });
});

describe('Stripe webhook hardening', () => {
  it('refuses a signature timestamped beyond the tolerance in the future (400), as a bad one', async () => {
    const kim = await t.signup({ plan: 'starter' });
    const { subscription } = await subscribed(kim);
    const future = signedEvent(
      WEBHOOK_SECRET,
      { type: 'customer.subscription.updated', object: { ...subscription, status: 'active' } },
      { timestamp: Math.floor(Date.now() / 1000) + 600 },
    );
    const res = await deliver(future.payload, future.signature);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Invalid Stripe signature' });
    // The same with a second, current `t=` in front (the SDK verifies with the last one).
    const now = Math.floor(Date.now() / 1000);
    const doubled = await deliver(future.payload, `t=${now},${future.signature}`);
    expect(doubled.statusCode).toBe(400);
    expect((await row(kim)).subscriptionStatus).toBe('trialing');

    // Within the tolerance either way, it is applied.
    const soon = signedEvent(
      WEBHOOK_SECRET,
      { type: 'customer.subscription.updated', object: { ...subscription, status: 'active' } },
      { timestamp: now + 60 },
    );
    expect((await deliver(soon.payload, soon.signature)).statusCode).toBe(200);
    expect((await row(kim)).subscriptionStatus).toBe('active');
  });

  it('acknowledges signed events it cannot use with 200 and changes nothing', async () => {
    const lou = await t.signup({ plan: 'starter' });
    const { subscription, org } = await subscribed(lou);
    const customer = org.stripeCustomerId!;
    const unusable: [string, Record<string, unknown>][] = [
      ['customer.subscription.updated', { ...subscription, customer: undefined, status: 'active' }],
      ['customer.subscription.updated', { ...subscription, customer: null, status: 'active' }],
      [
        'customer.subscription.updated',
        subscriptionOn(subscription, 'starter', 0, {
          status: 'active',
          items: { data: [{ current_period_end: 'soon' }] },
        }),
      ],
      ['customer.subscription.updated', { ...subscription, status: 'active', items: 'none' }],
      ['customer.subscription.deleted', { id: 'sub_x', object: 'subscription', customer }],
      ['invoice.paid', { customer, amount_paid: 'lots', lines: { data: [] } }],
      [
        'invoice.paid',
        { customer, amount_paid: 1900, lines: { data: [{ period: { start: 1, end: 'next month' } }] } },
      ],
      ['invoice.payment_failed', { object: 'invoice' }],
    ];
    for (const [type, object] of unusable) {
      const event = signedEvent(WEBHOOK_SECRET, { type, object });
      const res = await deliver(event.payload, event.signature);
      expect(res.statusCode, `${type} ${JSON.stringify(object)}`).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    // Not even an event: a signed JSON array, an event without data.
    for (const payload of ['[1,2]', JSON.stringify({ id: 'evt_1', type: 'invoice.paid' })]) {
      const t0 = Math.floor(Date.now() / 1000);
      const { createHmac } = await import('node:crypto');
      const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${t0}.${payload}`).digest('hex');
      const res = await deliver(payload, `t=${t0},v1=${v1}`);
      expect(res.statusCode).toBe(200);
    }
    expect(await status(lou)).toMatchObject({ status: 'trialing', plan: 'starter' });
    // Each one is logged as ignored, with why.
    const ignored = logLines.filter((line) => line.msg.startsWith('Stripe event ignored'));
    expect(ignored.length).toBe(unusable.length + 2);
    expect(ignored.every((line) => line.level === 40 && typeof line.reason === 'string')).toBe(true);
  });
});

describe('GET /api/billing/invoices', () => {
  it('lists the organization’s own Stripe invoices, newest first, for owners and admins', async () => {
    const fia = await t.signup({ plan: 'professional' });
    const { org, subscription } = await subscribed(fia, 'professional');
    const customer = org.stripeCustomerId!;
    const paid = fake.addInvoice(customer, {
      subscription: subscription.id as string,
      amount_due: 4900,
      created: Math.floor(Date.now() / 1000) + 60,
      period_start: 1_800_000_000,
      period_end: 1_802_592_000,
    });
    // A draft is not final: it is not listed.
    fake.addInvoice(customer, { status: 'draft', amount_due: 4900 });
    // Another organization's invoices never show.
    const gil = await t.signup({ plan: 'starter' });
    const other = await subscribed(gil);
    fake.addInvoice(other.org.stripeCustomerId!, { amount_due: 1900 });

    const res = await invoicesOf(fia);
    expect(res.statusCode).toBe(200);
    const body = invoicesResponseSchema.parse(res.json());
    expect(body.provider).toBe('stripe');
    expect(body.invoices).toHaveLength(2);
    expect(body.invoices[0]).toEqual({
      id: paid.id,
      number: paid.number,
      status: 'paid',
      amountDue: 4900,
      amountPaid: 4900,
      currency: 'usd',
      created: paid.created,
      periodStart: 1_800_000_000,
      periodEnd: 1_802_592_000,
      hostedInvoiceUrl: paid.hosted_invoice_url,
      pdfUrl: paid.invoice_pdf,
    });
    expect(body.invoices[0].number).toMatch(/^[0-9A-F]{8}-0002$/);
    // The subscription's first invoice: the trial's, $0 and paid.
    expect(body.invoices[1]).toMatchObject({
      id: subscription.latest_invoice,
      number: expect.stringMatching(/-0001$/),
      status: 'paid',
      amountDue: 0,
      hostedInvoiceUrl: expect.stringMatching(/^https:\/\//),
    });
    const gilInvoices = invoicesResponseSchema.parse((await invoicesOf(gil)).json()).invoices;
    expect(gilInvoices.map((i) => i.id)).not.toContain(paid.id);
    expect(gilInvoices).toHaveLength(2);

    const admin = await joinOrganization(t, fia, await t.signup(), 'admin');
    const asAdmin = await invoicesOf(admin);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toEqual(res.json());

    const member = await joinOrganization(t, fia, await t.signup(), 'member');
    const asMember = await invoicesOf(member);
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json()).toEqual({ message: roleRequired('admin') });
  });

  it('answers an empty list, without creating a Stripe customer, for an organization never billed', async () => {
    const hal = await t.signup();
    const customersBefore = fake.customers.size;
    const res = await invoicesOf(hal);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ invoices: [], provider: 'stripe' });
    expect(fake.customers.size).toBe(customersBefore);
    expect((await row(hal)).stripeCustomerId).toBeNull();
  });
});

describe('without Stripe', () => {
  it('answers provider none and no invoices, keeps Stripe out of the CSP and has no webhook', async () => {
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
      const invoices = await plain.request({ method: 'GET', url: '/api/billing/invoices', token: who.token });
      expect(invoices.statusCode).toBe(200);
      expect(invoices.json()).toEqual({ invoices: [], provider: 'none' });
    } finally {
      await plain.close();
    }
  });
});
