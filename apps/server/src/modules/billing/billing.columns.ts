import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { organizationUsage, subscriptions, type Db } from '@crewline/db';
import type { StoredSubscription } from './subscription-state';

/*
 * SQL billing offers to other modules' statements: the billing module owns subscriptions and
 * organization_usage. A run's start (modules/executions/run-start.repository.ts) takes its month's
 * place with allowedRunSql; a signup (modules/auth) writes the new organization's subscription, and
 * the session reads its stored plan, with the others.
 */

/**
 * The organization's stored plan and trial end, as columns of another module's read of it
 * (`organizationId`: the read's column or SQL of the organization's id); the session's organization
 * shows them. Stored: billing's service tells the effective plan.
 */
export const storedPlanColumns = (organizationId: AnyColumn | SQL) => ({
  plan: sql<string>`(select s.plan from ${subscriptions} s where s.organization_id = ${organizationId})`,
  trialEndsAt: sql<Date | null>`(select s.trial_ends_at from ${subscriptions} s
    where s.organization_id = ${organizationId})`.mapWith(subscriptions.trialEndsAt),
});

/**
 * Writes the subscription of an organization created in `tx`, the signup's transaction: the trial
 * billing's signupSubscription gave it, so the organization never exists without its plan.
 */
export const insertSubscription = (
  tx: Pick<Db, 'insert'>,
  organizationId: string,
  subscription: StoredSubscription & { trialUsedAt: Date | null },
) => tx.insert(subscriptions).values({ organizationId, ...subscription });

/**
 * The month's run counter of the run's organization (organization_usage, the month of now() in UTC,
 * as the counting trigger files it), locked until the run's insert commits and returned only while
 * it is under the plan's limit (`runLimit`; null: unlimited, the row is locked all the same). It inserts a missing month at 0 or locks the existing one; either way a concurrent start
 * waits for this one to commit and then reads the count it left, so no two starts see the same last
 * free run. The no-op update is what returns the locked row's newest count.
 */
export const allowedRunSql = sql`insert into ${organizationUsage} as u (organization_id, month, executions)
  values (${sql.placeholder('organizationId')}::uuid, date_trunc('month', now() at time zone 'UTC')::date, 0)
  on conflict (organization_id, month) do update set executions = u.executions
    where u.executions < ${sql.placeholder('runLimit')}::integer
  returning executions`;
