import { billingMessages, PLAN_PRICE_CENTS, planPriceCents } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  trialAvailable,
  canManageBilling,
  canViewInvoices,
  formatMoney,
  formatPlanPrice,
  fromEpochSeconds,
  invoiceAmount,
  invoiceLink,
  invoiceStatusBadge,
  parsePlanParam,
  planChangeTiming,
  planDetails,
  planName,
  readPlanLimitError,
  statusLabel,
  storageMeter,
  subscribePath,
  upgradeTarget,
  usageLevel,
  usageMeter,
  usagePercent,
} from './billing';

function apiError(status: number, body: unknown) {
  return new Error(`${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
}

describe('plans', () => {
  it('names the plans, the free tier included', () => {
    expect(planName('starter')).toBe('Starter');
    expect(planName('professional')).toBe('Professional');
    expect(planName('enterprise')).toBe('Enterprise');
    expect(planName('free')).toBe('Free');
    expect(planName(null)).toBe('Free');
  });

  it('prices come from the contract, in cents for the API and dollars on screen', () => {
    expect(planPriceCents('starter')).toBe(PLAN_PRICE_CENTS.starter);
    expect(planPriceCents('professional')).toBe(4900);
    expect(formatPlanPrice('starter')).toBe('$19');
    expect(formatPlanPrice('professional')).toBe('$49');
    expect(formatPlanPrice('enterprise')).toBe('$149');
  });

  it('reads ?plan=, Professional by default', () => {
    expect(parsePlanParam('starter')).toBe('starter');
    expect(parsePlanParam(' Enterprise ')).toBe('enterprise');
    expect(parsePlanParam('gold')).toBe('professional');
    expect(parsePlanParam(null)).toBe('professional');
  });

  it('lists each plan’s features, Professional as the popular one', () => {
    expect(planDetails('starter').features).toContain('Up to 5 agents');
    expect(planDetails('professional').popular).toBe(true);
    expect(planDetails('professional').features).toHaveLength(8);
    expect(planDetails('enterprise').features).toContain('On-premise option');
  });

  it('applies upgrades at once, downgrades at the period end, anything at once in a trial', () => {
    expect(planChangeTiming('starter', 'professional', 'active')).toBe('now');
    expect(planChangeTiming('enterprise', 'starter', 'active')).toBe('period_end');
    expect(planChangeTiming('enterprise', 'starter', 'trialing')).toBe('now');
    expect(planChangeTiming('starter', 'starter', 'active')).toBe('same');
    expect(planChangeTiming(null, 'starter', 'no_subscription')).toBe('now');
  });

  it('shows trialing as Trial and only lets owners manage billing', () => {
    expect(statusLabel('trialing')).toBe('Trial');
    expect(statusLabel('past_due')).toBe('Past due');
    expect(canManageBilling('owner')).toBe(true);
    expect(canManageBilling('admin')).toBe(false);
    expect(canManageBilling(undefined)).toBe(false);
  });

  it('turns epoch seconds into dates', () => {
    expect(fromEpochSeconds(1_700_000_000)?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
    expect(fromEpochSeconds(null)).toBeNull();
  });
});

describe('usage', () => {
  it('computes the percent, none when unlimited', () => {
    expect(usagePercent(2, 5)).toBe(40);
    expect(usagePercent(7, 5)).toBe(100);
    expect(usagePercent(3, null)).toBeNull();
    expect(usagePercent(0, 0)).toBe(100);
  });

  it('warns at 80 % and is full at 100 %', () => {
    expect(usageLevel(3, 5)).toBe('ok');
    expect(usageLevel(4, 5)).toBe('warn');
    expect(usageLevel(5, 5)).toBe('full');
    expect(usageLevel(6, 5)).toBe('full');
    expect(usageLevel(799, 1000)).toBe('ok');
    expect(usageLevel(800, 1000)).toBe('warn');
    expect(usageLevel(10_000, null)).toBe('ok');
  });

  it('labels the meter, Unlimited when there is no limit', () => {
    expect(usageMeter(4, 5)).toEqual({ used: 4, limit: 5, percent: 80, level: 'warn', label: '4 of 5' });
    expect(usageMeter(1200, 10_000).label).toBe('1,200 of 10,000');
    expect(usageMeter(12, null).label).toBe('12 of Unlimited');
  });

  it('labels knowledge storage in the binary units of the docs and the limit message', () => {
    const MiB = 1024 * 1024;
    expect(storageMeter(Math.round(12.3 * MiB), 50 * MiB)).toMatchObject({
      percent: 25,
      level: 'ok',
      label: '12.3 MiB of 50 MiB',
    });
    expect(storageMeter(0, 10 * 1024 * MiB).label).toBe('0 B of 10 GiB');
    expect(storageMeter(45 * MiB, 50 * MiB).level).toBe('warn');
    expect(storageMeter(1536, null).label).toBe('1.5 KiB of Unlimited');
    expect(storageMeter(1023.99 * MiB, null).label).toBe('1 GiB of Unlimited');
  });
});

describe('plan limit errors', () => {
  const body = {
    message: billingMessages.agentLimit('Starter', 5),
    code: 'plan_limit',
    limit: 'agents',
    plan: 'starter',
  };

  it('reads the 402 plan_limit answer', () => {
    expect(readPlanLimitError(apiError(402, body))).toEqual({
      message: 'Your Starter plan allows 5 agents. Upgrade your plan to add more.',
      limit: 'agents',
      plan: 'starter',
    });
    expect(readPlanLimitError(apiError(402, { ...body, limit: 'members', plan: 'free' }))).toMatchObject({
      limit: 'members',
      plan: 'free',
    });
    expect(readPlanLimitError(apiError(402, { ...body, limit: 'api_access' }))).toMatchObject({
      limit: 'api_access',
    });
  });

  it('ignores every other error', () => {
    expect(readPlanLimitError(apiError(400, body))).toBeNull();
    expect(readPlanLimitError(apiError(402, { message: 'Pay up' }))).toBeNull();
    expect(readPlanLimitError(apiError(402, 'Payment Required'))).toBeNull();
    expect(readPlanLimitError(new Error('Failed to fetch'))).toBeNull();
    expect(readPlanLimitError(null)).toBeNull();
  });

  it('suggests the next plan up', () => {
    expect(upgradeTarget('free')).toBe('professional');
    expect(upgradeTarget('starter')).toBe('professional');
    expect(upgradeTarget('professional')).toBe('enterprise');
    expect(subscribePath('professional')).toBe('/subscribe?plan=professional');
  });
});

describe('invoices', () => {
  it('lets owners and admins see them', () => {
    expect(canViewInvoices('owner')).toBe(true);
    expect(canViewInvoices('admin')).toBe(true);
    expect(canViewInvoices('member')).toBe(false);
    expect(canViewInvoices(undefined)).toBe(false);
  });

  it("formats Stripe's smallest-unit amounts as money in their currency", () => {
    expect(formatMoney(4900, 'usd', 'en-US')).toBe('$49.00');
    expect(formatMoney(0, 'usd', 'en-US')).toBe('$0.00');
    expect(formatMoney(123456, 'eur', 'en-US')).toBe('€1,234.56');
    expect(formatMoney(500, 'jpy', 'en-US')).toBe('¥500');
    expect(formatMoney(12340, 'kwd', 'en-US')).toMatch(/^KWD\s12\.340$/);
    expect(formatMoney(100, 'zzz', 'en-US')).toMatch(/1\.00.*ZZZ|ZZZ.*1\.00/);
  });

  it('shows the amount paid once paid, else the amount due', () => {
    expect(invoiceAmount({ status: 'paid', amountDue: 4900, amountPaid: 4900 })).toBe(4900);
    expect(invoiceAmount({ status: 'open', amountDue: 4900, amountPaid: 0 })).toBe(4900);
    expect(invoiceAmount({ status: 'void', amountDue: 1900, amountPaid: 0 })).toBe(1900);
  });

  it('labels the statuses and links the hosted page before the PDF', () => {
    expect(invoiceStatusBadge('paid')).toEqual({ label: 'Paid', tone: 'green' });
    expect(invoiceStatusBadge('open')).toEqual({ label: 'Due', tone: 'yellow' });
    expect(invoiceStatusBadge('uncollectible')).toEqual({ label: 'Uncollectible', tone: 'red' });
    expect(invoiceStatusBadge('something_new')).toEqual({ label: 'something_new', tone: 'gray' });
    expect(invoiceStatusBadge(null)).toEqual({ label: 'Unknown', tone: 'gray' });
    expect(invoiceLink({ hostedInvoiceUrl: 'https://h', pdfUrl: 'https://p' })).toBe('https://h');
    expect(invoiceLink({ hostedInvoiceUrl: null, pdfUrl: 'https://p' })).toBe('https://p');
    expect(invoiceLink({ hostedInvoiceUrl: null, pdfUrl: null })).toBeNull();
  });
});

describe('trialAvailable', () => {
  it('offers the trial only on Free to an organization that never had one', () => {
    expect(trialAvailable({ status: 'no_subscription', trialUsed: false })).toBe(true);
    expect(trialAvailable({ status: 'no_subscription', trialUsed: true })).toBe(false);
    expect(trialAvailable({ status: 'trialing', trialUsed: true })).toBe(false);
    expect(trialAvailable({ status: 'active', trialUsed: false })).toBe(false);
  });
});
