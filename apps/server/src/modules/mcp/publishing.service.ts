import {
  CHAT_DEFAULT_ACCENT,
  CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE,
  CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE,
  chatMessages,
  MCP_GET_RUN_TOOL,
  mcpMessages,
  type ChatPublishingInput,
  type McpServerInfo,
  type UpdateWorkflowPublishing,
  type WorkflowPublishing,
} from '@crewline/contracts';
import { BadRequestError, ConflictError } from '../../platform/errors';
import { hashPassword } from '../../platform/auth/passwords';
import type { WorkflowsService } from '../workflows/workflows.service';
import { chatOf, mcpOf, type PublishingRepository, type StoredChat } from './publishing.repository';
import type { RequestActor } from '../../platform/request-actor';
import type { PublishedToolsPresenter } from './published-tools.presenter';

/** The built-in tool's name is not a workflow's to take. */
const reservedToolName = `"${MCP_GET_RUN_TOOL}" is the name of the built-in tool that answers runs: choose another tool name.`;

/**
 * Where workflows are published (docs/product-rules.md, MCP: the organization's server; Chat apps): a
 * workflow of the organization, active to be enabled. On the MCP server under a tool name no other of
 * its workflows holds, with an input schema that compiles (the MCP server checks every call's
 * arguments against it); as a chat app under a slug no workflow of any organization holds.
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
  const base = deps.publicUrl.replace(/\/+$/, '');
  /** A chat app's hosted page. */
  const pageUrl = (slug: string) => `${base}/chat/${slug}`;
  const answer = (row: Awaited<ReturnType<PublishingRepository['get']>>): WorkflowPublishing => ({
    mcp: mcpOf(row),
    chat: chatOf(row, pageUrl),
  });

  /** The organization's workflow (the workflows service answers 404 for another organization's). */
  const workflowOf = (organizationId: string, workflowId: string) =>
    deps.workflows.get(organizationId, workflowId);

  return {
    async get(organizationId: string, workflowId: string): Promise<WorkflowPublishing> {
      await workflowOf(organizationId, workflowId);
      return answer(await repository.get(organizationId, workflowId));
    },

    async set(
      organizationId: string,
      workflowId: string,
      update: UpdateWorkflowPublishing,
      actor: RequestActor,
    ): Promise<WorkflowPublishing> {
      const workflow = await workflowOf(organizationId, workflowId);
      const change = { actor, workflowName: workflow.name };
      let row: Awaited<ReturnType<PublishingRepository['get']>>;
      if (update.chat !== undefined) {
        const stored = await repository.get(organizationId, workflowId);
        const chat = update.chat && (await storedChat(update.chat, stored?.chatPasswordHash ?? null));
        if (chat?.enabled && workflow.status !== 'active') throw new BadRequestError(chatMessages.notActive);
        const written = await repository.setChat(organizationId, workflowId, chat, change);
        if (written === 'taken') throw new ConflictError(chatMessages.slugTaken(chat!.slug));
        row = written;
      }
      if (update.mcp === undefined) return answer(row ?? (await repository.get(organizationId, workflowId)));
      const mcp = update.mcp ? { ...update.mcp, timeoutSeconds: update.mcp.timeoutSeconds! } : null;
      if (mcp) {
        if (mcp.enabled && workflow.status !== 'active') throw new BadRequestError(mcpMessages.notActive);
        if (mcp.toolName === MCP_GET_RUN_TOOL) {
          throw new BadRequestError(reservedToolName, [{ path: 'mcp.toolName', message: reservedToolName }]);
        }
        const problem = await inputSchemaProblem(mcp.inputSchema);
        if (problem) throw new BadRequestError(problem, [{ path: 'mcp.inputSchema', message: problem }]);
      }
      const written = await repository.setMcp(organizationId, workflowId, mcp, change);
      if (written === 'taken') throw new ConflictError(mcpMessages.toolNameTaken(mcp!.toolName));
      return answer(written);
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

/**
 * A chat app as it is stored: a `password` app needs a password, given now or kept from before (a new
 * one is hashed as users' passwords are); another access mode forgets it.
 */
async function storedChat(input: ChatPublishingInput, storedHash: string | null): Promise<StoredChat> {
  const { enabled, slug, access, password, ...rest } = input;
  let passwordHash: string | null | undefined = null;
  if (access === 'password') {
    if (password) passwordHash = await hashPassword(password);
    else if (storedHash) passwordHash = undefined;
    else
      throw new BadRequestError(chatMessages.passwordRequired, [
        { path: 'chat.password', message: chatMessages.passwordRequired },
      ]);
  }
  return {
    enabled,
    slug,
    access,
    passwordHash,
    settings: {
      name: rest.name,
      greeting: rest.greeting ?? '',
      suggestions: rest.suggestions ?? [],
      theme: { mode: rest.theme?.mode ?? 'auto', accent: rest.theme?.accent ?? CHAT_DEFAULT_ACCENT },
      allowedOrigins: rest.allowedOrigins ?? [],
      rateLimitPerMinute: rest.rateLimitPerMinute ?? CHAT_DEFAULT_RATE_LIMIT_PER_MINUTE,
      appRateLimitPerMinute: rest.appRateLimitPerMinute ?? CHAT_DEFAULT_APP_RATE_LIMIT_PER_MINUTE,
      monthlyCapUsd: rest.monthlyCapUsd ?? null,
    },
  };
}

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
