import { describe, expect, it } from 'vitest';
import { billingAuditEvents } from './billing-audit';
import type { StoredSubscription } from './subscription-state';

const active: StoredSubscription = {
  plan: 'starter',
  subscriptionStatus: 'active',
  trialEndsAt: null,
  currentPeriodEnd: new Date('2027-01-01T00:00:00Z'),
  cancelAtPeriodEnd: false,
  pendingPlan: null,
  billingInterval: 'month',
  paymentMethod: 'saved',
};

const actions = (before: StoredSubscription, after: StoredSubscription) =>
  billingAuditEvents(before, after).map((e) => e.action);

describe('billing audit events', () => {
  it('records nothing when nothing the log shows changed (a renewal moves only the period end)', () => {
    expect(actions(active, { ...active, currentPeriodEnd: new Date('2027-02-01T00:00:00Z') })).toEqual([]);
  });

  it('records a plan change, now or at the period end, with both plans', () => {
    expect(billingAuditEvents(active, { ...active, plan: 'professional' })).toEqual([
      { action: 'billing.plan_changed', details: { from: 'starter', to: 'professional', interval: 'month' } },
    ]);
    const professional = { ...active, plan: 'professional' };
    expect(billingAuditEvents(professional, { ...professional, pendingPlan: 'starter' })[0].details).toEqual({
      from: 'professional',
      to: 'professional',
      atPeriodEnd: 'starter',
      interval: 'month',
    });
  });

  it('records a cancel and its withdrawal, and a payment method change, each once', () => {
    const canceled = { ...active, cancelAtPeriodEnd: true };
    expect(actions(active, canceled)).toEqual(['billing.subscription_canceled']);
    expect(actions(canceled, { ...canceled, subscriptionStatus: 'canceled' })).toEqual([]);
    expect(actions(canceled, active)).toEqual(['billing.subscription_resumed']);
    expect(billingAuditEvents(active, { ...active, paymentMethod: 'invoice' })).toEqual([
      { action: 'billing.payment_method_changed', details: { from: 'saved', to: 'invoice' } },
    ]);
  });
});
