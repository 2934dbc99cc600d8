import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  getTableName,
  isNull,
  or,
  sql,
  type SQL,
  type Table,
} from 'drizzle-orm';
import { agentTemplates, workflowTemplates, type Db } from '@crewline/db';
import type { AgentTemplate, TemplateSort, TriggerConfig, WorkflowTemplate } from '@crewline/contracts';
import type { SampleAgentTemplate, SampleWorkflowTemplate } from './sample-templates';

/** The transaction of a template copy, as the agents', workflows' and billing's writes take it. */
export type TemplateCopyTx = Pick<Db, 'select' | 'update' | 'transaction'>;

type WorkflowTemplateRow = typeof workflowTemplates.$inferSelect;
type AgentTemplateRow = typeof agentTemplates.$inferSelect;
export type NewWorkflowTemplate = Omit<
  typeof workflowTemplates.$inferInsert,
  'id' | 'slug' | 'usageCount' | 'createdAt' | 'updatedAt'
>;
export type NewAgentTemplate = Omit<
  typeof agentTemplates.$inferInsert,
  'id' | 'slug' | 'usageCount' | 'createdAt' | 'updatedAt'
>;

function toWorkflowTemplate(row: WorkflowTemplateRow): WorkflowTemplate {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    tags: row.tags ?? [],
    processType: row.processType,
    triggerType: row.triggerType,
    triggerConfig: row.triggerConfig as TriggerConfig,
    nodes: row.nodes,
    edges: row.edges,
    agents: row.agents,
    usageCount: row.usageCount,
    isPublic: row.isPublic,
    isOwn: row.organizationId !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

function toAgentTemplate(row: AgentTemplateRow): AgentTemplate {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    role: row.role,
    goal: row.goal,
    backstory: row.backstory,
    llmProvider: row.llmProvider,
    llmModel: row.llmModel,
    temperature: row.temperature,
    maxTokens: row.maxTokens,
    systemPrompt: row.systemPrompt,
    tools: row.tools ?? [],
    category: row.category,
    tags: row.tags ?? [],
    usageCount: row.usageCount,
    isPublic: row.isPublic,
    isOwn: row.organizationId !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The `DO UPDATE` of an upsert taking these columns from the row that was refused (`excluded`), only
 * where one of them differs: a row that already holds the same values is left as it is (no new row
 * version, no WAL), so seeding an unchanged library at every start writes nothing.
 */
function fromExcluded(table: Table, keys: string[]): { set: Record<string, SQL>; setWhere: SQL } {
  const columns = getTableColumns(table);
  const names = keys.map((key) => `"${columns[key].name}"`);
  const current = names.map((name) => `"${getTableName(table)}".${name}`).join(', ');
  const refused = names.map((name) => `excluded.${name}`).join(', ');
  return {
    set: Object.fromEntries(names.map((name, i) => [keys[i], sql.raw(`excluded.${name}`)])),
    setWhere: sql.raw(`(${current}) is distinct from (${refused})`),
  };
}

/**
 * The shipped library (no organization) and each organization's own templates. Every read is
 * scoped: an organization sees the library and its own, never another's.
 */
export function createTemplatesRepository(db: Db) {
  const visibleWorkflows = (organizationId: string) =>
    or(isNull(workflowTemplates.organizationId), eq(workflowTemplates.organizationId, organizationId));
  const visibleAgents = (organizationId: string) =>
    or(isNull(agentTemplates.organizationId), eq(agentTemplates.organizationId, organizationId));

  // Every card shows the same fixed rating, so 'Highest Rated' keeps the library's alphabetical order.
  const orderOf = (table: typeof workflowTemplates | typeof agentTemplates): Record<TemplateSort, SQL[]> => {
    const byName = asc(sql`lower(${table.name})`);
    return {
      rating: [byName],
      popular: [desc(table.usageCount), byName],
      recent: [desc(table.createdAt), byName],
    };
  };
  const workflowOrder = orderOf(workflowTemplates);
  const agentOrder = orderOf(agentTemplates);

  return {
    async list(organizationId: string, sort: TemplateSort) {
      const [workflows, agentRows] = await Promise.all([
        db
          .select()
          .from(workflowTemplates)
          .where(visibleWorkflows(organizationId))
          .orderBy(...workflowOrder[sort]),
        db
          .select()
          .from(agentTemplates)
          .where(visibleAgents(organizationId))
          .orderBy(...agentOrder[sort]),
      ]);
      return { workflows: workflows.map(toWorkflowTemplate), agents: agentRows.map(toAgentTemplate) };
    },

    /** The shipped workflow templates, for the signed-out landing page. */
    /**
     * Runs `work` in one transaction: a template copy's agents, workflow and use count commit
     * together or not at all.
     */
    transaction<T>(work: (tx: TemplateCopyTx) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    async library(): Promise<WorkflowTemplate[]> {
      const rows = await db
        .select()
        .from(workflowTemplates)
        .where(isNull(workflowTemplates.organizationId))
        .orderBy(...workflowOrder.popular);
      return rows.map(toWorkflowTemplate);
    },

    async workflowTemplate(organizationId: string, id: string): Promise<WorkflowTemplate | undefined> {
      const [row] = await db
        .select()
        .from(workflowTemplates)
        .where(and(eq(workflowTemplates.id, id), visibleWorkflows(organizationId)))
        .limit(1);
      return row && toWorkflowTemplate(row);
    },

    async agentTemplate(organizationId: string, id: string): Promise<AgentTemplate | undefined> {
      const [row] = await db
        .select()
        .from(agentTemplates)
        .where(and(eq(agentTemplates.id, id), visibleAgents(organizationId)))
        .limit(1);
      return row && toAgentTemplate(row);
    },

    async countUse(kind: 'workflow' | 'agent', id: string, q: Pick<Db, 'update'> = db): Promise<void> {
      const table = kind === 'workflow' ? workflowTemplates : agentTemplates;
      await q
        .update(table)
        .set({ usageCount: sql`${table.usageCount} + 1` })
        .where(eq(table.id, id));
    },

    async saveWorkflowTemplate(values: NewWorkflowTemplate): Promise<WorkflowTemplate> {
      const [row] = await db.insert(workflowTemplates).values(values).returning();
      return toWorkflowTemplate(row);
    },

    async saveAgentTemplate(values: NewAgentTemplate): Promise<AgentTemplate> {
      const [row] = await db.insert(agentTemplates).values(values).returning();
      return toAgentTemplate(row);
    },

    /**
     * Writes the shipped library by slug: a missing sample is added, an existing one takes the
     * shipped text (its id and usage count stay). Answers how many were added.
     */
    async upsertLibrary(samples: {
      workflows: SampleWorkflowTemplate[];
      agents: SampleAgentTemplate[];
    }): Promise<{ workflows: number; agents: number }> {
      const workflowValues = samples.workflows.map((t) => ({ ...t, isPublic: true, createdBy: 'crewline' }));
      const agentValues = samples.agents.map((t) => ({ ...t, isPublic: true, createdBy: 'crewline' }));
      const inserted = sql<boolean>`(xmax = 0)`;
      const [workflows, agentRows] = await Promise.all([
        workflowValues.length === 0
          ? []
          : db
              .insert(workflowTemplates)
              .values(workflowValues)
              .onConflictDoUpdate({
                target: workflowTemplates.slug,
                ...fromExcluded(workflowTemplates, [
                  'name',
                  'description',
                  'category',
                  'tags',
                  'processType',
                  'triggerType',
                  'triggerConfig',
                  'nodes',
                  'edges',
                  'agents',
                ]),
              })
              .returning({ inserted }),
        agentValues.length === 0
          ? []
          : db
              .insert(agentTemplates)
              .values(agentValues)
              .onConflictDoUpdate({
                target: agentTemplates.slug,
                ...fromExcluded(agentTemplates, [
                  'name',
                  'description',
                  'role',
                  'goal',
                  'backstory',
                  'llmProvider',
                  'llmModel',
                  'temperature',
                  'maxTokens',
                  'systemPrompt',
                  'category',
                  'tags',
                ]),
              })
              .returning({ inserted }),
      ]);
      return {
        workflows: workflows.filter((r) => r.inserted).length,
        agents: agentRows.filter((r) => r.inserted).length,
      };
    },
  };
}
export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
