// PaymentForm against stubs of @stripe/react-stripe-js and @stripe/stripe-js (no DOM here: the
// structure is rendered to static markup, the submit is the pure confirmWithStripe).
import type { StripeElements } from '@stripe/stripe-js';
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const stripe = vi.hoisted(() => ({
  loadStripe: vi.fn((key: string) => Promise.resolve({ key })),
  confirmSetup: vi.fn(),
  confirmPayment: vi.fn(),
}));

vi.mock('@stripe/stripe-js', () => ({ loadStripe: stripe.loadStripe }));
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: stripe.loadStripe }));
vi.mock('@stripe/react-stripe-js', () => ({
  Elements: ({ children, options }: { children: ReactNode; options: { clientSecret: string } }) =>
    createElement('div', { 'data-stripe-elements': options.clientSecret }, children),
  PaymentElement: () => createElement('div', { 'data-stripe-payment-element': '' }),
  useStripe: () => ({ confirmSetup: stripe.confirmSetup, confirmPayment: stripe.confirmPayment }),
  useElements: () => ({}),
}));

const { PaymentForm, PaymentFormView } = await import('./components/payment-form');
const { confirmWithStripe, getStripe, paymentModeFor, paymentReturnUrl, STRIPE_NOT_READY } =
  await import('./lib/stripe-payment');

const elements = {} as StripeElements;
const returnUrl = paymentReturnUrl('https://app.example.com');

beforeEach(() => {
  stripe.confirmSetup.mockReset();
  stripe.confirmPayment.mockReset();
});

describe('PaymentForm', () => {
  it('renders the Payment Element inside Elements with the client secret', () => {
    const html = renderToStaticMarkup(
      createElement(PaymentForm, {
        publishableKey: 'pk_test_1',
        clientSecret: 'seti_123_secret_abc',
        mode: 'setup',
        onDone: () => {},
      }),
    );
    expect(html).toMatch(
      /<div data-stripe-elements="seti_123_secret_abc"><form[^>]*><div data-stripe-payment-element="">/,
    );
    expect(html).toContain('Save Payment Method');
    expect(html).toContain('type="submit"');
  });

  it('loads Stripe.js lazily, once per publishable key', async () => {
    stripe.loadStripe.mockClear();
    const first = getStripe('pk_test_memo');
    expect(getStripe('pk_test_memo')).toBe(first);
    await first;
    expect(stripe.loadStripe).toHaveBeenCalledTimes(1);
    expect(stripe.loadStripe).toHaveBeenCalledWith('pk_test_memo');
    expect(getStripe('pk_test_other')).not.toBe(first);
  });

  it("shows Stripe's error inline and 'Processing...' while busy", () => {
    const view = (props: { busy: boolean; error: string | null }) =>
      renderToStaticMarkup(
        createElement(PaymentFormView, { mode: 'payment', ready: true, onSubmit: () => {}, ...props }),
      );
    const failed = view({ busy: false, error: 'Your card was declined.' });
    expect(failed).toContain('role="alert"');
    expect(failed).toContain('Your card was declined.');
    expect(failed).toContain('Pay and Subscribe');
    const busy = view({ busy: true, error: null });
    expect(busy).toContain('Processing...');
    expect(busy).toMatch(/<button[^>]*disabled=""/);
    expect(busy).not.toContain('role="alert"');
  });
});

describe('confirmWithStripe', () => {
  const client = { confirmSetup: stripe.confirmSetup, confirmPayment: stripe.confirmPayment };

  it('returns to the dashboard', () => {
    expect(returnUrl).toBe('https://app.example.com/dashboard');
  });

  it('confirms a SetupIntent in setup mode', async () => {
    stripe.confirmSetup.mockResolvedValue({ setupIntent: { status: 'succeeded' } });
    await expect(confirmWithStripe(client, elements, 'setup', returnUrl)).resolves.toEqual({ error: null });
    expect(stripe.confirmSetup).toHaveBeenCalledWith(
      expect.objectContaining({ elements, confirmParams: { return_url: returnUrl } }),
    );
    expect(stripe.confirmPayment).not.toHaveBeenCalled();
  });

  it('confirms a PaymentIntent in payment mode', async () => {
    stripe.confirmPayment.mockResolvedValue({ paymentIntent: { status: 'succeeded' } });
    await expect(confirmWithStripe(client, elements, 'payment', returnUrl)).resolves.toEqual({ error: null });
    expect(stripe.confirmPayment).toHaveBeenCalledWith(
      expect.objectContaining({ elements, confirmParams: { return_url: returnUrl } }),
    );
    expect(stripe.confirmSetup).not.toHaveBeenCalled();
  });

  it("answers Stripe's error message", async () => {
    stripe.confirmPayment.mockResolvedValue({
      error: { type: 'card_error', message: 'Your card was declined.' },
    });
    await expect(confirmWithStripe(client, elements, 'payment', returnUrl)).resolves.toEqual({
      error: 'Your card was declined.',
    });
    stripe.confirmSetup.mockRejectedValue(new Error('Network down'));
    await expect(confirmWithStripe(client, elements, 'setup', returnUrl)).resolves.toEqual({
      error: 'Network down',
    });
  });

  it('waits for Stripe.js and the Elements', async () => {
    await expect(confirmWithStripe(null, elements, 'setup', returnUrl)).resolves.toEqual({
      error: STRIPE_NOT_READY,
    });
    await expect(confirmWithStripe(client, null, 'setup', returnUrl)).resolves.toEqual({
      error: STRIPE_NOT_READY,
    });
  });

  it('uses setup mode for the SetupIntent of a trial', () => {
    expect(paymentModeFor('trialing')).toBe('setup');
    expect(paymentModeFor('active')).toBe('payment');
    expect(paymentModeFor('past_due')).toBe('payment');
  });
});
