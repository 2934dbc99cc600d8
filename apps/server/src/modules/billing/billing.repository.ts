import { and, count, eq, gt, isNull, ne, sql, type SQL } from 'drizzle-orm';
import {
  agents,
  organizationInvitations,
  organizationUsage,
  organizations,
  userOrganizations,
  stripeEvents,
  rowFromJson,
  rowJson,
  type Db,
} from '@crewline/db';
import type { StoredSubscription } from './subscription-state';

const subscriptionColumns = {
  plan: organizations.plan,
  subscriptionStatus: organizations.subscriptionStatus,
  trialEndsAt: organizations.trialEndsAt,
  currentPeriodEnd: organizations.currentPeriodEnd,
  cancelAtPeriodEnd: organizations.cancelAtPeriodEnd,
  pendingPlan: organizations.pendingPlan,
  billingInterval: organizations.billingInterval,
  paymentMethod: organizations.paymentMethod,
};

/** organization_usage's month of an instant's UTC calendar month: its first day. */
const usageMonth = (at: Date) => at.toISOString().slice(0, 8) + '01';

/**
 * The organization's subscription and how many runs it started in a month, as one JSON column of
 * another read: every run's start reads its workflow and this together. The column is the same for
 * every read, so that read is built once; the organization and the month are its parameters
 * (`subscriptionWithExecutionsParameters`). `subscriptionFromJson` decodes it.
 */
export const subscriptionWithExecutionsJson: SQL<unknown> = sql`(
  select json_build_object('row', ${rowJson('o')}, 'executions', coalesce((select u.executions
    from organization_usage u where u.organization_id = o.id
      and u.month = ${sql.placeholder('allowanceMonth')}::date), 0))
  from organizations o where o.id = ${sql.placeholder('allowanceOrganizationId')}::uuid)`;

/** The parameters of `subscriptionWithExecutionsJson`: the organization, and `at`'s month (UTC). */
export const subscriptionWithExecutionsParameters = (organizationId: string, at: Date) => ({
  allowanceOrganizationId: organizationId,
  allowanceMonth: usageMonth(at),
});

export function subscriptionFromJson(
  json: unknown,
): (StoredSubscription & { executions: number }) | undefined {
  if (!json) return undefined;
  const { row, executions } = json as { row: unknown; executions: number };
  const organization = rowFromJson(organizations, row);
  const subscription = Object.fromEntries(
    Object.keys(subscriptionColumns).map((key) => [key, organization[key as keyof typeof organization]]),
  ) as StoredSubscription;
  return { ...subscription, executions };
}

/** Where a plan limit's reads run: the database, or the transaction that inserts what it counts. */
export type LimitReader = Pick<Db, 'select'>;

/** The subscription columns of organizations and the counts plan limits read: one COUNT each, on indexes. */
export function createBillingRepository(db: Db) {
  return {
    /**
     * The subscription, read in `tx` with the organization's row locked until it ends, so checks of a
     * plan limit and the inserts they allow run one at a time per organization: the counts read after
     * it see every insert committed before. FOR NO KEY UPDATE, which does not wait for (nor block)
     * rows inserted elsewhere that reference the organization, runs among them.
     */
    async lockSubscription(tx: LimitReader, organizationId: string): Promise<StoredSubscription | undefined> {
      const [row] = await tx
        .select(subscriptionColumns)
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .for('no key update');
      return row;
    },

    /** The subscription columns, and when the organization's one trial began (null: never). */
    async find(
      organizationId: string,
    ): Promise<(StoredSubscription & { trialUsedAt: Date | null }) | undefined> {
      const [row] = await db
        .select({ ...subscriptionColumns, trialUsedAt: organizations.trialUsedAt })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .limit(1);
      return row;
    },

    /**
     * Writes the subscription columns (only those: a caller's extra fields are not stored). With
     * `trialStartedAt`, the organization's one trial is recorded as used from then (kept if set before).
     */
    async save(
      organizationId: string,
      subscription: StoredSubscription,
      trialStartedAt?: Date,
    ): Promise<void> {
      const {
        plan,
        subscriptionStatus,
        trialEndsAt,
        currentPeriodEnd,
        cancelAtPeriodEnd,
        pendingPlan,
        billingInterval,
        paymentMethod,
      } = subscription;
      await db
        .update(organizations)
        .set({
          plan,
          subscriptionStatus,
          trialEndsAt,
          currentPeriodEnd,
          cancelAtPeriodEnd,
          pendingPlan,
          billingInterval,
          paymentMethod,
          ...(trialStartedAt
            ? {
                trialUsedAt: sql`coalesce(${organizations.trialUsedAt}, ${trialStartedAt.toISOString()}::timestamptz)`,
              }
            : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(organizations.id, organizationId));
    },

    /** The organization's name and Stripe ids (stripe-provider.ts). */
    async stripeIds(organizationId: string) {
      const [row] = await db
        .select({
          name: organizations.name,
          customerId: organizations.stripeCustomerId,
          subscriptionId: organizations.stripeSubscriptionId,
        })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
        .limit(1);
      return row;
    },

    async saveStripeCustomer(organizationId: string, customerId: string): Promise<void> {
      await db
        .update(organizations)
        .set({ stripeCustomerId: customerId, updatedAt: sql`now()` })
        .where(eq(organizations.id, organizationId));
    },

    async saveStripeSubscription(organizationId: string, subscriptionId: string): Promise<void> {
      await db
        .update(organizations)
        .set({ stripeSubscriptionId: subscriptionId, updatedAt: sql`now()` })
        .where(eq(organizations.id, organizationId));
    },

    /** The organization a Stripe customer belongs to. */
    async findByStripeCustomer(customerId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.stripeCustomerId, customerId))
        .limit(1);
      return row?.id;
    },

    /** Records a webhook event id; false when it was recorded before (a redelivery). */
    async recordStripeEvent(id: string, type: string): Promise<boolean> {
      const rows = await db
        .insert(stripeEvents)
        .values({ id, type })
        .onConflictDoNothing()
        .returning({ id: stripeEvents.id });
      return rows.length > 0;
    },

    /** Forgets an event whose handling failed, so Stripe's retry applies it. */
    async forgetStripeEvent(id: string): Promise<void> {
      await db.delete(stripeEvents).where(eq(stripeEvents.id, id));
    },

    /** agents_organization_id_idx. */
    async countAgents(organizationId: string, q: LimitReader = db): Promise<number> {
      const [row] = await q
        .select({ n: count() })
        .from(agents)
        .where(eq(agents.organizationId, organizationId));
      return row.n;
    },

    /** Runs started in `at`'s calendar month (UTC), kept counted in organization_usage. */
    async countMonthExecutions(organizationId: string, at: Date): Promise<number> {
      const [row] = await db
        .select({ n: organizationUsage.executions })
        .from(organizationUsage)
        .where(
          and(
            eq(organizationUsage.organizationId, organizationId),
            eq(organizationUsage.month, usageMonth(at)),
          ),
        );
      return row?.n ?? 0;
    },

    /** user_organizations_organization_id_idx. */
    async countMembers(organizationId: string, q: LimitReader = db): Promise<number> {
      const [row] = await q
        .select({ n: count() })
        .from(userOrganizations)
        .where(eq(userOrganizations.organizationId, organizationId));
      return row.n;
    },

    /** Pending invitations, except one to `exceptEmail` (a new invitation to it replaces it). */
    async countPendingInvitations(
      organizationId: string,
      exceptEmail?: string,
      q: LimitReader = db,
    ): Promise<number> {
      const [row] = await q
        .select({ n: count() })
        .from(organizationInvitations)
        .where(
          and(
            eq(organizationInvitations.organizationId, organizationId),
            isNull(organizationInvitations.acceptedAt),
            isNull(organizationInvitations.revokedAt),
            gt(organizationInvitations.expiresAt, sql`now()`),
            exceptEmail === undefined ? undefined : ne(organizationInvitations.email, exceptEmail),
          ),
        );
      return row.n;
    },
  };
}
export type BillingRepository = ReturnType<typeof createBillingRepository>;
