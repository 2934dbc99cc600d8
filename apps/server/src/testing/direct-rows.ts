import { count, eq } from 'drizzle-orm';
import { workflowExecutions, workflows } from '@crewline/db';
import type { TestApp } from './test-app';

/*
 * Rows written straight into the tables, for the suites that need many rows (or rows the API would
 * not make) faster than the API makes them.
 */

/** An active, sequential workflow with no steps in the organization; returns its id. */
export async function insertWorkflow(t: TestApp, organizationId: string, name: string) {
  const [row] = await t.db
    .insert(workflows)
    .values({ name, organizationId, processType: 'sequential', status: 'active' })
    .returning({ id: workflows.id });
  return row.id;
}

/** How many runs of the workflow the table holds, whatever their status. */
export async function countRuns(t: TestApp, workflowId: string) {
  const [row] = await t.db
    .select({ n: count() })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.workflowId, workflowId));
  return row.n;
}
