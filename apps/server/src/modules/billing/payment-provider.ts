import type { PlanId } from '@crewline/contracts';

/**
 * Where payments are taken. The billing service decides plans, trials and limits; a provider only
 * collects money and reports back. Without one ('none', today's only provider) no card is asked and
 * the service applies every change itself. A Stripe provider (next) creates the customer and the
 * subscription, answers the client secret of the card form, and reports status changes by webhook.
 */
export interface PaymentProvider {
  readonly name: 'none' | 'stripe';
  /** False when no payment is collected: the billing service then applies the change at once. */
  readonly collectsPayment: boolean;
  /** Starts or changes the organization's paid subscription; the client secret confirms a card, if any. */
  subscribe(input: { organizationId: string; planId: PlanId; amountCents: number }): Promise<{
    clientSecret: string | null;
  }>;
  /** Asks the provider to end the subscription at the end of its period. */
  cancelAtPeriodEnd(organizationId: string): Promise<void>;
}

/** No payment provider configured: trials without a card, changes applied by the billing service. */
export function createNoPaymentProvider(): PaymentProvider {
  return {
    name: 'none',
    collectsPayment: false,
    subscribe: () => Promise.resolve({ clientSecret: null }),
    cancelAtPeriodEnd: () => Promise.resolve(),
  };
}
