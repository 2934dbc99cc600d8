// What the billing pages say about money and dates, from GET /api/subscription-status: yearly prices,
// what a trial's end brings, when the next charge is, and the toasts after subscribing or a failed
// payment. Pure, so every sentence is tested (billing-texts.test.ts).
import {
  billingIntervalValues,
  planPriceCents,
  type BillingInterval,
  type PlanId,
  type SubscriptionStatusResponse,
} from '@crewline/contracts';

import { formatDate } from '@/lib/format';
import { formatCents, planName } from '@/lib/billing';

export interface IntervalPrice {
  /** What create-subscription is sent: the price of one interval, in cents. */
  amountCents: number;
  /** '$39.20': the price per month (a year's price divided by 12). */
  perMonth: string;
  /** '$470.40': the price per year (12 months, less 20 % when billed yearly). */
  perYear: string;
}

/** The plan's price at the interval: yearly is 12 × monthly × 0.8, shown per month and per year. */
export function intervalPrice(plan: PlanId, interval: BillingInterval): IntervalPrice {
  const amountCents = planPriceCents(plan, interval);
  const yearCents = interval === 'year' ? amountCents : amountCents * 12;
  return {
    amountCents,
    perMonth: formatCents(interval === 'year' ? Math.round(amountCents / 12) : amountCents),
    perYear: formatCents(yearCents),
  };
}

/** `?interval=year` (any case), else monthly. */
export function parseIntervalParam(value: string | null | undefined): BillingInterval {
  const interval = value?.trim().toLowerCase();
  return (billingIntervalValues as readonly string[]).includes(interval ?? '')
    ? (interval as BillingInterval)
    : 'month';
}

/** 'monthly' / 'yearly'. */
export const intervalAdverb = (interval: BillingInterval) => (interval === 'year' ? 'yearly' : 'monthly');

type Summary = Pick<
  SubscriptionStatusResponse,
  | 'status'
  | 'plan'
  | 'trialEnd'
  | 'currentPeriodEnd'
  | 'cancelAtPeriodEnd'
  | 'paymentMethod'
  | 'atTrialEnd'
  | 'interval'
>;

const date = (seconds: number | null) => formatDate(seconds === null ? null : new Date(seconds * 1000));

/**
 * During a trial, when it ends and what comes then: the plan billed to the payment method or by
 * invoice, or (no payment method, or canceled) the Free plan. Null outside a trial.
 */
export function trialEndText(summary: Summary): string | null {
  if (summary.status !== 'trialing' || summary.trialEnd === null) return null;
  const ends = `Trial ends ${date(summary.trialEnd)}.`;
  if (summary.cancelAtPeriodEnd)
    return `${ends} The subscription is cancelled: the organization moves to the Free plan then.`;
  if (summary.atTrialEnd === 'billed') {
    const how = summary.paymentMethod === 'invoice' ? 'by invoice' : 'to the saved payment method';
    return `${ends} Then ${planName(summary.plan)} is billed ${intervalAdverb(summary.interval)} ${how}.`;
  }
  return `${ends} Without a payment method, the organization moves to the Free plan then.`;
}

/**
 * The date row of a subscription: 'Next Billing' only when something is charged (a payment method or
 * invoices, not cancelled); 'Access Until' when it ends; else the period's end. Null during a trial
 * (trialEndText says it) and on Free.
 */
export function periodDetail(summary: Summary): { label: string; value: string } | null {
  if (summary.status === 'trialing' || summary.currentPeriodEnd === null) return null;
  const value = date(summary.currentPeriodEnd);
  if (summary.cancelAtPeriodEnd || summary.status === 'canceled') return { label: 'Access Until', value };
  if (summary.paymentMethod) return { label: 'Next Billing', value };
  return { label: 'Period Ends', value };
}

export type ToastText = { title: string; description: string; variant?: 'destructive' };

/** After create-subscription (and a confirmed card, with Stripe): the specification's texts. */
export function subscriptionCreatedToast(input: {
  plan: PlanId;
  interval: BillingInterval;
  trialStarted: boolean;
}): ToastText {
  return {
    title: 'Subscription Created',
    description: input.trialStarted
      ? 'Your 14-day trial has started!'
      : `Your organization is on ${planName(input.plan)}, billed ${intervalAdverb(input.interval)}.`,
  };
}

/** A payment or card the provider refused: its own message. */
export function paymentFailedToast(message: string | null | undefined): ToastText {
  return {
    variant: 'destructive',
    title: 'Payment Failed',
    description: message?.trim() || 'The payment could not be completed.',
  };
}
