import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { subscriptions } from '@crewline/db';
import {
  PLAN_PRICE_CENTS,
  billingMessages,
  planPriceCents,
  subscriptionStatusResponseSchema,
  type AuthResponse,
} from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';

// Without a payment provider: what the billing summary says about a trial's end, yearly billing and
// invoices, and the organization shown with its effective plan.
const DAY = 86_400_000;
let nowMs = Date.now();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(nowMs) });
});
afterAll(() => t.close());
beforeEach(() => {
  nowMs = Date.now();
});

async function summary(who: AuthResponse) {
  const res = await t.request({ method: 'GET', url: '/api/subscription-status', token: who.token });
  expect(res.statusCode).toBe(200);
  return subscriptionStatusResponseSchema.parse(res.json());
}

const subscribe = (who: AuthResponse, payload: object) =>
  t.request({ method: 'POST', url: '/api/create-subscription', token: who.token, payload });

describe('the billing summary', () => {
  it('says a trial without a payment method ends on Free', async () => {
    const ada = await t.signup({ plan: 'starter' });
    expect(await summary(ada)).toMatchObject({
      status: 'trialing',
      plan: 'starter',
      trialEnd: Math.floor((nowMs + 14 * DAY) / 1000),
      paymentMethod: null,
      atTrialEnd: 'free',
      interval: 'month',
    });
    nowMs += 15 * DAY;
    expect(await summary(ada)).toMatchObject({ status: 'no_subscription', plan: null, atTrialEnd: null });
  });

  it('says a trial goes on billed when a payment method is saved, and Free once canceled', async () => {
    const bea = await t.signup({ plan: 'professional' });
    await t.db
      .update(subscriptions)
      .set({ paymentMethod: 'saved' })
      .where(eq(subscriptions.organizationId, bea.organization.id));
    expect(await summary(bea)).toMatchObject({ paymentMethod: 'saved', atTrialEnd: 'billed' });
    const canceled = await t.request({
      method: 'POST',
      url: '/api/cancel-subscription',
      token: bea.token,
      payload: {},
    });
    expect(canceled.statusCode).toBe(200);
    expect(await summary(bea)).toMatchObject({ paymentMethod: 'saved', atTrialEnd: 'free' });
  });
});

describe('yearly billing without a payment provider', () => {
  it('prices a year at 12 months less 20 %', () => {
    expect(planPriceCents('starter', 'year')).toBe(18_240);
    expect(planPriceCents('professional', 'year')).toBe(47_040);
    expect(planPriceCents('enterprise', 'year')).toBe(143_040);
    expect(planPriceCents('professional', 'month')).toBe(PLAN_PRICE_CENTS.professional);
  });

  it('stores and shows the interval chosen, and checks the amount against it', async () => {
    const cat = await t.signup({ plan: 'starter' });
    const monthlyAmount = await subscribe(cat, { planId: 'professional', amount: 4900, interval: 'year' });
    expect(monthlyAmount.statusCode).toBe(400);
    expect(monthlyAmount.json().message).toBe(billingMessages.wrongAmount('Professional', 47_040, 'year'));
    expect(billingMessages.wrongAmount('Professional', 47_040, 'year')).toBe(
      'The Professional plan costs 47040 cents a year; the amount sent does not match.',
    );

    const yearly = await subscribe(cat, { planId: 'professional', amount: 47_040, interval: 'year' });
    expect(yearly.statusCode).toBe(200);
    expect(await summary(cat)).toMatchObject({ status: 'trialing', plan: 'professional', interval: 'year' });
    const [row] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, cat.organization.id));
    expect(row.billingInterval).toBe('year');

    const monthly = await subscribe(cat, { planId: 'professional', amount: 4900 });
    expect(monthly.statusCode).toBe(200);
    expect((await summary(cat)).interval).toBe('month');
  });

  it('renews a yearly subscription a year after its period end', async () => {
    const dan = await t.signup({ plan: 'starter' });
    const periodEnd = new Date(nowMs + DAY);
    await t.db
      .update(subscriptions)
      .set({
        subscriptionStatus: 'active',
        billingInterval: 'year',
        currentPeriodEnd: periodEnd,
        trialEndsAt: null,
      })
      .where(eq(subscriptions.organizationId, dan.organization.id));
    nowMs += 2 * DAY;
    const next = new Date(periodEnd);
    next.setUTCFullYear(next.getUTCFullYear() + 1);
    expect(await summary(dan)).toMatchObject({
      status: 'active',
      interval: 'year',
      currentPeriodEnd: Math.floor(next.getTime() / 1000),
    });
  });
});

describe('paying Enterprise by invoice without a payment provider', () => {
  it('is refused with the way to contact us; other plans are never invoiced', async () => {
    const eve = await t.signup({ plan: 'starter' });
    const enterprise = await subscribe(eve, { planId: 'enterprise', amount: 14_900, payByInvoice: true });
    expect(enterprise.statusCode).toBe(409);
    expect(enterprise.json()).toEqual({ message: billingMessages.invoiceNeedsProvider });
    const starter = await subscribe(eve, { planId: 'starter', amount: 1900, payByInvoice: true });
    expect(starter.statusCode).toBe(400);
    expect(starter.json()).toEqual({ message: 'Only the Enterprise plan can be paid by invoice.' });
    expect((await summary(eve)).plan).toBe('starter');
  });
});

describe('GET /api/organizations/:orgId', () => {
  it('shows the effective plan: Free after an ended trial, while the stored plan is Starter', async () => {
    const fay = await t.signup({ plan: 'starter' });
    const read = () =>
      t.request({ method: 'GET', url: `/api/organizations/${fay.organization.id}`, token: fay.token });
    const during = await read();
    expect(during.statusCode).toBe(200);
    expect(during.json()).toMatchObject({ id: fay.organization.id, plan: 'starter', role: 'owner' });

    nowMs += 15 * DAY;
    const after = await read();
    expect(after.statusCode).toBe(200);
    expect(after.json().plan).toBe('free');
    expect((await summary(fay)).plan).toBeNull();
    const [row] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.organizationId, fay.organization.id));
    expect(row.plan).toBe('starter');

    const renamed = await t.request({
      method: 'PUT',
      url: `/api/organizations/${fay.organization.id}`,
      token: fay.token,
      payload: { name: 'Fay & Co' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Fay & Co', plan: 'free' });
  });

  it('is another organization’s: 404', async () => {
    const gus = await t.signup();
    const hal = await t.signup();
    const res = await t.request({
      method: 'GET',
      url: `/api/organizations/${hal.organization.id}`,
      token: gus.token,
    });
    expect(res.statusCode).toBe(404);
  });
});
