import { eq } from 'drizzle-orm';
import { organizations, subscriptions, type Db } from '@crewline/db';

/**
 * What the Stripe provider names a customer with (stripe-provider.ts): the organization's name
 * beside its subscription's Stripe ids, read only.
 */
export function createStripeCustomerPresenter(db: Db) {
  return {
    async stripeIds(organizationId: string) {
      const [row] = await db
        .select({
          name: organizations.name,
          customerId: subscriptions.stripeCustomerId,
          subscriptionId: subscriptions.stripeSubscriptionId,
        })
        .from(subscriptions)
        .innerJoin(organizations, eq(organizations.id, subscriptions.organizationId))
        .where(eq(subscriptions.organizationId, organizationId))
        .limit(1);
      return row;
    },
  };
}
