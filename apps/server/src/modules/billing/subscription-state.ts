import {
  FREE_LIMITS,
  PLAN_LIMITS,
  PLAN_PRICE_CENTS,
  TRIAL_DAYS,
  planIdValues,
  type BillingInterval,
  type PaymentMethodValue,
  type PlanId,
  type PlanLimits,
  type SubscriptionStatusValue,
} from '@crewline/contracts';

/** The subscription columns of an organization, as stored. */
export type StoredSubscription = {
  plan: string;
  subscriptionStatus: SubscriptionStatusValue;
  trialEndsAt: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  pendingPlan: PlanId | null;
  /** How often the plan is billed (the trial's plan: after the trial). */
  billingInterval: BillingInterval;
  /** How it is paid; null: no payment method and no invoices, so nothing can be charged. */
  paymentMethod: PaymentMethodValue | null;
  /** Runs in progress at once the operator set for an Enterprise organization; null: the plan's. Never written by a change. */
  concurrentRuns?: number | null;
};

/** What the organization is on at a moment: what is due (trial end, cancel, downgrade) applied. */
export type EffectiveSubscription = {
  status: SubscriptionStatusValue;
  /** null on the Free tier. */
  plan: PlanId | null;
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  pendingPlan: PlanId | null;
  interval: BillingInterval;
  paymentMethod: PaymentMethodValue | null;
  limits: PlanLimits;
};

const TRIAL_MS = TRIAL_DAYS * 86_400_000;

/** The Free tier; a payment method saved before stays known (a later paid plan can use it). */
const free = (stored: StoredSubscription): EffectiveSubscription => ({
  status: 'no_subscription',
  plan: null,
  trialEnd: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  pendingPlan: null,
  interval: 'month',
  paymentMethod: stored.paymentMethod,
  limits: FREE_LIMITS,
});

/** The plan's limits, with the runs in progress at once an operator set for an Enterprise organization. */
function planLimits(plan: PlanId, stored: StoredSubscription): PlanLimits {
  const limits = PLAN_LIMITS[plan];
  return plan === 'enterprise' && stored.concurrentRuns
    ? { ...limits, concurrentRuns: stored.concurrentRuns }
    : limits;
}

export function asPlanId(value: string | null | undefined): PlanId | null {
  return (planIdValues as readonly string[]).includes(value ?? '') ? (value as PlanId) : null;
}

/** `months` calendar months later (UTC, one by default), clamped to the last day of a shorter month. */
function addMonth(date: Date, months = 1): Date {
  const next = new Date(date.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

export const isUpgrade = (from: PlanId, to: PlanId) => PLAN_PRICE_CENTS[to] > PLAN_PRICE_CENTS[from];

/**
 * Computed on read, so no job is needed (docs/decisions/0012-billing-without-provider.md): an ended
 * trial, a canceled subscription past its period end, a stored `canceled` or an unknown plan are the
 * Free tier; an active subscription past its period end renews (a payment provider overwrites the
 * period with its own) and takes its pending downgrade.
 */
export function effectiveSubscription(stored: StoredSubscription, now: Date): EffectiveSubscription {
  const plan = asPlanId(stored.plan);
  const FREE = free(stored);
  if (!plan) return FREE;
  const at = now.getTime();
  switch (stored.subscriptionStatus) {
    case 'trialing': {
      const trialEnd = stored.trialEndsAt;
      if (!trialEnd || trialEnd.getTime() <= at) return FREE;
      return {
        status: 'trialing',
        plan,
        trialEnd,
        currentPeriodEnd: trialEnd,
        cancelAtPeriodEnd: stored.cancelAtPeriodEnd,
        pendingPlan: null,
        interval: stored.billingInterval,
        paymentMethod: stored.paymentMethod,
        limits: planLimits(plan, stored),
      };
    }
    case 'active':
    case 'past_due': {
      let periodEnd = stored.currentPeriodEnd;
      let current = plan;
      let pendingPlan = stored.pendingPlan;
      if (periodEnd && periodEnd.getTime() <= at) {
        if (stored.cancelAtPeriodEnd) return FREE;
        if (pendingPlan) current = pendingPlan;
        pendingPlan = null;
        const months = stored.billingInterval === 'year' ? 12 : 1;
        while (periodEnd.getTime() <= at) periodEnd = addMonth(periodEnd, months);
      }
      return {
        status: stored.subscriptionStatus,
        plan: current,
        trialEnd: null,
        currentPeriodEnd: periodEnd,
        cancelAtPeriodEnd: stored.cancelAtPeriodEnd,
        pendingPlan,
        interval: stored.billingInterval,
        paymentMethod: stored.paymentMethod,
        limits: planLimits(current, stored),
      };
    }
    default:
      return FREE;
  }
}

/** The columns that store an effective state (what a change writes, so nothing due is left behind). */
export function toStored(state: EffectiveSubscription, previousPlan: string): StoredSubscription {
  return {
    plan: state.plan ?? previousPlan,
    subscriptionStatus: state.status,
    trialEndsAt: state.trialEnd,
    currentPeriodEnd: state.status === 'trialing' ? null : state.currentPeriodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    pendingPlan: state.pendingPlan,
    billingInterval: state.interval,
    paymentMethod: state.paymentMethod,
  };
}

/**
 * What the end of a trial brings: the plan continues, billed ('billed'), only with a payment method
 * (or invoices) and no cancel; otherwise the organization moves to Free then. Null outside a trial.
 */
export function atTrialEnd(state: EffectiveSubscription): 'billed' | 'free' | null {
  if (state.status !== 'trialing') return null;
  return state.paymentMethod && !state.cancelAtPeriodEnd ? 'billed' : 'free';
}

/** A new trial on `plan`, from `now`, billed every `interval` after it; `paymentMethod` as known. */
export function trialOn(
  plan: PlanId,
  now: Date,
  interval: BillingInterval = 'month',
  paymentMethod: PaymentMethodValue | null = null,
): StoredSubscription {
  return {
    billingInterval: interval,
    paymentMethod,
    plan,
    subscriptionStatus: 'trialing',
    trialEndsAt: new Date(now.getTime() + TRIAL_MS),
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    pendingPlan: null,
  };
}
