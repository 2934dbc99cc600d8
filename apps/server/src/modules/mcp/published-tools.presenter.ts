import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { workflowPublishing, workflows, type Db } from '@crewline/db';
import { MCP_DEFAULT_TIMEOUT_SECONDS } from '@crewline/contracts';

/** A workflow published on its organization's MCP server, with what a client is offered. */
export type PublishedTool = {
  workflowId: string;
  workflowName: string;
  toolName: string;
  description: string;
  inputSchema: Record<string, unknown>;
  timeoutSeconds: number;
  /** Offered to clients only while the workflow is active. */
  active: boolean;
};

/**
 * The organization's published (enabled) tools with their workflows' names and states, by tool
 * name: a read model over the publishing rows and the workflows (a presenter, so it may read both),
 * for the MCP server's per-request tool list and GET /api/mcp-server.
 */
export function createPublishedToolsPresenter(db: Db) {
  return {
    async list(organizationId: string): Promise<PublishedTool[]> {
      const rows = await db
        .select({
          workflowId: workflowPublishing.workflowId,
          workflowName: workflows.name,
          status: workflows.status,
          toolName: workflowPublishing.mcpToolName,
          description: workflowPublishing.mcpDescription,
          inputSchema: workflowPublishing.mcpInputSchema,
          timeoutSeconds: workflowPublishing.mcpTimeoutSeconds,
        })
        .from(workflowPublishing)
        .innerJoin(workflows, eq(workflows.id, workflowPublishing.workflowId))
        .where(
          and(
            eq(workflowPublishing.organizationId, organizationId),
            eq(workflows.organizationId, organizationId),
            eq(workflowPublishing.mcpEnabled, true),
            isNotNull(workflowPublishing.mcpToolName),
          ),
        )
        .orderBy(asc(workflowPublishing.mcpToolName));
      return rows.map(({ status, ...row }) => ({
        ...row,
        toolName: row.toolName!,
        description: row.description ?? '',
        inputSchema: row.inputSchema ?? { type: 'object' },
        timeoutSeconds: row.timeoutSeconds ?? MCP_DEFAULT_TIMEOUT_SECONDS,
        active: status === 'active',
      }));
    },
  };
}
export type PublishedToolsPresenter = ReturnType<typeof createPublishedToolsPresenter>;
