import { and, eq } from 'drizzle-orm';
import { workflowPublishing, type Db } from '@crewline/db';
import { MCP_DEFAULT_TIMEOUT_SECONDS, type McpPublishing } from '@crewline/contracts';
import { violatesUnique } from '../../platform/unique-violation';

/** The unique index that keeps a tool name to one workflow of an organization (migration 0042). */
const TOOL_NAME_UNIQUE = 'workflow_publishing_mcp_tool_name_unique';

/** Whether `error` is Postgres refusing a second workflow under the same tool name. */
const isToolNameTaken = (error: unknown): boolean => violatesUnique(error, TOOL_NAME_UNIQUE);

type PublishingRow = typeof workflowPublishing.$inferSelect;

/** A row's MCP publishing as the API answers it; null when the workflow is not published there. */
export function mcpOf(row: PublishingRow | undefined): McpPublishing | null {
  if (!row?.mcpToolName) return null;
  return {
    enabled: row.mcpEnabled,
    toolName: row.mcpToolName,
    description: row.mcpDescription ?? '',
    inputSchema: (row.mcpInputSchema ?? { type: 'object' }) as Record<string, unknown>,
    timeoutSeconds: row.mcpTimeoutSeconds ?? MCP_DEFAULT_TIMEOUT_SECONDS,
  };
}

/**
 * Where workflows are published (`workflow_publishing`, one row per workflow, for every surface):
 * the MCP columns now. The organization is part of every statement, so another one's workflow is
 * simply not found.
 */
export function createPublishingRepository(db: Db) {
  return {
    async get(organizationId: string, workflowId: string): Promise<PublishingRow | undefined> {
      const [row] = await db
        .select()
        .from(workflowPublishing)
        .where(
          and(
            eq(workflowPublishing.organizationId, organizationId),
            eq(workflowPublishing.workflowId, workflowId),
          ),
        );
      return row;
    },

    /**
     * Sets the workflow's MCP publishing (null clears it, the row stays for the other surfaces).
     * Answers 'taken' when another workflow of the organization holds the tool name.
     */
    async setMcp(
      organizationId: string,
      workflowId: string,
      mcp: McpPublishing | null,
    ): Promise<PublishingRow | 'taken'> {
      const values = {
        mcpEnabled: mcp?.enabled ?? false,
        mcpToolName: mcp?.toolName ?? null,
        mcpDescription: mcp?.description ?? null,
        mcpInputSchema: mcp?.inputSchema ?? null,
        mcpTimeoutSeconds: mcp?.timeoutSeconds ?? null,
        updatedAt: new Date(),
      };
      try {
        const [row] = await db
          .insert(workflowPublishing)
          .values({ workflowId, organizationId, ...values })
          .onConflictDoUpdate({
            target: workflowPublishing.workflowId,
            set: values,
            // The workflow's row is its organization's: another one's id never overwrites it.
            setWhere: eq(workflowPublishing.organizationId, organizationId),
          })
          .returning();
        return row;
      } catch (error) {
        if (isToolNameTaken(error)) return 'taken';
        throw error;
      }
    },
  };
}
export type PublishingRepository = ReturnType<typeof createPublishingRepository>;
