import path from 'node:path';
import { SECRET_CONFIG_KEYS, usableLinkConfig } from '@crewline/contracts';
import { createSecretMasker, type SecretMasker } from '../../../platform/crypto';
import type { Config } from '../../../platform/env';
import type { Egress, ReservedDestinations } from '../../../platform/egress';
import {
  LlmCallError,
  type LlmConnection,
  type LlmGateway,
  type LlmProvider,
  type LlmTool,
} from '../../../platform/llm';
import type { McpOauth } from '../mcp-oauth.service';
import type { ResolvedTool } from '../tools.service';
import { createAiTool } from './ai-tool';
import { createDatabaseTool } from './database-tool';
import { createEmailTool, emailConnection } from './email-tool';
import { createFileTool } from './file-tool';
import { createCustomTool, createHttpTool, httpAnswer } from './http-tool';
import { createMcpModelTools, mcpModelToolName, type McpToolLister } from './mcp-tools';
import { createPineconeTool, pineconeSettings, type PineconeSettings } from './pinecone-tool';
import { approvalRule } from './tool-writes';
import { createVectorStoreTool, type KnowledgeSearch } from './vector-store-tool';

type Json = Record<string, unknown>;

/** Tools whose answer is an HTTP status and body (http-tool.ts). */
const HTTP_CATEGORIES = new Set<string>(['api', 'web', 'custom']);

export type ToolRuntimeDeps = {
  config: Config;
  egress: Egress<'tool'>;
  /** The product's own ports and database, which database tools may never reach (see app.ts). */
  reserved?: ReservedDestinations;
  llm: LlmGateway;
  connectionFor(organizationId: string, provider: LlmProvider): Promise<LlmConnection>;
  /**
   * Lists an MCP connection's server and keeps the list (tools.service): when a run finds it stale
   * or never listed. Without it, the stored list is all a run uses.
   */
  mcpTools?: McpToolLister;
  /** OAuth MCP connections' stored sign-ins (mcp-oauth.service.ts). */
  mcpOauth?: Pick<McpOauth, 'providerFor'>;
  /** The organization's active SendGrid configuration (decrypted), if any. */
  sendgridSettings(organizationId: string): Promise<Json | undefined>;
  /** Searches one of the organization's knowledge bases (modules/knowledge), for vector store tools. */
  knowledgeSearch?(
    organizationId: string,
    ...search: Parameters<KnowledgeSearch>
  ): ReturnType<KnowledgeSearch>;
};

/** Model tool names must match [a-zA-Z0-9_-]{1,64}; the id suffix keeps two tools of one name apart. */
export function modelToolName(tool: { name: string; id: string }): string {
  const slug =
    tool.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'tool';
  return `${slug}_${tool.id.replace(/-/g, '').slice(0, 8)}`;
}

/** `name`, or `name_2`, `name_3`… when an agent's tools already use it (cut to the providers' 64). */
function uniqueName(name: string, taken: Set<string>): string {
  let unique = name;
  for (let n = 2; taken.has(unique); n++) unique = `${name.slice(0, 64 - `_${n}`.length)}_${n}`;
  taken.add(unique);
  return unique;
}

/** A tool's credentials among its settings (the fields stored encrypted, docs/security.md). */
function credentialsIn(settings: Json): unknown[] {
  return SECRET_CONFIG_KEYS.map((key) => settings[key]);
}

/**
 * What a tool returns and the messages it throws go to the model and into the run's records, and an
 * endpoint may echo the request (headers included): its credentials are masked on the way out.
 */
function withMaskedOutput(tool: LlmTool, masker: SecretMasker): LlmTool {
  return {
    ...tool,
    async execute(args, options) {
      let result: unknown;
      try {
        result = await tool.execute(args, options);
      } catch (error) {
        throw maskedError(error, masker);
      }
      return masker.json(result);
    },
  };
}

/** The model sees only the message; a new error, since the original's stack and cause may quote it too. */
function maskedError(error: unknown, masker: SecretMasker): Error {
  const message = error instanceof Error ? error.message : String(error);
  const masked = masker.text(message);
  if (error instanceof Error && masked === message) return error;
  const safe = new Error(masked);
  if (error instanceof Error) safe.name = error.name;
  return safe;
}

/**
 * Turns an agent's enabled tools into model tools that the server executes (docs/security.md): all HTTP
 * goes through the egress module, SQL runs read-only, files stay in the organization's own folder.
 */
export function createToolRuntime(deps: ToolRuntimeDeps) {
  const mcp = createMcpModelTools({ egress: deps.egress, lister: deps.mcpTools, oauth: deps.mcpOauth });

  /**
   * A Pinecone tool's query, embedded with the organization's connection of the tool's embedding
   * provider at the tool's dimensions (text-embedding-3-* shorten their vectors to it).
   */
  async function embedQuery(
    organizationId: string,
    query: string,
    settings: PineconeSettings,
    masker: SecretMasker,
    signal?: AbortSignal,
  ): Promise<number[]> {
    const connection = await deps.connectionFor(organizationId, settings.embeddingProvider);
    masker.add(connection.apiKey);
    let vector: number[] | undefined;
    try {
      [vector] = (
        await deps.llm.embed({
          connection,
          model: settings.embeddingModel,
          texts: [query],
          dimensions: settings.dimensions,
          signal,
          meter: { organizationId, source: 'knowledge' },
        })
      ).embeddings;
    } catch (error) {
      if (error instanceof LlmCallError)
        throw new Error(`The embedding model failed: ${error.message}`, { cause: error });
      throw error;
    }
    if (!vector) throw new Error('The embedding model answered no vector.');
    if (vector.length !== settings.dimensions) {
      throw new Error(
        `The embedding model "${settings.embeddingModel}" answered vectors of ${vector.length} dimensions; this tool is set to ${settings.dimensions}.`,
      );
    }
    return vector;
  }

  async function build(
    organizationId: string,
    tool: ResolvedTool,
    masker: SecretMasker,
  ): Promise<LlmTool | undefined> {
    // A link narrows its tool (parameters); its destination, headers and credentials stay the tool's,
    // also for a link stored before links were checked (docs/security.md, Credentials).
    const settings: Json = { ...tool.settings, ...usableLinkConfig(tool.linkConfig) };
    masker.add(...credentialsIn(settings));
    const describe = (tool.description ?? '').trim();
    const withDescription = (built: LlmTool): LlmTool =>
      describe ? { ...built, description: `${tool.name}: ${describe}. ${built.description}` } : built;
    switch (tool.category) {
      case 'api':
      case 'web':
        return withDescription(createHttpTool(settings, deps.egress));
      case 'custom':
        return createCustomTool(settings, describe, deps.egress);
      case 'database':
        return withDescription(
          createDatabaseTool({
            connectionString: String(settings.connectionString ?? ''),
            schema: typeof settings.schema === 'string' && settings.schema ? settings.schema : undefined,
            allowList: deps.config.egressAllowList,
            reserved: deps.reserved,
          }),
        );
      case 'file':
        return withDescription(
          createFileTool({ rootDir: path.join(deps.config.dataDir, 'files', organizationId) }),
        );
      case 'communication': {
        const sendgrid = emailConnection(settings, await deps.sendgridSettings(organizationId));
        masker.add(...credentialsIn(sendgrid));
        return withDescription(createEmailTool(sendgrid, deps.egress));
      }
      case 'ai':
        return withDescription(
          createAiTool(settings, {
            llm: deps.llm,
            organizationId,
            connectionFor: async (provider) => {
              const connection = await deps.connectionFor(organizationId, provider);
              masker.add(connection.apiKey);
              return connection;
            },
          }),
        );
      case 'vector_store': {
        // A Pinecone index (an index name and key, no knowledge base), else the organization's own store.
        const pinecone = pineconeSettings(settings);
        if (pinecone) {
          return withDescription(
            createPineconeTool(pinecone, tool, {
              egress: deps.egress,
              controllerUrl: deps.config.pineconeApiUrl,
              embed: (query, chosen, signal) => embedQuery(organizationId, query, chosen, masker, signal),
            }),
          );
        }
        const search = deps.knowledgeSearch;
        if (!search) return undefined;
        return createVectorStoreTool(settings, tool, (...args) => search(organizationId, ...args));
      }
      case 'mcp':
        // One connection is many tools: modelTools and call expand it (mcp-tools.ts).
        return undefined;
    }
  }

  return {
    /**
     * The agent's tools as the model is offered them. In a run (`approvals`), a call its link's policy
     * (or the run's being untrusted) says writes waits for a person's approval (tool-writes.ts).
     */
    async modelTools(
      organizationId: string,
      tools: ResolvedTool[],
      approvals?: { untrusted: boolean },
    ): Promise<Record<string, LlmTool>> {
      const entries: [string, LlmTool][] = [];
      for (const tool of tools) {
        const masker = createSecretMasker();
        if (tool.category === 'mcp') {
          masker.add(...credentialsIn(tool.settings));
          // Each of the server's tools the link enables, asking first by the server's read-only hint.
          const taken = new Set(entries.map(([name]) => name));
          for (const { info, tool: built } of await mcp.modelTools(tool)) {
            const needsApproval =
              approvals &&
              approvalRule(tool.category, tool.approval ?? 'never', approvals.untrusted, {
                readOnly: info.readOnly,
              });
            entries.push([
              uniqueName(mcpModelToolName(tool.name, info.name), taken),
              {
                ...withMaskedOutput(built, masker),
                label: `${tool.name} · ${info.name}`,
                ...(needsApproval ? { needsApproval } : {}),
              },
            ]);
          }
          continue;
        }
        const built = await build(organizationId, tool, masker);
        // A vector store is offered as `search_<name>`: what it does, in its name.
        const name = tool.category === 'vector_store' ? `search_${modelToolName(tool)}` : modelToolName(tool);
        if (!built) continue;
        const needsApproval =
          approvals && approvalRule(tool.category, tool.approval ?? 'never', approvals.untrusted);
        entries.push([
          name,
          {
            ...withMaskedOutput(built, masker),
            label: tool.name,
            ...(needsApproval ? { needsApproval } : {}),
          },
        ]);
      }
      return Object.fromEntries(entries);
    },

    /**
     * One of the organization's tools called directly, with no model (a workflow's Tool step): built
     * as for an agent (the same egress, credentials and masking), its arguments checked against its
     * input schema first. An HTTP tool answers its body, and an error status fails the call. Whatever
     * it throws is an Error with a masked message, written for the run's error box.
     */
    async call(
      organizationId: string,
      tool: ResolvedTool,
      args: Record<string, unknown>,
      /** `mcpTool`: with an MCP connection, the server's tool to call (the Tool step's `data.mcpTool`). */
      options: { signal?: AbortSignal; mcpTool?: string } = {},
    ): Promise<unknown> {
      if (!tool.isActive)
        throw new Error(
          `the tool "${tool.name}" is inactive: turn it on under Tools, or choose another tool`,
        );
      const masker = createSecretMasker();
      let built: LlmTool | undefined;
      if (tool.category === 'mcp') {
        masker.add(...credentialsIn(tool.settings));
        built = (await mcp.stepTool(tool, options.mcpTool, options.signal)).tool;
      } else built = await build(organizationId, tool, masker);
      if (!built) throw new Error(`the tool "${tool.name}" cannot be called in a run`);
      const { argumentsProblem } = await import('./tool-arguments');
      const problem = argumentsProblem(built.inputSchema, args);
      if (problem) throw new Error(masker.text(problem));
      const result = await withMaskedOutput(built, masker).execute(args, options);
      return HTTP_CATEGORIES.has(tool.category) ? httpAnswer(result) : result;
    },
  };
}
export type ToolRuntime = ReturnType<typeof createToolRuntime>;
