import { and, desc, eq } from 'drizzle-orm';
import { agents, workflows, type Db } from '@crewline/db';
import type { Workflow } from '@crewline/contracts';
import { nothingToSet } from '../../platform/patch';

type WorkflowRow = typeof workflows.$inferSelect;
type WorkflowWrite = Partial<
  Omit<typeof workflows.$inferInsert, 'id' | 'organizationId' | 'createdBy' | 'createdAt'>
>;

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

// Every query is scoped by organization: another organization's workflow does not exist here.
export function createWorkflowsRepository(db: Db) {
  const scoped = (organizationId: string, id: string) =>
    and(eq(workflows.organizationId, organizationId), eq(workflows.id, id));
  async function get(organizationId: string, id: string): Promise<Workflow | undefined> {
    const [row] = await db.select().from(workflows).where(scoped(organizationId, id)).limit(1);
    return row && toWorkflowDto(row);
  }
  return {
    async list(organizationId: string): Promise<Workflow[]> {
      const rows = await db
        .select()
        .from(workflows)
        .where(eq(workflows.organizationId, organizationId))
        .orderBy(desc(workflows.updatedAt));
      return rows.map(toWorkflowDto);
    },
    get,
    async create(
      organizationId: string,
      createdBy: string,
      values: WorkflowWrite & { name: string },
    ): Promise<Workflow> {
      const [row] = await db
        .insert(workflows)
        .values({ ...values, organizationId, createdBy } as typeof workflows.$inferInsert)
        .returning();
      return toWorkflowDto(row);
    },
    async update(organizationId: string, id: string, values: WorkflowWrite): Promise<Workflow | undefined> {
      if (nothingToSet(values)) return get(organizationId, id);
      const [row] = await db.update(workflows).set(values).where(scoped(organizationId, id)).returning();
      return row && toWorkflowDto(row);
    },
    async remove(organizationId: string, id: string): Promise<boolean> {
      return (
        (await db.delete(workflows).where(scoped(organizationId, id)).returning({ id: workflows.id }))
          .length > 0
      );
    },
    /** Ids of the organization's agents, for the rule that agent nodes reference existing agents. */
    async agentIds(organizationId: string): Promise<Set<string>> {
      const rows = await db
        .select({ id: agents.id })
        .from(agents)
        .where(eq(agents.organizationId, organizationId));
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type WorkflowsRepository = ReturnType<typeof createWorkflowsRepository>;
