import {
  movesToolDestination,
  SECRET_CONFIG_KEYS,
  usableLinkConfig,
  type AgentToolLink,
  type CreateToolInput,
  type ToolApprovalPolicy,
  type Tool,
  type UpdateToolInput,
  type Usage,
} from '@crewline/contracts';
import { ConflictError, NotFoundError } from '../../platform/errors';
import { maskFields, sealFields, unsealFields, type SecretBox } from '../../platform/crypto';
import { requireUuid } from '../../platform/ids';
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
}) {
  const { repository, box } = deps;

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

    async create(organizationId: string, userId: string, input: CreateToolInput): Promise<Tool> {
      const { config, credentials } = split(organizationId, input.config ?? {}, undefined);
      const row = await repository.create(organizationId, userId, {
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

    async update(organizationId: string, id: string, input: UpdateToolInput): Promise<Tool> {
      const existing = await requireTool(organizationId, id);
      const { config: configInput, ...fields } = input;
      // Credentials and destination are one unit (docs/security.md): a new destination gets only the
      // credentials sent with it, never the stored ones (a mask sent back then keeps nothing).
      const moved = movesToolDestination(existing, input);
      const changes = configInput
        ? split(organizationId, configInput, moved ? undefined : existing.credentials)
        : moved
          ? { credentials: {} }
          : {};
      const row = await repository.update(organizationId, existing.id, { ...fields, ...changes });
      if (!row) throw new NotFoundError(toolNotFound);
      return toDto(row);
    },

    /** What uses the tool, for its delete dialog: another organization's tool is not found. */
    async usage(organizationId: string, id: string): Promise<Usage> {
      const usage = await deps.presenter.usage(organizationId, requireUuid(id, toolNotFound));
      if (!usage) throw new NotFoundError(toolNotFound);
      return usage;
    },

    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await repository.remove(organizationId, requireUuid(id, toolNotFound))))
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
  };
}
export type ToolsService = ReturnType<typeof createToolsService>;
