import { and, eq, sql, type SQL } from 'drizzle-orm';
import { organizationUsage, rowFromJson, rowJson, stripeEvents, subscriptions, type Db } from '@crewline/db';
import type { RequestActor } from '../../platform/request-actor';
import type { AuditRecorder } from '../audit/audit.service';
import type { BillingAuditEvent } from './billing-audit';
import type { StoredSubscription } from './subscription-state';

const subscriptionColumns = {
  plan: subscriptions.plan,
  subscriptionStatus: subscriptions.subscriptionStatus,
  trialEndsAt: subscriptions.trialEndsAt,
  currentPeriodEnd: subscriptions.currentPeriodEnd,
  cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
  pendingPlan: subscriptions.pendingPlan,
  billingInterval: subscriptions.billingInterval,
  paymentMethod: subscriptions.paymentMethod,
  concurrentRuns: subscriptions.concurrentRuns,
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
  select json_build_object('row', ${rowJson('s')}, 'executions', coalesce((select u.executions
    from organization_usage u where u.organization_id = s.organization_id
      and u.month = ${sql.placeholder('allowanceMonth')}::date), 0))
  from subscriptions s where s.organization_id = ${sql.placeholder('allowanceOrganizationId')}::uuid)`;

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
  const stored = rowFromJson(subscriptions, row);
  const subscription = Object.fromEntries(
    Object.keys(subscriptionColumns).map((key) => [key, stored[key as keyof typeof stored]]),
  ) as StoredSubscription;
  return { ...subscription, executions };
}

/** Where a plan limit's reads run: the database, or the transaction that inserts what it counts. */
export type LimitReader = Pick<Db, 'select'>;

/** The subscriptions, the month's run counters and the Stripe events applied (billing's own tables). */
export function createBillingRepository(db: Db, audit: AuditRecorder) {
  return {
    /**
     * The subscription, read in `tx` with its row locked until it ends, so checks of a plan limit and
     * the inserts they allow run one at a time per organization (docs/decisions/0023): the counts read
     * after it see every insert committed before, and a plan change (an update of the row) waits for
     * them. FOR NO KEY UPDATE, as nothing needs more.
     */
    async lockSubscription(tx: LimitReader, organizationId: string): Promise<StoredSubscription | undefined> {
      const [row] = await tx
        .select(subscriptionColumns)
        .from(subscriptions)
        .where(eq(subscriptions.organizationId, organizationId))
        .for('no key update');
      return row;
    },

    /** The subscription columns, and when the organization's one trial began (null: never). */
    async find(
      organizationId: string,
    ): Promise<(StoredSubscription & { trialUsedAt: Date | null }) | undefined> {
      const [row] = await db
        .select({ ...subscriptionColumns, trialUsedAt: subscriptions.trialUsedAt })
        .from(subscriptions)
        .where(eq(subscriptions.organizationId, organizationId))
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
      /** The change's audit events (billing-audit.ts), written in the same transaction. */
      audited: { actor: RequestActor; events: BillingAuditEvent[] } = {
        actor: { userId: null, ip: null },
        events: [],
      },
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
      await db.transaction(async (tx) => {
        await tx
          .update(subscriptions)
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
                  trialUsedAt: sql`coalesce(${subscriptions.trialUsedAt}, ${trialStartedAt.toISOString()}::timestamptz)`,
                }
              : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(subscriptions.organizationId, organizationId));
        for (const event of audited.events) {
          await audit.record(tx, {
            organizationId,
            actor: audited.actor,
            action: event.action,
            target: { type: 'subscription', id: organizationId, name: plan },
            details: event.details,
          });
        }
      });
    },

    /** The organization's Stripe subscription, if it has one. */
    async stripeSubscriptionId(organizationId: string): Promise<string | null | undefined> {
      const [row] = await db
        .select({ subscriptionId: subscriptions.stripeSubscriptionId })
        .from(subscriptions)
        .where(eq(subscriptions.organizationId, organizationId))
        .limit(1);
      return row?.subscriptionId;
    },

    async saveStripeCustomer(organizationId: string, customerId: string): Promise<void> {
      await db
        .update(subscriptions)
        .set({ stripeCustomerId: customerId, updatedAt: sql`now()` })
        .where(eq(subscriptions.organizationId, organizationId));
    },

    async saveStripeSubscription(organizationId: string, subscriptionId: string): Promise<void> {
      await db
        .update(subscriptions)
        .set({ stripeSubscriptionId: subscriptionId, updatedAt: sql`now()` })
        .where(eq(subscriptions.organizationId, organizationId));
    },

    /** The organization a Stripe customer belongs to. */
    async findByStripeCustomer(customerId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ id: subscriptions.organizationId })
        .from(subscriptions)
        .where(eq(subscriptions.stripeCustomerId, customerId))
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
  };
}
export type BillingRepository = ReturnType<typeof createBillingRepository>;
