import {
  mcpLinkToolsSchema,
  mcpMessages,
  movesToolDestination,
  SECRET_CONFIG_KEYS,
  usableLinkConfig,
  withToolCredentials,
  type AgentToolLink,
  type CreateToolInput,
  type McpToolList,
  type ToolApprovalPolicy,
  type Tool,
  type ToolCategory,
  type UpdateToolInput,
  type Usage,
} from '@crewline/contracts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors';
import { maskFields, sealFields, unsealFields, type SecretBox } from '../../platform/crypto';
import type { Egress } from '../../platform/egress';
import { requireUuid } from '../../platform/ids';
import type { RequestActor, UserActor } from '../../platform/request-actor';
import { createMcpTools, mcpUrlAllowed, storedMcpTools, usesOauth } from './mcp-connections';
import type { McpOauth, McpOauthConnection } from './mcp-oauth.service';
import type { AgentToolRow, ToolRow, ToolsRepository } from './tools.repository';
import type { ToolUsagePresenter } from './tool-usage.presenter';
import type { EnabledToolRow } from './tools.columns';

/** What turns an agent's tools into the model's callable tools (agents' model calls are given one). */
export type { ToolRuntime } from './runtime/tool-runtime';

const secretKeys = [...SECRET_CONFIG_KEYS];
const toolNotFound = 'Tool not found';
const agentNotFound = 'Agent not found';

type Json = Record<string, unknown>;

/** A tool with its credentials decrypted, for the tool runtime only. */
export type ResolvedTool = ToolRow & { settings: Json; linkConfig: Json; approval?: ToolApprovalPolicy };

export function createToolsService(deps: {
  repository: ToolsRepository;
  box: SecretBox;
  /** What uses a tool (its delete dialog's read model). */
  presenter: ToolUsagePresenter;
  /** Whether the organization has this agent (modules/agents, which imports tools: app.ts hands it over). */
  agentExists(organizationId: string, agentId: string): Promise<boolean>;
  /**
   * What MCP server connections use: the egress for tools (their listings) and the egress allow-list
   * (the only hosts a plain http:// URL may name).
   */
  mcp: { egress: Egress; allowList: readonly string[]; oauth?: McpOauth };
}) {
  const { repository, box } = deps;
  const oauth = deps.mcp.oauth;
  const mcpTools = createMcpTools({
    egress: deps.mcp.egress,
    oauth,
    store: (organizationId, id, list) => repository.setMcpTools(organizationId, id, list),
  });

  const resolve = (organizationId: string, rows: EnabledToolRow[]): ResolvedTool[] =>
    rows.map((row) => ({
      ...row,
      settings: { ...row.config, ...unsealFields(row.credentials ?? {}, secretKeys, box, organizationId) },
    }));

  // Secrets never live in `config`: they are sealed into `credentials` and shown as masks.
  const toDto = (row: ToolRow): Tool => ({
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    provider: row.provider,
    config: { ...row.config, ...maskFields(row.credentials ?? {}, secretKeys, box, row.organizationId) },
    isActive: row.isActive,
    organizationId: row.organizationId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });

  const split = (organizationId: string, config: Json, previousCredentials: Json | null | undefined) => {
    const plain = Object.fromEntries(
      Object.entries(config).filter(([key]) => !secretKeys.includes(key as never)),
    );
    const secrets = Object.fromEntries(
      Object.entries(config).filter(([key]) => secretKeys.includes(key as never)),
    );
    return {
      config: plain,
      credentials: sealFields(secrets, secretKeys, previousCredentials ?? undefined, box, organizationId),
    };
  };

  // A link stored before links were checked may hold a key or a destination: never shown, never used.
  const toLinkDto = (row: AgentToolRow): AgentToolLink => ({
    ...row,
    config: usableLinkConfig(row.config ?? {}),
    createdAt: row.createdAt.toISOString(),
  });

  /** An MCP connection's URL: https, or http to a host the egress allow-list opens for tools. */
  function checkMcpUrl(category: ToolCategory, config: Json | undefined) {
    if (category !== 'mcp' || typeof config?.url !== 'string') return;
    if (!mcpUrlAllowed(config.url, deps.mcp.allowList))
      throw new BadRequestError(mcpMessages.plainHttp, [
        { path: 'config.url', message: mcpMessages.plainHttp },
      ]);
  }
  /** A link of an MCP connection names the server's tools the agent gets (`config.tools`). */
  function checkLinkConfig(category: ToolCategory, config: Json | undefined) {
    if (category !== 'mcp' || config?.tools === undefined) return;
    const parsed = mcpLinkToolsSchema.safeParse(config.tools);
    if (!parsed.success) {
      const message = 'List the MCP server tools this agent may use by their names';
      throw new BadRequestError(message, [{ path: 'config.tools', message }]);
    }
  }
  const notListed: McpToolList = { tools: [], listedAt: null, error: null };
  const oauthConnectionOf = (tool: ResolvedTool): McpOauthConnection => ({
    organizationId: tool.organizationId,
    toolId: tool.id,
    name: tool.name,
    url: typeof tool.settings.url === 'string' ? tool.settings.url : '',
  });
  /** An OAuth connection's state (read again after a listing, which may have found it refused); null for one that does not use OAuth. */
  const oauthStatus = async (tool: ResolvedTool, fresh = false) => {
    if (!usesOauth(tool.settings) || !oauth) return null;
    return fresh ? oauth.status(tool.organizationId, tool.id) : (tool.mcpOauthStatus ?? 'disconnected');
  };

  async function requireMcp(organizationId: string, id: string): Promise<ResolvedTool> {
    const tool = resolve(organizationId, [{ ...(await requireTool(organizationId, id)), linkConfig: {} }])[0];
    if (tool.category !== 'mcp') throw new BadRequestError(mcpMessages.notMcp);
    return tool;
  }

  async function requireTool(organizationId: string, id: string): Promise<ToolRow> {
    const tool = await repository.get(organizationId, requireUuid(id, toolNotFound));
    if (!tool) throw new NotFoundError(toolNotFound);
    return tool;
  }
  async function requireAgent(organizationId: string, agentId: string): Promise<string> {
    const id = requireUuid(agentId, agentNotFound);
    if (!(await deps.agentExists(organizationId, id))) throw new NotFoundError(agentNotFound);
    return id;
  }
  async function requireLink(organizationId: string, agentId: string, toolId: string) {
    const link = await repository.getLink(organizationId, agentId, toolId);
    if (!link) throw new NotFoundError('This tool is not connected to the agent');
    return link;
  }

  return {
    async list(organizationId: string): Promise<Tool[]> {
      return (await repository.list(organizationId)).map(toDto);
    },

    async create(organizationId: string, actor: UserActor, body: CreateToolInput): Promise<Tool> {
      // An MCP server's credential comes apart from its config and is kept (sealed) with it.
      const input = withToolCredentials(body);
      checkMcpUrl(input.category ?? 'web', input.config);
      const { config, credentials } = split(organizationId, input.config ?? {}, undefined);
      const row = await repository.create(organizationId, actor, {
        name: input.name,
        description: input.description ?? null,
        category: input.category ?? 'web',
        provider: input.provider ?? null,
        config,
        credentials,
        isActive: input.isActive ?? true,
      });
      return toDto(row);
    },

    async update(
      organizationId: string,
      id: string,
      body: UpdateToolInput,
      actor: RequestActor,
    ): Promise<Tool> {
      const existing = await requireTool(organizationId, id);
      // Credentials sent alone go with the stored config (a PUT's config replaces it whole).
      const input = withToolCredentials(
        body.credentials && !body.config ? { ...body, config: existing.config } : body,
      );
      checkMcpUrl(
        input.category ?? existing.category,
        input.config ?? (input.category ? existing.config : undefined),
      );
      const { config: configInput, ...fields } = input;
      // Credentials and destination are one unit (docs/security.md): a new destination gets only the
      // credentials sent with it, never the stored ones (a mask sent back then keeps nothing).
      const moved = movesToolDestination(existing, input);
      const changes = configInput
        ? split(organizationId, configInput, moved ? undefined : existing.credentials)
        : moved
          ? { credentials: {} }
          : {};
      // A sign-in is bound to its server like any credential: a new URL, or no more OAuth, forgets it
      // (in the same statement, so the audit log's sign-out goes with the change).
      const after = { ...existing, ...fields, ...changes };
      const forget = !!existing.mcpOauth && (moved || after.category !== 'mcp' || !usesOauth(after.config));
      const row = await repository.update(
        organizationId,
        existing.id,
        { ...fields, ...changes, ...(forget ? { mcpOauth: null, mcpOauthStatus: null } : {}) },
        { actor, before: existing },
      );
      if (!row) throw new NotFoundError(toolNotFound);
      return toDto(row);
    },

    /** What uses the tool, for its delete dialog: another organization's tool is not found. */
    async usage(organizationId: string, id: string): Promise<Usage> {
      const usage = await deps.presenter.usage(organizationId, requireUuid(id, toolNotFound));
      if (!usage) throw new NotFoundError(toolNotFound);
      return usage;
    },

    async remove(organizationId: string, id: string, actor: RequestActor): Promise<void> {
      if (!(await repository.remove(organizationId, requireUuid(id, toolNotFound), actor)))
        throw new NotFoundError(toolNotFound);
    },

    async listLinks(organizationId: string, agentId: string): Promise<AgentToolLink[]> {
      return (await repository.listLinks(organizationId, await requireAgent(organizationId, agentId))).map(
        toLinkDto,
      );
    },

    async connect(
      organizationId: string,
      agentId: string,
      toolId: string,
      config: Json,
      // New links ask before calls that write (docs/product-rules.md, People in the loop).
      approval: ToolApprovalPolicy = 'writes',
    ): Promise<AgentToolLink> {
      const agent = await requireAgent(organizationId, agentId);
      const tool = await requireTool(organizationId, toolId);
      checkLinkConfig(tool.category, config);
      const isEnabled = typeof config.isEnabled === 'boolean' ? config.isEnabled : true;
      if (!(await repository.createLink(agent, tool.id, config, isEnabled, approval))) {
        throw new ConflictError('This tool is already connected to the agent');
      }
      return toLinkDto(await requireLink(organizationId, agent, tool.id));
    },

    async updateLink(
      organizationId: string,
      agentId: string,
      toolId: string,
      body: { config?: Json; isEnabled?: boolean; approval?: ToolApprovalPolicy },
    ): Promise<AgentToolLink> {
      const agent = await requireAgent(organizationId, agentId);
      const link = await requireLink(organizationId, agent, requireUuid(toolId, toolNotFound));
      checkLinkConfig(link.tool.category, body.config);
      // The web app's switch sends isEnabled inside config; a top-level value wins.
      const fromConfig =
        typeof body.config?.isEnabled === 'boolean' ? (body.config.isEnabled as boolean) : undefined;
      await repository.updateLink(agent, link.toolId, {
        ...(body.config ? { config: body.config } : {}),
        ...((body.isEnabled ?? fromConfig) !== undefined ? { isEnabled: body.isEnabled ?? fromConfig } : {}),
        ...(body.approval ? { approval: body.approval } : {}),
      });
      return toLinkDto(await requireLink(organizationId, agent, link.toolId));
    },

    async disconnect(organizationId: string, agentId: string, toolId: string): Promise<void> {
      const agent = await requireAgent(organizationId, agentId);
      const link = await requireLink(organizationId, agent, requireUuid(toolId, toolNotFound));
      await repository.removeLink(agent, link.toolId);
    },

    /** The agent's enabled, active tools with decrypted settings, for a run. */
    async resolveForAgent(organizationId: string, agentId: string): Promise<ResolvedTool[]> {
      return resolve(organizationId, await repository.enabledToolsOfAgent(organizationId, agentId));
    },

    /** One of the organization's tools with decrypted settings (its Test action); 404 for another's. */
    async resolveOne(organizationId: string, id: string): Promise<ResolvedTool> {
      const row = await requireTool(organizationId, id);
      return resolve(organizationId, [{ ...row, linkConfig: {} }])[0];
    },

    /** Tools read with their agent (`enabledToolsJson`), with decrypted settings. */
    resolve,

    /**
     * An MCP connection's tools as last listed; listed now when they never were (an OAuth connection
     * once it is signed in). 400 for another category.
     */
    async mcpTools(organizationId: string, id: string): Promise<McpToolList> {
      const tool = await requireMcp(organizationId, id);
      const status = await oauthStatus(tool);
      const stored = storedMcpTools(tool);
      const list = stored ?? (status === 'disconnected' ? notListed : await mcpTools.list(tool));
      return { ...list, oauth: status };
    },

    /** Lists an MCP connection's server again and keeps what it answered. */
    async mcpRefresh(organizationId: string, id: string): Promise<McpToolList> {
      const tool = await requireMcp(organizationId, id);
      return { ...(await mcpTools.list(tool)), oauth: await oauthStatus(tool, true) };
    },

    /** An OAuth MCP connection, for its sign-in (mcp-oauth.routes.ts): 400 for one that is not. */
    async requireOauthConnection(organizationId: string, id: string): Promise<McpOauthConnection> {
      const tool = await requireMcp(organizationId, id);
      if (!usesOauth(tool.settings)) throw new BadRequestError(mcpMessages.notOauth);
      return oauthConnectionOf(tool);
    },

    /** The OAuth MCP connection a finished sign-in was for, if it still is one. */
    async findOauthConnection(organizationId: string, id: string): Promise<McpOauthConnection | undefined> {
      const row = await repository.get(organizationId, id);
      if (!row || row.category !== 'mcp' || !usesOauth(row.config)) return undefined;
      return oauthConnectionOf(resolve(organizationId, [{ ...row, linkConfig: {} }])[0]);
    },

    /** Lists a resolved MCP connection's server and keeps the list (a run's, on demand). */
    listMcpTools: mcpTools.list,
  };
}
export type ToolsService = ReturnType<typeof createToolsService>;
