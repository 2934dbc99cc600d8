// Stripe.js, loaded only when a payment form is shown (never at start-up: the CSP admits
// js.stripe.com only when Stripe is configured), and the confirmation of the Payment Element.
import type { Stripe, StripeElements } from '@stripe/stripe-js';

/** 'setup' confirms a SetupIntent (a card saved during the trial), 'payment' a PaymentIntent. */
export type PaymentMode = 'setup' | 'payment';

/** Where Stripe sends the browser back after a confirmation that needed a redirect (e.g. 3-D Secure). */
export function paymentReturnUrl(origin: string): string {
  return `${origin}/dashboard`;
}

/** The mode of the client secret create-subscription answers: a SetupIntent during a trial. */
export function paymentModeFor(status: string): PaymentMode {
  return status === 'trialing' ? 'setup' : 'payment';
}

/** A subscription created or changed with Stripe whose card or first payment still has to be confirmed. */
export interface PendingPayment<Plan extends string = string> {
  plan: Plan;
  publishableKey: string;
  clientSecret: string;
  mode: PaymentMode;
}

/**
 * What follows create-subscription: the Payment Element when Stripe collects (a publishable key) and
 * the answer carries a client secret, else nothing (no provider, or nothing to confirm).
 */
export function pendingPaymentFor<Plan extends string>(
  answer: { clientSecret: string | null; status: string },
  publishableKey: string | null,
  plan: Plan,
): PendingPayment<Plan> | null {
  if (!publishableKey || !answer.clientSecret) return null;
  return { plan, publishableKey, clientSecret: answer.clientSecret, mode: paymentModeFor(answer.status) };
}

const stripePromises = new Map<string, Promise<Stripe | null>>();

/**
 * Stripe.js for a publishable key, once per key. '@stripe/stripe-js/pure' injects the script only
 * when loadStripe is called (the package's main entry injects it as soon as it is imported).
 */
export function getStripe(publishableKey: string): Promise<Stripe | null> {
  let promise = stripePromises.get(publishableKey);
  if (!promise) {
    promise = import('@stripe/stripe-js/pure').then(({ loadStripe }) => loadStripe(publishableKey));
    // A failed load (network, CSP) may be retried by showing the form again.
    promise.catch(() => stripePromises.delete(publishableKey));
    stripePromises.set(publishableKey, promise);
  }
  return promise;
}

export const STRIPE_NOT_READY = 'The payment form is still loading. Try again in a moment.';
const STRIPE_FAILED = 'The payment could not be confirmed.';

/**
 * Confirms the Payment Element's intent. Stripe redirects to returnUrl when the method needs it;
 * otherwise the answer comes back here: an error message to show, or null when it succeeded.
 */
export async function confirmWithStripe(
  stripe: Pick<Stripe, 'confirmSetup' | 'confirmPayment'> | null,
  elements: StripeElements | null,
  mode: PaymentMode,
  returnUrl: string,
): Promise<{ error: string | null }> {
  if (!stripe || !elements) return { error: STRIPE_NOT_READY };
  try {
    const confirmParams = { return_url: returnUrl };
    const result =
      mode === 'setup'
        ? await stripe.confirmSetup({ elements, confirmParams, redirect: 'if_required' })
        : await stripe.confirmPayment({ elements, confirmParams, redirect: 'if_required' });
    if (result.error) return { error: result.error.message ?? STRIPE_FAILED };
    return { error: null };
  } catch (error) {
    return { error: error instanceof Error && error.message ? error.message : STRIPE_FAILED };
  }
}
