import { isIP } from 'node:net';
import { mcpToolListSchema, type McpToolList } from '@crewline/contracts';
import { createSecretMasker } from '../../platform/crypto';
import { createAddressPolicy, type Egress } from '../../platform/egress';
import type { McpOauth } from './mcp-oauth.service';
import { listMcpTools, McpClientError, type McpConnection } from './runtime/mcp-client';

/*
 * An MCP server connection (a tool of the `mcp` category, docs/product-rules.md, MCP): its URL rule,
 * and its server's tools as last listed, kept in `tools.mcp_tools` so that every process (the API's
 * listing, a run's model tools) reads the same list and none keeps one in memory.
 */

type Json = Record<string, unknown>;

/**
 * Whether the connection may use this URL: https always (the egress module still checks where it
 * goes); plain http only to a host the egress allow-list opens for tools, a private server the
 * administrator named, since anything else would cross the internet unencrypted with its credential.
 */
export function mcpUrlAllowed(url: string, allowList: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true; // the contracts' schema refuses it with its own message
  }
  if (parsed.protocol !== 'http:') return true;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(parsed.port || 80);
  const listed = createAddressPolicy('tool', allowList);
  if (!isIP(host)) return listed.isHostAllowed(host, port);
  // An address is on the list when the list is what lets it through.
  return listed.isAddressAllowed(host, port) && !createAddressPolicy('tool', []).isAddressAllowed(host, port);
}

/** An MCP connection's tool as the client needs it: who owns it, its name, its decrypted settings. */
type McpToolRow = { id: string; organizationId: string; name: string; settings: Json };

/** Whether the connection signs in with OAuth (`config.auth`), rather than a header or nothing. */
export const usesOauth = (settings: Json) => settings.auth === 'oauth';

/**
 * The connection's settings (the tool's config with its decrypted credential); an OAuth connection
 * gets its stored tokens through `oauth` (mcp-oauth.service.ts), and sends no header.
 */
export function mcpConnectionOf(tool: McpToolRow, oauth?: Pick<McpOauth, 'providerFor'>): McpConnection {
  const { settings } = tool;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const url = text(settings.url) ?? '';
  if (usesOauth(settings) && oauth) {
    const connection = { organizationId: tool.organizationId, toolId: tool.id, name: tool.name, url };
    return { url, timeoutSeconds: timeoutOf(settings), oauth: () => oauth.providerFor(connection) };
  }
  return {
    url,
    timeoutSeconds: timeoutOf(settings),
    headerName: text(settings.headerName),
    headerValue: text(settings.headerValue),
  };
}

const timeoutOf = (settings: Json) =>
  typeof settings.timeoutSeconds === 'number' ? settings.timeoutSeconds : undefined;

/** The list stored with the tool; null before the first listing. */
export function storedMcpTools(row: { mcpTools?: unknown }): McpToolList | null {
  const parsed = mcpToolListSchema.safeParse(row.mcpTools);
  return parsed.success ? parsed.data : null;
}

/** The connection's own tool names it allows (`config.enabledTools`), every one when absent. */
export function allowedByConnection(settings: Json): ((name: string) => boolean) | undefined {
  const enabled = settings.enabledTools;
  if (!Array.isArray(enabled)) return undefined;
  const names = new Set(enabled.filter((name): name is string => typeof name === 'string'));
  return (name) => names.has(name);
}

/**
 * Lists a connection's server and stores what it answered. A listing that fails is stored too, with
 * its reason in words a user reads and the tools of the last listing that worked.
 */
export function createMcpTools(deps: {
  egress: Egress;
  oauth?: Pick<McpOauth, 'providerFor'>;
  store(organizationId: string, toolId: string, list: McpToolList): Promise<void>;
  now?: () => Date;
}) {
  return {
    async list(tool: McpToolRow & { mcpTools?: unknown }, signal?: AbortSignal): Promise<McpToolList> {
      const connection = mcpConnectionOf(tool, deps.oauth);
      let list: McpToolList;
      try {
        const tools = await listMcpTools(connection, deps.egress, signal);
        list = { tools, listedAt: (deps.now?.() ?? new Date()).toISOString(), error: null };
      } catch (error) {
        if (!(error instanceof McpClientError)) throw error;
        const previous = storedMcpTools(tool);
        // A server may echo what it was sent: its words never carry the credential back.
        const masker = createSecretMasker();
        masker.add(connection.headerValue);
        list = {
          tools: previous?.tools ?? [],
          listedAt: previous?.listedAt ?? null,
          error: masker.text(error.message),
        };
      }
      await deps.store(tool.organizationId, tool.id, list);
      return list;
    },
  };
}
