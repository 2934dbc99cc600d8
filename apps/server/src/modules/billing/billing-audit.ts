import type { AuditAction } from '@crewline/contracts';
import type { StoredSubscription } from './subscription-state';

/*
 * What a subscription change shows in the audit log (modules/audit): the plan, a cancel or its
 * withdrawal, the payment method, each once, whoever made it (the owner on Billing, or the payment
 * provider's webhook). Never a card's details: the method's kind only ('saved', 'invoice').
 */

export type BillingAuditEvent = { action: AuditAction; details: Record<string, unknown> };

/** The audit events of the change from `before` to `after` (none when nothing the log shows changed). */
export function billingAuditEvents(
  before: StoredSubscription,
  after: StoredSubscription,
): BillingAuditEvent[] {
  const events: BillingAuditEvent[] = [];
  if (
    before.plan !== after.plan ||
    before.pendingPlan !== after.pendingPlan ||
    before.billingInterval !== after.billingInterval
  ) {
    events.push({
      action: 'billing.plan_changed',
      details: {
        from: before.plan,
        to: after.plan,
        ...(after.pendingPlan ? { atPeriodEnd: after.pendingPlan } : {}),
        interval: after.billingInterval,
      },
    });
  }
  const canceled = (s: StoredSubscription) => s.cancelAtPeriodEnd || s.subscriptionStatus === 'canceled';
  if (!canceled(before) && canceled(after)) {
    events.push({
      action: 'billing.subscription_canceled',
      details: { plan: after.plan, atPeriodEnd: after.subscriptionStatus !== 'canceled' },
    });
  } else if (canceled(before) && !canceled(after)) {
    events.push({ action: 'billing.subscription_resumed', details: { plan: after.plan } });
  }
  if (before.paymentMethod !== after.paymentMethod) {
    events.push({
      action: 'billing.payment_method_changed',
      details: { from: before.paymentMethod, to: after.paymentMethod },
    });
  }
  return events;
}
