import { and, desc, eq } from 'drizzle-orm';
import type { ToolApprovalPolicy } from '@crewline/contracts';
import { agentTools, tools, type Db } from '@crewline/db';
import { nothingToSet } from '../../platform/patch';
import type { RequestActor } from '../../platform/request-actor';
import type { AuditRecorder } from '../audit/audit.service';
import type { EnabledToolRow } from './tools.columns';
import { changedToolFields, isAuditedTool, mcpSignInEvent, toolEvent } from './tool-audit';

export type ToolRow = typeof tools.$inferSelect;
type ToolWrite = Pick<
  typeof tools.$inferInsert,
  'name' | 'description' | 'category' | 'provider' | 'config' | 'credentials' | 'isActive'
>;
/** An update may also forget the connection's OAuth sign-in (both columns null), in the same statement. */
type ToolUpdate = Partial<ToolWrite> & { mcpOauth?: null; mcpOauthStatus?: null };
export type AgentToolRow = typeof agentTools.$inferSelect & {
  tool: Pick<ToolRow, 'name' | 'description' | 'category'>;
};

// Every query is scoped by organization: another organization's tool or agent does not exist here.
// Tools with credentials and MCP server connections record their changes in the audit log, in the
// transaction that makes them (tool-audit.ts says which).
export function createToolsRepository(db: Db, audit: AuditRecorder) {
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
    async create(organizationId: string, actor: RequestActor & { userId: string }, values: ToolWrite) {
      return db.transaction(async (tx): Promise<ToolRow> => {
        const [row] = await tx
          .insert(tools)
          .values({ ...values, organizationId, createdBy: actor.userId })
          .returning();
        if (isAuditedTool(row))
          await audit.record(
            tx,
            toolEvent(row, 'created', actor, {
              category: row.category,
              fields: changedToolFields(undefined, row),
            }),
          );
        return row;
      });
    },
    /** `before` is the tool as the caller read it: what changed is recorded against it. */
    async update(
      organizationId: string,
      id: string,
      values: ToolUpdate,
      audited: { actor: RequestActor; before: ToolRow },
    ): Promise<ToolRow | undefined> {
      if (nothingToSet(values)) return get(organizationId, id);
      return db.transaction(async (tx) => {
        const [row] = await tx.update(tools).set(values).where(scoped(organizationId, id)).returning();
        if (!row) return undefined;
        const { actor, before } = audited;
        const fields = changedToolFields(before, row);
        if (fields.length > 0 && (isAuditedTool(before) || isAuditedTool(row)))
          await audit.record(tx, toolEvent(row, 'updated', actor, { category: row.category, fields }));
        if (before.mcpOauth && !row.mcpOauth)
          await audit.record(tx, mcpSignInEvent(row, 'signed_out', actor));
        return row;
      });
    },
    /** Stores an MCP connection's tools as last listed (an `McpToolList`). */
    async setMcpTools(organizationId: string, id: string, list: Record<string, unknown>): Promise<void> {
      await db.update(tools).set({ mcpTools: list }).where(scoped(organizationId, id));
    },
    async remove(organizationId: string, id: string, actor: RequestActor): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx.delete(tools).where(scoped(organizationId, id)).returning();
        if (!row) return false;
        if (isAuditedTool(row))
          await audit.record(tx, toolEvent(row, 'deleted', actor, { category: row.category }));
        return true;
      });
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
