import {
  FREE_LIMITS,
  PLAN_LIMITS,
  PLAN_PRICE_CENTS,
  TRIAL_DAYS,
  planIdValues,
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
  limits: PlanLimits;
};

export const TRIAL_MS = TRIAL_DAYS * 86_400_000;

const FREE: EffectiveSubscription = {
  status: 'no_subscription',
  plan: null,
  trialEnd: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  pendingPlan: null,
  limits: FREE_LIMITS,
};

export function asPlanId(value: string | null | undefined): PlanId | null {
  return (planIdValues as readonly string[]).includes(value ?? '') ? (value as PlanId) : null;
}

/** One calendar month later (UTC), clamped to the last day of a shorter month. */
export function addMonth(date: Date): Date {
  const next = new Date(date.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
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
        limits: PLAN_LIMITS[plan],
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
        while (periodEnd.getTime() <= at) periodEnd = addMonth(periodEnd);
      }
      return {
        status: stored.subscriptionStatus,
        plan: current,
        trialEnd: null,
        currentPeriodEnd: periodEnd,
        cancelAtPeriodEnd: stored.cancelAtPeriodEnd,
        pendingPlan,
        limits: PLAN_LIMITS[current],
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
  };
}

/** A new trial on `plan`, from `now`. */
export function trialOn(plan: PlanId, now: Date): StoredSubscription {
  return {
    plan,
    subscriptionStatus: 'trialing',
    trialEndsAt: new Date(now.getTime() + TRIAL_MS),
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    pendingPlan: null,
  };
}
