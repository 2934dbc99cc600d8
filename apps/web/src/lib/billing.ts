// The pure rules of billing (docs/product-rules.md, Billing and plans), shared by /subscribe, the
// Billing tab, signup and every action a plan limit can block: plan names and prices, usage meters
// against the plan's limits, and the 402 plan_limit answer of a blocked action.
import type { BillingInvoice, SubscriptionStatusValue } from '@crewline/contracts';
import {
  isPlanId,
  PLAN_PRICE_CENTS,
  planDisplayNames,
  planIdValues,
  type PlanId,
} from '@crewline/contracts/vocabulary';

import { parseApiError } from '@/lib/api';
import { formatBytes } from '@/lib/format';

export const PLAN_IDS: readonly PlanId[] = planIdValues;

const DEFAULT_PLAN: PlanId = 'professional';

export const PLAN_NAMES: Record<PlanId, string> = planDisplayNames;

export { isPlanId };

/** The plan named by a query parameter (any case), else Professional. */
export function parsePlanParam(value: string | null | undefined): PlanId {
  const plan = value?.trim().toLowerCase();
  return isPlanId(plan) ? plan : DEFAULT_PLAN;
}

/** 'Starter', 'Professional', 'Enterprise'; 'Free' for the free tier (or no plan). */
export function planName(plan: string | null | undefined): string {
  if (isPlanId(plan)) return PLAN_NAMES[plan];
  if (!plan || plan === 'free') return planDisplayNames.free;
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

/** '$19', '$15.20', '$1,430.40': whole dollars without cents, others with two. */
export function formatCents(cents: number): string {
  const dollars = cents / 100;
  return `$${Number.isInteger(dollars) ? dollars.toLocaleString('en-US') : dollars.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** '$19', '$49', '$149': the monthly price. */
export function formatPlanPrice(plan: PlanId): string {
  return formatCents(PLAN_PRICE_CENTS[plan]);
}

export interface PlanDetails {
  id: PlanId;
  name: string;
  price: string;
  popular: boolean;
  features: string[];
}

const PLAN_FEATURES: Record<PlanId, string[]> = {
  starter: [
    'Up to 5 agents',
    '1,000 monthly executions',
    'Basic templates',
    'Up to 3 team members',
    'Email support',
    'Web interface',
  ],
  professional: [
    'Unlimited agents',
    '10,000 monthly executions',
    'All templates plus custom',
    'Up to 15 team members',
    'Priority support',
    'Advanced analytics',
    'API access',
    'Team collaboration',
  ],
  enterprise: [
    'Unlimited everything',
    'Unlimited team members',
    'Custom integrations',
    '24/7 dedicated support',
    'SOC 2 compliance',
    'SLA guarantee',
    'Training and onboarding',
    'On-premise option',
  ],
};

export function planDetails(plan: PlanId): PlanDetails {
  return {
    id: plan,
    name: PLAN_NAMES[plan],
    price: formatPlanPrice(plan),
    popular: plan === 'professional',
    features: PLAN_FEATURES[plan],
  };
}

const PLAN_ORDER: Record<PlanId, number> = { starter: 0, professional: 1, enterprise: 2 };

/**
 * When a plan change applies: during a trial (or without a plan) at once; otherwise an upgrade at once
 * and a downgrade at the end of the billing period. 'same' for the current plan.
 */
export function planChangeTiming(
  current: PlanId | null,
  next: PlanId,
  status: SubscriptionStatusValue,
): 'same' | 'now' | 'period_end' {
  if (current === next) return 'same';
  if (!current || status === 'trialing' || status === 'no_subscription' || status === 'canceled')
    return 'now';
  return PLAN_ORDER[next] > PLAN_ORDER[current] ? 'now' : 'period_end';
}

/** How the status reads on a badge: trialing is 'Trial'. */
const STATUS_LABELS: Record<SubscriptionStatusValue, string> = {
  no_subscription: 'No subscription',
  trialing: 'Trial',
  active: 'Active',
  past_due: 'Past due',
  canceled: 'Canceled',
};

export const STATUS_TONES: Record<SubscriptionStatusValue, 'blue' | 'green' | 'yellow' | 'red' | 'gray'> = {
  no_subscription: 'gray',
  trialing: 'blue',
  active: 'green',
  past_due: 'yellow',
  canceled: 'red',
};

export function statusLabel(status: SubscriptionStatusValue): string {
  return STATUS_LABELS[status] ?? status;
}

/** Epoch seconds (the subscription API's times) as a Date, or null. */
export function fromEpochSeconds(seconds: number | null | undefined): Date | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return null;
  return new Date(seconds * 1000);
}

export type UsageLevel = 'ok' | 'warn' | 'full';

/** 80 % of a limit warns, reaching it is full. */
const USAGE_WARN_PERCENT = 80;

export interface UsageMeter {
  used: number;
  limit: number | null;
  /** 0–100 (capped), null when unlimited. */
  percent: number | null;
  level: UsageLevel;
  /** '3 of 5', '42 of Unlimited'. */
  label: string;
}

/** Usage against a limit; null is unlimited (never warns). A limit of 0 is full at once. */
export function usagePercent(used: number, limit: number | null): number | null {
  if (limit === null) return null;
  if (limit <= 0) return 100;
  return Math.min(100, Math.max(0, Math.round((used / limit) * 100)));
}

export function usageLevel(used: number, limit: number | null): UsageLevel {
  if (limit === null) return 'ok';
  if (used >= limit) return 'full';
  if (limit > 0 && (used / limit) * 100 >= USAGE_WARN_PERCENT) return 'warn';
  return 'ok';
}

function formatLimit(limit: number | null): string {
  return limit === null ? 'Unlimited' : limit.toLocaleString('en-US');
}

export function usageMeter(used: number, limit: number | null): UsageMeter {
  return {
    used,
    limit,
    percent: usagePercent(used, limit),
    level: usageLevel(used, limit),
    label: `${used.toLocaleString('en-US')} of ${formatLimit(limit)}`,
  };
}

/** A meter in bytes: '12.3 MiB of 1 GiB'. */
export function storageMeter(used: number, limit: number | null): UsageMeter {
  return {
    ...usageMeter(used, limit),
    label: `${formatBytes(used)} of ${limit === null ? 'Unlimited' : formatBytes(limit)}`,
  };
}

type PlanLimitKind = 'agents' | 'executions' | 'members' | 'api_access' | 'knowledge_storage';

export interface PlanLimitInfo {
  message: string;
  limit: PlanLimitKind;
  /** The plan whose limit applies ('free' without a trial or subscription). */
  plan: string;
}

const LIMIT_KINDS: readonly string[] = ['agents', 'executions', 'members', 'api_access', 'knowledge_storage'];

/** The 402 plan_limit answer of a blocked action, or null for any other error. */
export function readPlanLimitError(error: unknown): PlanLimitInfo | null {
  const { status } = parseApiError(error);
  if (status !== 402) return null;
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const body = raw.replace(/^\d{3}: /, '');
  try {
    const json: unknown = JSON.parse(body);
    if (!json || typeof json !== 'object') return null;
    const obj = json as Record<string, unknown>;
    if (obj.code !== 'plan_limit' || typeof obj.message !== 'string') return null;
    return {
      message: obj.message,
      limit: (typeof obj.limit === 'string' && LIMIT_KINDS.includes(obj.limit)
        ? obj.limit
        : 'agents') as PlanLimitKind,
      plan: typeof obj.plan === 'string' ? obj.plan : 'free',
    };
  } catch {
    return null;
  }
}

/** The plan to suggest when a limit of `plan` is reached: the next one up. */
export function upgradeTarget(plan: string): PlanId {
  if (plan === 'professional') return 'enterprise';
  if (plan === 'enterprise') return 'enterprise';
  return 'professional';
}

/** The /subscribe link for a plan. */
export function subscribePath(plan?: PlanId): string {
  return plan ? `/subscribe?plan=${plan}` : '/subscribe';
}

/**
 * Free after the organization's one trial: a plan is only paid for from then on (docs/product-rules.md,
 * Billing and plans), so no page offers a trial again.
 */
export const TRIAL_USED_TEXT =
  'Your organization has used its free trial. Subscribe to a plan to unlock more; it is billed from today.';
export const TRIAL_USED_NO_PROVIDER_TEXT =
  'Your organization has used its free trial, and no payment provider is configured on this server, so a paid plan cannot be started yet.';

/** Whether the organization may still start its one free trial (from Free). */
export function trialAvailable(subscription: {
  status: SubscriptionStatusValue;
  trialUsed: boolean;
}): boolean {
  return subscription.status === 'no_subscription' && !subscription.trialUsed;
}

/** Only owners change or cancel the organization's plan. */
export function canManageBilling(role: string | null | undefined): boolean {
  return role === 'owner';
}

export const OWNER_ONLY_BILLING = 'Only the organization owner can change billing';

/** Owners and admins see the organization's invoices (GET /api/billing/invoices). */
export function canViewInvoices(role: string | null | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

export const INVOICES_NEED_ADMIN = 'Only owners and admins can see the invoices';

// Stripe's amounts are in the currency's smallest unit: cents, except these currencies.
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** An amount in the currency's smallest unit as money: (4900, 'usd') → '$49.00', (500, 'jpy') → '¥500'. */
export function formatMoney(amount: number, currency: string, locale?: string): string {
  const code = currency.toLowerCase();
  const digits = ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
  const value = amount / 10 ** digits;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code.toUpperCase(),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  } catch {
    // A code Intl does not know: the number and the code.
    return `${value.toFixed(digits)} ${code.toUpperCase()}`;
  }
}

/** What an invoice is for the reader: the amount paid once paid, else the amount due. */
export function invoiceAmount(invoice: Pick<BillingInvoice, 'status' | 'amountDue' | 'amountPaid'>): number {
  return invoice.status === 'paid' ? invoice.amountPaid : invoice.amountDue;
}

const INVOICE_STATUS: Record<string, { label: string; tone: 'green' | 'yellow' | 'red' | 'gray' }> = {
  paid: { label: 'Paid', tone: 'green' },
  open: { label: 'Due', tone: 'yellow' },
  uncollectible: { label: 'Uncollectible', tone: 'red' },
  void: { label: 'Void', tone: 'gray' },
  draft: { label: 'Draft', tone: 'gray' },
};

/** The badge of an invoice status: paid green, open ('Due') yellow, uncollectible red, void gray. */
export function invoiceStatusBadge(status: string | null): {
  label: string;
  tone: 'green' | 'yellow' | 'red' | 'gray';
} {
  if (!status) return { label: 'Unknown', tone: 'gray' };
  return INVOICE_STATUS[status] ?? { label: status, tone: 'gray' };
}

/** Where View opens: Stripe's hosted invoice page, else the PDF; null when there is neither. */
export function invoiceLink(invoice: Pick<BillingInvoice, 'hostedInvoiceUrl' | 'pdfUrl'>): string | null {
  return invoice.hostedInvoiceUrl ?? invoice.pdfUrl;
}
