// ChangePlanDialog in Stripe mode, against stubs of @stripe/react-stripe-js and @stripe/stripe-js, of the
// billing API hooks and of the dialog shell (Radix renders a dialog into a portal, which needs a DOM;
// here the content is rendered in place). No DOM: the dialog is prerendered to static markup, which
// waits for the lazily loaded payment form.
import type { SubscriptionStatusResponse } from '@crewline/contracts';
import { createElement, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const stripe = vi.hoisted(() => ({ loadStripe: vi.fn((key: string) => Promise.resolve({ key })) }));
/** What useCreateSubscription answers: the state of the last POST /api/create-subscription. */
const mutation = vi.hoisted(() => ({
  current: {} as Record<string, unknown>,
}));
const config = vi.hoisted(() => ({
  current: { data: { provider: 'stripe', publishableKey: 'pk_test_1' }, isPending: false } as Record<
    string,
    unknown
  >,
}));

vi.mock('@stripe/stripe-js', () => ({ loadStripe: stripe.loadStripe }));
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: stripe.loadStripe }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children, options }: { children: ReactNode; options: { clientSecret: string } }) =>
    createElement('div', { 'data-stripe-elements': options.clientSecret }, children),
  PaymentElement: () => createElement('div', { 'data-stripe-payment-element': '' }),
  useStripe: () => ({}),
  useElements: () => ({}),
}));
vi.mock('./api/subscription', () => ({ useCreateSubscription: () => mutation.current }));
vi.mock('./api/billing-config', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useBillingConfig: () => config.current,
}));
vi.mock('@/components/ui/dialog', () => {
  const tag =
    (name: string) =>
    ({ children }: { children?: ReactNode }) =>
      createElement(name, null, children);
  return {
    Dialog: ({ open, children }: { open: boolean; children: ReactNode }) =>
      open ? createElement('div', { role: 'dialog' }, children) : null,
    DialogContent: tag('section'),
    DialogHeader: tag('header'),
    DialogTitle: tag('h2'),
    DialogDescription: tag('p'),
    DialogFooter: tag('footer'),
  };
});

const { ChangePlanDialog } = await import('./components/change-plan-dialog');
const { pendingPaymentFor } = await import('./lib/stripe-payment');

const trial: SubscriptionStatusResponse = {
  status: 'trialing',
  plan: 'starter',
  trialEnd: 1_900_000_000,
  currentPeriodEnd: 1_900_000_000,
  cancelAtPeriodEnd: false,
  pendingPlan: null,
  trialUsed: true,
  interval: 'month',
  paymentMethod: null,
  atTrialEnd: 'free',
  usage: { agents: 0, executionsThisMonth: 0, members: 1, knowledgeStorageBytes: 0 },
  limits: {
    agents: 5,
    executionsPerMonth: 1000,
    members: 3,
    knowledgeStorageBytes: 1024 ** 3,
    mapItems: 1000,
    concurrentRuns: 5,
  },
};

const idle = { isPending: false, isSuccess: false, data: undefined, variables: undefined };
/** create-subscription answered `answer` for `plan`. */
const answered = (plan: string, answer: { clientSecret: string | null; status: string }) => ({
  isPending: false,
  isSuccess: true,
  data: answer,
  variables: plan,
});

async function render() {
  mutation.current = { mutate: vi.fn(), reset: vi.fn(), ...mutation.current };
  const { prelude } = await prerender(
    createElement(ChangePlanDialog, { open: true, onOpenChange: () => {}, subscription: trial }),
  );
  return new Response(prelude).text();
}

beforeEach(() => {
  mutation.current = idle;
  config.current = { data: { provider: 'stripe', publishableKey: 'pk_test_1' }, isPending: false };
});

describe('ChangePlanDialog with Stripe', () => {
  it('shows the plans until a plan is chosen', async () => {
    const html = await render();
    expect(html).toContain('<h2>Change Plan</h2>');
    expect(html).toContain('role="radiogroup"');
    expect(html).not.toContain('data-stripe-elements');
  });

  it('moves to the card form when create-subscription answers a SetupIntent client secret', async () => {
    mutation.current = answered('enterprise', { clientSecret: 'seti_9_secret_z', status: 'trialing' });
    const html = await render();
    expect(html).toContain('<h2>Add a Payment Method</h2>');
    expect(html).not.toContain('role="radiogroup"');
    expect(html).toMatch(
      /<div data-stripe-elements="seti_9_secret_z"><form[^>]*><div data-stripe-payment-element="">/,
    );
    expect(html).toContain('Save Payment Method');
    // During the trial the card may wait.
    expect(html).toContain('Add it later');
    // Stripe.js is loaded with the server's publishable key.
    await vi.waitFor(() => expect(stripe.loadStripe).toHaveBeenCalledWith('pk_test_1'));
  });

  it("asks for the first payment when the subscription is not in trial (the invoice's client secret)", async () => {
    mutation.current = answered('professional', { clientSecret: 'pi_7_secret_y', status: 'active' });
    const html = await render();
    expect(html).toContain('<h2>Pay for Professional</h2>');
    expect(html).toContain('data-stripe-elements="pi_7_secret_y"');
    expect(html).toContain('Pay and Subscribe');
    expect(html).not.toContain('Add it later');
  });

  it('keeps the plans (and closes with the toast) when the answer has no client secret', async () => {
    mutation.current = answered('enterprise', { clientSecret: null, status: 'trialing' });
    const html = await render();
    expect(html).toContain('<h2>Change Plan</h2>');
    expect(html).not.toContain('data-stripe-elements');
  });

  it('ignores a client secret without Stripe configured (no publishable key)', async () => {
    config.current = { data: { provider: 'none', publishableKey: null }, isPending: false };
    mutation.current = answered('enterprise', { clientSecret: 'seti_9_secret_z', status: 'trialing' });
    const html = await render();
    expect(html).toContain('<h2>Change Plan</h2>');
    expect(html).not.toContain('data-stripe-elements');
  });
});

describe('pendingPaymentFor', () => {
  it('asks for a payment only with Stripe and a client secret, in the mode of the status', () => {
    expect(pendingPaymentFor({ clientSecret: 'seti_1', status: 'trialing' }, 'pk_1', 'starter')).toEqual({
      plan: 'starter',
      publishableKey: 'pk_1',
      clientSecret: 'seti_1',
      mode: 'setup',
    });
    expect(pendingPaymentFor({ clientSecret: 'pi_1', status: 'active' }, 'pk_1', 'starter')?.mode).toBe(
      'payment',
    );
    expect(pendingPaymentFor({ clientSecret: null, status: 'trialing' }, 'pk_1', 'starter')).toBeNull();
    expect(pendingPaymentFor({ clientSecret: 'seti_1', status: 'trialing' }, null, 'starter')).toBeNull();
  });
});
