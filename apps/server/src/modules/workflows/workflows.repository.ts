import { desc, eq } from 'drizzle-orm';
import { workflows, type Db } from '@crewline/db';
import type { Workflow } from '@crewline/contracts';

type WorkflowRow = typeof workflows.$inferSelect;

export function toWorkflowDto(row: WorkflowRow): Workflow {
  return {
    ...row,
    triggerConfig: row.triggerConfig ?? {},
    nodes: row.nodes ?? [],
    edges: row.edges ?? [],
    config: row.config ?? {},
    templateTags: row.templateTags ?? [],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  } as Workflow;
}

export function createWorkflowsRepository(db: Db) {
  return {
    async list(organizationId: string): Promise<Workflow[]> {
      const rows = await db
        .select()
        .from(workflows)
        .where(eq(workflows.organizationId, organizationId))
        .orderBy(desc(workflows.updatedAt));
      return rows.map(toWorkflowDto);
    },
  };
}
export type WorkflowsRepository = ReturnType<typeof createWorkflowsRepository>;
