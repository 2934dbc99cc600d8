import { describe, expect, it } from 'vitest';

import { formatCents } from './billing';
import {
  intervalPrice,
  parseIntervalParam,
  paymentFailedToast,
  periodDetail,
  subscriptionCreatedToast,
  trialEndText,
} from './billing-texts';

// Dec 15, 2026, noon UTC: the same calendar day in every time zone the tests may run in.
const DEC_15 = Date.UTC(2026, 11, 15, 12) / 1000;
const day = new Date(DEC_15 * 1000).toLocaleDateString(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});

const trial = {
  status: 'trialing' as const,
  plan: 'professional' as const,
  trialEnd: DEC_15,
  currentPeriodEnd: DEC_15,
  cancelAtPeriodEnd: false,
  paymentMethod: null,
  atTrialEnd: 'free' as const,
  interval: 'month' as const,
};

describe('yearly prices', () => {
  it('are 12 × monthly less 20 %, shown per month and per year', () => {
    expect(intervalPrice('starter', 'year')).toEqual({
      amountCents: 18_240,
      perMonth: '$15.20',
      perYear: '$182.40',
    });
    expect(intervalPrice('professional', 'year')).toEqual({
      amountCents: 47_040,
      perMonth: '$39.20',
      perYear: '$470.40',
    });
    expect(intervalPrice('enterprise', 'year')).toEqual({
      amountCents: 143_040,
      perMonth: '$119.20',
      perYear: '$1,430.40',
    });
    expect(intervalPrice('professional', 'month')).toEqual({
      amountCents: 4900,
      perMonth: '$49',
      perYear: '$588',
    });
  });

  it('formats cents as dollars, cents only when there are any', () => {
    expect(formatCents(1900)).toBe('$19');
    expect(formatCents(1520)).toBe('$15.20');
    expect(formatCents(143_040)).toBe('$1,430.40');
  });

  it('reads ?interval=, monthly by default', () => {
    expect(parseIntervalParam('year')).toBe('year');
    expect(parseIntervalParam(' Year ')).toBe('year');
    expect(parseIntervalParam('weekly')).toBe('month');
    expect(parseIntervalParam(null)).toBe('month');
  });
});

describe('what a trial’s end brings', () => {
  it('without a payment method: the Free plan, never a billing date', () => {
    expect(trialEndText(trial)).toBe(
      `Trial ends ${day}. Without a payment method, the organization moves to the Free plan then.`,
    );
    expect(periodDetail(trial)).toBeNull();
  });

  it('with a saved payment method or invoices: the plan billed at its interval', () => {
    expect(trialEndText({ ...trial, paymentMethod: 'saved', atTrialEnd: 'billed', interval: 'year' })).toBe(
      `Trial ends ${day}. Then Professional is billed yearly to the saved payment method.`,
    );
    expect(
      trialEndText({ ...trial, plan: 'enterprise', paymentMethod: 'invoice', atTrialEnd: 'billed' }),
    ).toBe(`Trial ends ${day}. Then Enterprise is billed monthly by invoice.`);
  });

  it('cancelled: Free then, whatever the payment method', () => {
    expect(trialEndText({ ...trial, cancelAtPeriodEnd: true, paymentMethod: 'saved' })).toBe(
      `Trial ends ${day}. The subscription is cancelled: the organization moves to the Free plan then.`,
    );
  });

  it('says nothing outside a trial', () => {
    expect(trialEndText({ ...trial, status: 'no_subscription', plan: null, trialEnd: null })).toBeNull();
  });
});

describe('the period row of a subscription', () => {
  const active = { ...trial, status: 'active' as const, trialEnd: null, atTrialEnd: null };
  it('says Next Billing only when something is charged', () => {
    expect(periodDetail({ ...active, paymentMethod: 'saved' })).toEqual({
      label: 'Next Billing',
      value: day,
    });
    expect(periodDetail({ ...active, paymentMethod: 'invoice' })).toEqual({
      label: 'Next Billing',
      value: day,
    });
    expect(periodDetail(active)).toEqual({ label: 'Period Ends', value: day });
    expect(periodDetail({ ...active, paymentMethod: 'saved', cancelAtPeriodEnd: true })).toEqual({
      label: 'Access Until',
      value: day,
    });
  });
});

describe('toasts', () => {
  it('use the specification’s texts', () => {
    expect(subscriptionCreatedToast({ plan: 'professional', interval: 'month', trialStarted: true })).toEqual(
      {
        title: 'Subscription Created',
        description: 'Your 14-day trial has started!',
      },
    );
    expect(subscriptionCreatedToast({ plan: 'starter', interval: 'year', trialStarted: false })).toEqual({
      title: 'Subscription Created',
      description: 'Your organization is on Starter, billed yearly.',
    });
    expect(paymentFailedToast('Your card was declined.')).toEqual({
      variant: 'destructive',
      title: 'Payment Failed',
      description: 'Your card was declined.',
    });
    expect(paymentFailedToast('  ').description).toBe('The payment could not be completed.');
  });
});
