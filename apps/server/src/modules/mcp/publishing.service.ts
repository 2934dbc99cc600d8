import {
  MCP_GET_RUN_TOOL,
  mcpMessages,
  type McpServerInfo,
  type UpdateWorkflowPublishing,
  type WorkflowPublishing,
} from '@crewline/contracts';
import { BadRequestError, ConflictError } from '../../platform/errors';
import type { WorkflowsService } from '../workflows/workflows.service';
import { mcpOf, type PublishingRepository } from './publishing.repository';
import type { PublishedToolsPresenter } from './published-tools.presenter';

/** The built-in tool's name is not a workflow's to take. */
const reservedToolName = `"${MCP_GET_RUN_TOOL}" is the name of the built-in tool that answers runs: choose another tool name.`;

/**
 * Where workflows are published (docs/product-rules.md, MCP: the organization's server): a workflow
 * of the organization, active to be enabled, under a tool name no other of its workflows holds, with
 * an input schema that compiles (the MCP server checks every call's arguments against it).
 */
export function createPublishingService(deps: {
  repository: PublishingRepository;
  presenter: PublishedToolsPresenter;
  /** The workflow's existence in the organization and its status (404 for another organization's). */
  workflows: Pick<WorkflowsService, 'get'>;
  /** The public URL the MCP endpoint is served under (`<publicUrl>/mcp`). */
  publicUrl: string;
}) {
  const { repository } = deps;

  /** The organization's workflow (the workflows service answers 404 for another organization's). */
  const workflowOf = (organizationId: string, workflowId: string) =>
    deps.workflows.get(organizationId, workflowId);

  return {
    async get(organizationId: string, workflowId: string): Promise<WorkflowPublishing> {
      await workflowOf(organizationId, workflowId);
      return { mcp: mcpOf(await repository.get(organizationId, workflowId)) };
    },

    async set(
      organizationId: string,
      workflowId: string,
      update: UpdateWorkflowPublishing,
    ): Promise<WorkflowPublishing> {
      const workflow = await workflowOf(organizationId, workflowId);
      const mcp = update.mcp ? { ...update.mcp, timeoutSeconds: update.mcp.timeoutSeconds! } : null;
      if (mcp) {
        if (mcp.enabled && workflow.status !== 'active') throw new BadRequestError(mcpMessages.notActive);
        if (mcp.toolName === MCP_GET_RUN_TOOL) {
          throw new BadRequestError(reservedToolName, [{ path: 'mcp.toolName', message: reservedToolName }]);
        }
        const problem = await inputSchemaProblem(mcp.inputSchema);
        if (problem) throw new BadRequestError(problem, [{ path: 'mcp.inputSchema', message: problem }]);
      }
      const row = await repository.setMcp(organizationId, workflowId, mcp);
      if (row === 'taken') throw new ConflictError(mcpMessages.toolNameTaken(mcp!.toolName));
      return { mcp: mcpOf(row) };
    },

    /** GET /api/mcp-server: the endpoint's URL and the published tools (offered while their workflow is active). */
    async server(organizationId: string): Promise<McpServerInfo> {
      const tools = await deps.presenter.list(organizationId);
      return {
        url: `${deps.publicUrl.replace(/\/+$/, '')}/mcp`,
        tools: tools.map(({ workflowId, workflowName, toolName, description, active }) => ({
          workflowId,
          workflowName,
          toolName,
          description,
          active,
        })),
      };
    },
  };
}
export type PublishingService = ReturnType<typeof createPublishingService>;

/** Why an input schema cannot be published, or null: it must compile as a JSON Schema (Ajv, as runs check it). */
async function inputSchemaProblem(schema: Record<string, unknown>): Promise<string | null> {
  // Loaded on first use: it loads Ajv (docs/architecture.md, Runtime).
  const { schemaValidator } = await import('../../platform/json-schema');
  try {
    schemaValidator(schema);
    return null;
  } catch (error) {
    return `The input schema is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}
