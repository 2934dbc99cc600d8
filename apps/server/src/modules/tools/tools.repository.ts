import { and, desc, eq } from 'drizzle-orm';
import type { ToolApprovalPolicy } from '@crewline/contracts';
import { agentTools, tools, type Db } from '@crewline/db';
import { nothingToSet } from '../../platform/patch';
import type { EnabledToolRow } from './tools.columns';

export type ToolRow = typeof tools.$inferSelect;
type ToolWrite = Pick<
  typeof tools.$inferInsert,
  'name' | 'description' | 'category' | 'provider' | 'config' | 'credentials' | 'isActive'
>;
export type AgentToolRow = typeof agentTools.$inferSelect & {
  tool: Pick<ToolRow, 'name' | 'description' | 'category'>;
};

// Every query is scoped by organization: another organization's tool or agent does not exist here.
export function createToolsRepository(db: Db) {
  const scoped = (organizationId: string, id: string) =>
    and(eq(tools.organizationId, organizationId), eq(tools.id, id));
  const linkSelection = {
    id: agentTools.id,
    agentId: agentTools.agentId,
    toolId: agentTools.toolId,
    isEnabled: agentTools.isEnabled,
    config: agentTools.config,
    approval: agentTools.approval,
    createdAt: agentTools.createdAt,
    tool: { name: tools.name, description: tools.description, category: tools.category },
  };
  async function get(organizationId: string, id: string): Promise<ToolRow | undefined> {
    const [row] = await db.select().from(tools).where(scoped(organizationId, id)).limit(1);
    return row;
  }
  return {
    async list(organizationId: string): Promise<ToolRow[]> {
      return db
        .select()
        .from(tools)
        .where(eq(tools.organizationId, organizationId))
        .orderBy(desc(tools.createdAt));
    },
    get,
    async create(organizationId: string, createdBy: string, values: ToolWrite): Promise<ToolRow> {
      const [row] = await db
        .insert(tools)
        .values({ ...values, organizationId, createdBy })
        .returning();
      return row;
    },
    async update(
      organizationId: string,
      id: string,
      values: Partial<ToolWrite>,
    ): Promise<ToolRow | undefined> {
      if (nothingToSet(values)) return get(organizationId, id);
      const [row] = await db.update(tools).set(values).where(scoped(organizationId, id)).returning();
      return row;
    },
    /** Stores an MCP connection's tools as last listed (an `McpToolList`). */
    async setMcpTools(organizationId: string, id: string, list: Record<string, unknown>): Promise<void> {
      await db.update(tools).set({ mcpTools: list }).where(scoped(organizationId, id));
    },
    async remove(organizationId: string, id: string): Promise<boolean> {
      return (
        (await db.delete(tools).where(scoped(organizationId, id)).returning({ id: tools.id })).length > 0
      );
    },

    /** Links of an agent of this organization (the join on tools keeps them inside it). */
    async listLinks(organizationId: string, agentId: string): Promise<AgentToolRow[]> {
      return db
        .select(linkSelection)
        .from(agentTools)
        .innerJoin(tools, eq(tools.id, agentTools.toolId))
        .where(and(eq(agentTools.agentId, agentId), eq(tools.organizationId, organizationId)))
        .orderBy(agentTools.createdAt);
    },
    async getLink(
      organizationId: string,
      agentId: string,
      toolId: string,
    ): Promise<AgentToolRow | undefined> {
      const [row] = await db
        .select(linkSelection)
        .from(agentTools)
        .innerJoin(tools, eq(tools.id, agentTools.toolId))
        .where(
          and(
            eq(agentTools.agentId, agentId),
            eq(agentTools.toolId, toolId),
            eq(tools.organizationId, organizationId),
          ),
        )
        .limit(1);
      return row;
    },
    /** Inserts the link; undefined when it already exists. */
    async createLink(
      agentId: string,
      toolId: string,
      config: Record<string, unknown>,
      isEnabled: boolean,
      approval: ToolApprovalPolicy,
    ): Promise<boolean> {
      const rows = await db
        .insert(agentTools)
        .values({ agentId, toolId, config, isEnabled, approval })
        .onConflictDoNothing()
        .returning({ id: agentTools.id });
      return rows.length > 0;
    },
    async updateLink(
      agentId: string,
      toolId: string,
      values: { config?: Record<string, unknown>; isEnabled?: boolean; approval?: ToolApprovalPolicy },
    ) {
      if (nothingToSet(values)) return;
      await db
        .update(agentTools)
        .set(values)
        .where(and(eq(agentTools.agentId, agentId), eq(agentTools.toolId, toolId)));
    },
    async removeLink(agentId: string, toolId: string): Promise<void> {
      await db.delete(agentTools).where(and(eq(agentTools.agentId, agentId), eq(agentTools.toolId, toolId)));
    },
    /** The tools an agent may use in a run: linked, enabled, and active. */
    async enabledToolsOfAgent(organizationId: string, agentId: string): Promise<EnabledToolRow[]> {
      const rows = await db
        .select({ tool: tools, linkConfig: agentTools.config })
        .from(agentTools)
        .innerJoin(tools, eq(tools.id, agentTools.toolId))
        .where(
          and(
            eq(agentTools.agentId, agentId),
            eq(agentTools.isEnabled, true),
            eq(tools.isActive, true),
            eq(tools.organizationId, organizationId),
          ),
        )
        .orderBy(agentTools.createdAt);
      return rows.map((r) => ({ ...r.tool, linkConfig: r.linkConfig ?? {} }));
    },
  };
}
export type ToolsRepository = ReturnType<typeof createToolsRepository>;
