import { mcpLinkToolsSchema, type McpToolInfo, type McpToolList } from '@crewline/contracts';
import type { Egress } from '../../../platform/egress';
import type { LlmTool } from '../../../platform/llm';
import { allowedByConnection, mcpConnectionOf, storedMcpTools } from '../mcp-connections';
import type { McpOauth } from '../mcp-oauth.service';
import type { ResolvedTool } from '../tools.service';
import { callMcpTool, listIsStale } from './mcp-client';

/*
 * An MCP server connection as model tools (docs/product-rules.md, MCP): one per server tool that the
 * connection allows and the agent's link enables, described and typed by the server's own list as
 * last stored. A call that finds the list stale (the server did not know the tool, or said during
 * the call that its list changed) lists it again and stores it for every process.
 */

/** Lists a connection's server and stores the answer (tools.service's `listMcpTools`). */
export type McpToolLister = {
  list(tool: ResolvedTool, signal?: AbortSignal): Promise<McpToolList>;
};

const MAX_NAME = 64;

/**
 * The model's name of a server's tool: `<connection>__<tool>`, within the providers' rule
 * ([a-zA-Z0-9_-]{1,64}); the server's own name is kept as it is where the rule allows.
 */
export function mcpModelToolName(connectionName: string, toolName: string): string {
  const connection =
    connectionName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 24) || 'mcp';
  const tool = toolName.replace(/[^a-zA-Z0-9_-]+/g, '_') || 'tool';
  return `${connection}__${tool}`.slice(0, MAX_NAME);
}

/** The link's choice of the server's tools (`config.tools`), every allowed one when it names none. */
function allowedByLink(linkConfig: Record<string, unknown>): ((name: string) => boolean) | undefined {
  const parsed = mcpLinkToolsSchema.safeParse(linkConfig.tools);
  if (!parsed.success) return undefined;
  const names = new Set(parsed.data);
  return (name) => names.has(name);
}

export type McpModelTool = { info: McpToolInfo; tool: LlmTool };

export function createMcpModelTools(deps: {
  egress: Egress;
  lister?: McpToolLister;
  /** OAuth connections' stored sign-ins (mcp-oauth.service.ts). */
  oauth?: Pick<McpOauth, 'providerFor'>;
}) {
  /** Lists the server again; a run goes on with what it had when that fails. */
  async function relist(tool: ResolvedTool) {
    try {
      await deps.lister?.list(tool);
    } catch {
      // The call's own answer (or failure) is what the model needs; the next listing tries again.
    }
  }

  /** The connection's stored list, listed now when it never was. */
  async function listOf(tool: ResolvedTool, signal?: AbortSignal): Promise<McpToolList> {
    const stored = storedMcpTools(tool);
    if (stored) return stored;
    if (!deps.lister) return { tools: [], listedAt: null, error: null };
    return deps.lister.list(tool, signal);
  }

  /** One server tool as a callable tool: the answer is its text (and structured content). */
  function callable(tool: ResolvedTool, info: McpToolInfo): LlmTool {
    const connection = mcpConnectionOf(tool, deps.oauth);
    return {
      description: info.description || info.title || `The tool ${info.name} of the MCP server ${tool.name}.`,
      inputSchema: info.inputSchema as LlmTool['inputSchema'],
      async execute(args, options) {
        const given = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
        try {
          const outcome = await callMcpTool(connection, deps.egress, info.name, given, options?.signal);
          if (outcome.listChanged) await relist(tool);
          return outcome.result;
        } catch (error) {
          if (listIsStale(error)) await relist(tool);
          throw error;
        }
      },
    };
  }

  return {
    /** The server tools an agent gets through its link, each with the server's description. */
    async modelTools(tool: ResolvedTool): Promise<McpModelTool[]> {
      const byConnection = allowedByConnection(tool.settings);
      const byLink = allowedByLink(tool.linkConfig);
      return (await listOf(tool)).tools
        .filter((info) => (byConnection?.(info.name) ?? true) && (byLink?.(info.name) ?? true))
        .map((info) => ({ info, tool: callable(tool, info) }));
    },

    /**
     * The server tool a Tool step names (`data.mcpTool`), if the connection offers and allows it;
     * a name the stored list lacks is looked up once more on the server, which may have added it.
     */
    async stepTool(
      tool: ResolvedTool,
      name: string | undefined,
      signal?: AbortSignal,
    ): Promise<McpModelTool> {
      if (!name) throw new Error(`choose which of the MCP server's tools the step calls`);
      const find = (list: McpToolList) => list.tools.find((candidate) => candidate.name === name);
      let list = await listOf(tool, signal);
      let info = find(list);
      if (!info && deps.lister && storedMcpTools(tool)) {
        list = await deps.lister.list(tool, signal);
        info = find(list);
      }
      if (!info) throw new Error(list.error ?? `the MCP server of "${tool.name}" has no tool "${name}"`);
      if (allowedByConnection(tool.settings)?.(name) === false)
        throw new Error(`the tool "${name}" is not enabled on the MCP connection "${tool.name}"`);
      return { info, tool: callable(tool, info) };
    },
  };
}
