import { sql } from 'drizzle-orm';
import { organizationUsage } from '@crewline/db';

/*
 * SQL billing offers to other modules' statements: the billing module owns organization_usage, and a
 * run's start (modules/executions/run-start.repository.ts) takes its month's place with this fragment.
 */

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
