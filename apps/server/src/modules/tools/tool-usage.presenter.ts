import { and, eq, sql } from 'drizzle-orm';
import { tools, type Db } from '@crewline/db';
import type { Usage } from '@crewline/contracts';

/**
 * What uses a tool, for its delete dialog: a presenter, reading the tool with the agents linked to it
 * (the agents module's table; agents imports tools, so no SQL of its can come here) in one statement,
 * and writing nothing (docs/architecture.md, Modules).
 */
export function createToolUsagePresenter(db: Db) {
  return {
    /**
     * The agents linked to the tool (enabled or not: deleting the tool removes every link), by name,
     * in one statement with the tool's own row; undefined when the organization has no such tool.
     */
    async usage(organizationId: string, id: string): Promise<Usage | undefined> {
      const [row] = await db
        .select({
          // Drizzle leaves columns in a select list unqualified, so the subquery names its tables itself.
          agents: sql<Usage['agents']>`coalesce((
            select json_agg(json_build_object('id', a.id, 'name', a.name) order by a.name, a.id)
            from agent_tools l join agents a on a.id = l.agent_id
            where l.tool_id = "tools"."id" and a.organization_id = "tools"."organization_id"), '[]'::json)`,
        })
        .from(tools)
        .where(and(eq(tools.organizationId, organizationId), eq(tools.id, id)))
        .limit(1);
      return row && { workflows: [], agents: row.agents };
    },
  };
}
export type ToolUsagePresenter = ReturnType<typeof createToolUsagePresenter>;
