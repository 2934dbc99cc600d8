import { desc, eq, sql } from 'drizzle-orm';
import { users, workflowExecutions, workflows, type Db } from '@crewline/db';
import type { Execution } from '@crewline/contracts';

export function createExecutionsRepository(db: Db) {
  return {
    /** The organization's runs, newest first, with the names the list shows. */
    async list(organizationId: string, limit: number): Promise<Execution[]> {
      const rows = await db
        .select({
          execution: workflowExecutions,
          workflowName: workflows.name,
          processType: workflows.processType,
          triggeredByName: sql<
            string | null
          >`nullif(trim(concat_ws(' ', ${users.firstName}, ${users.lastName})), '')`,
          username: users.username,
        })
        .from(workflowExecutions)
        .leftJoin(workflows, eq(workflows.id, workflowExecutions.workflowId))
        .leftJoin(users, eq(users.id, workflowExecutions.triggeredBy))
        .where(eq(workflowExecutions.organizationId, organizationId))
        .orderBy(desc(workflowExecutions.createdAt))
        .limit(limit);
      return rows.map(({ execution: e, workflowName, processType, triggeredByName, username }) => ({
        id: e.id,
        workflowId: e.workflowId,
        workflowName,
        processType,
        status: e.status,
        input: e.input ?? {},
        dynamicInstructions: e.dynamicInstructions,
        output: e.output ?? {},
        metrics: e.metrics ?? {},
        logs: e.logs ?? [],
        error: e.error,
        triggeredBy: e.triggeredBy,
        triggeredByName: triggeredByName ?? username,
        startedAt: e.startedAt?.toISOString() ?? null,
        completedAt: e.completedAt?.toISOString() ?? null,
        createdAt: e.createdAt.toISOString(),
      }));
    },
  };
}
export type ExecutionsRepository = ReturnType<typeof createExecutionsRepository>;
