import { MCP_DEFAULT_TIMEOUT_SECONDS, MCP_MAX_RESULT_BYTES, type McpToolInfo } from '@crewline/contracts';
import type { CallToolResult, Client, OAuthClientProvider, Tool } from '@modelcontextprotocol/client';
import { createSecretMasker } from '../../../platform/crypto';
import { EgressError, egressFetch, type Egress } from '../../../platform/egress';

/*
 * The client side of an MCP server connection (docs/security.md, MCP servers): the official SDK's
 * Client over Streamable HTTP only (no stdio: no configuration may start a process here), every
 * request through the egress module for tools, within the connection's timeout and a size cap. A
 * client lives for one listing or one call: nothing is kept in this process's memory that another
 * process would need. The SDK is loaded on the first use (docs/architecture.md, Runtime).
 */

/** An MCP connection's settings as the tool keeps them (`headerValue` decrypted). */
export type McpConnection = {
  url: string;
  timeoutSeconds?: number;
  headerName?: string;
  headerValue?: string;
  /**
   * An OAuth connection's SDK provider (mcp-oauth.service.ts): its stored tokens, refreshed on a 401.
   * Throws McpReconnectError when an admin must sign in again.
   */
  oauth?: () => Promise<OAuthClientProvider>;
};

/** What a call answered, for the model or a Tool step. */
export type McpCallOutcome = {
  /** The text content joined, with `structuredContent` when the tool gave it. */
  result: unknown;
  /** The server said its tool list changed during the call, or did not know the tool. */
  listChanged: boolean;
};

/** A failure of an MCP connection, with a message written for the person reading the run or the tool. */
export class McpClientError extends Error {
  override readonly name = 'McpClientError';
  /** The server said its tool list changed during the call: its list is read again. */
  listChanged = false;
  constructor(
    message: string,
    /** The server does not (or no longer) offers the tool: its list is read again. */
    readonly unknownTool = false,
  ) {
    super(message);
  }
}

/** The stream of one request may carry the result plus the protocol's framing; the result itself is checked exactly. */
const STREAM_BYTES = 2 * MCP_MAX_RESULT_BYTES + 64 * 1024;
const MB = `${MCP_MAX_RESULT_BYTES / (1024 * 1024)} MB`;

const mcpTimeoutSeconds = (connection: Pick<McpConnection, 'timeoutSeconds'>) =>
  connection.timeoutSeconds && connection.timeoutSeconds > 0
    ? connection.timeoutSeconds
    : MCP_DEFAULT_TIMEOUT_SECONDS;

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** The egress module's error, the error itself or among its causes (the SDK may wrap it). */
function egressErrorIn(error: unknown): EgressError | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof EgressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A sign-in the connection needs (mcp-oauth.service.ts), however deep the SDK wrapped it. */
function reconnectErrorIn(error: unknown): Error | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof Error && current.name === 'McpReconnectError') return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A server's own words, without the SDK's "MCP error -32602:" prefix, cut to a readable length. */
function serverWords(message: string): string {
  const flat = message
    .replace(/^MCP error -?\d+:\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
}

const UNKNOWN_TOOL = /\b(?:unknown tool|tool\b.*\bnot found|not found.*\btool)\b/i;

/** Any failure of a listing or a call, as a sentence a user reads. */
function readable(error: unknown, connection: McpConnection, timedOut: boolean): McpClientError {
  const limit = mcpTimeoutSeconds(connection);
  const seconds = `${limit} second${limit === 1 ? '' : 's'}`;
  const host = hostOf(connection.url);
  const egress = egressErrorIn(error);
  if (timedOut || egress?.code === 'timeout')
    return new McpClientError(`The MCP server at ${host} did not answer within ${seconds}.`);
  if (error instanceof McpClientError) return error;
  const reconnect = reconnectErrorIn(error);
  if (reconnect) return new McpClientError(reconnect.message);
  if (egress) {
    if (egress.code === 'too_large')
      return new McpClientError(`The MCP server's answer is larger than the limit of ${MB}.`);
    if (egress.code === 'blocked_address')
      return new McpClientError(
        `Crewline may not connect to the MCP server at ${host}: ${egress.message}. An administrator can allow a private address in the egress allow-list.`,
      );
    return new McpClientError(`Could not reach the MCP server at ${host}: ${egress.message}.`);
  }
  const { name, code, status, message } = error as {
    name?: string;
    code?: unknown;
    status?: unknown;
    message?: string;
  };
  if (typeof status === 'number') {
    if ((status === 401 || status === 403) && connection.oauth)
      return new McpClientError(
        `The MCP server at ${host} refused the connection's sign-in (HTTP ${status}): an admin clicks Reconnect under Settings → Tools → MCP servers.`,
      );
    if (status === 401 || status === 403)
      return new McpClientError(
        `The MCP server at ${host} refused the connection's credential (HTTP ${status}): check its header name and value.`,
      );
    if (status === 404)
      return new McpClientError(`The MCP server at ${host} answered HTTP 404: check the connection's URL.`);
    return new McpClientError(`The MCP server at ${host} answered HTTP ${status}.`);
  }
  if (code === 'REQUEST_TIMEOUT')
    return new McpClientError(`The MCP server at ${host} did not answer within ${seconds}.`);
  if (code === 'CONNECTION_CLOSED')
    return new McpClientError(`The MCP server at ${host} closed the connection before answering.`);
  const words = serverWords(message ?? String(error));
  if (typeof code === 'number' || name === 'ProtocolError')
    return new McpClientError(`The MCP server answered an error: ${words}`, UNKNOWN_TOOL.test(words));
  return new McpClientError(`The MCP server at ${host} could not be used: ${words}`);
}

const sameEndpoint = (a: string, b: string) => {
  try {
    const [x, y] = [new URL(a), new URL(b)];
    return x.origin === y.origin && x.pathname === y.pathname;
  } catch {
    return false;
  }
};

/**
 * The transport's fetch for one piece of work. A client holds no stream open between requests: the
 * GET stream a server may push unrelated messages on is declined as a server without one would (405);
 * what a call's own answer carries (its result, a tool list that changed) still arrives. A server may
 * keep an answer's stream open after the result: `close` ends those streams (cancelled, not aborted,
 * so no socket errors out), and `signal` stops the requests still waiting at a timeout or a cancel.
 */
function openStreams(
  send: typeof fetch,
  signal: AbortSignal,
  failed: (error: EgressError) => void,
  endpoint: string,
) {
  const open = new Set<ReadableStreamDefaultReader<Uint8Array>>();
  const fetchFor = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // Only the endpoint's own GET stream: OAuth discovery reads its metadata documents with GETs.
    const target = url instanceof Request ? url.url : String(url);
    if ((init?.method ?? 'GET') === 'GET' && sameEndpoint(target, endpoint))
      return new Response(null, { status: 405 });
    const response = await send(url, { ...init, signal });
    if (!response.body) return response;
    const reader = response.body.getReader();
    open.add(reader);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // The SDK reports a broken stream only in words and waits for an answer that cannot come:
        // the egress module's reason (over the size cap, the deadline) ends the work instead.
        const next = await reader.read().catch((error: unknown) => {
          if (error instanceof EgressError) failed(error);
          throw error;
        });
        if (next.done) {
          open.delete(reader);
          controller.close();
        } else controller.enqueue(next.value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    fetch: fetchFor,
    close() {
      for (const reader of open) reader.cancel().catch(() => undefined);
      open.clear();
    },
  };
}

/**
 * Connects a client for one piece of work and closes it after. The connection's timeout bounds the
 * whole of it; a stream that breaks (over the size cap) ends it at once instead of at the timeout.
 */
async function withClient<T>(
  connection: McpConnection,
  egress: Egress,
  work: (client: Client, options: { signal: AbortSignal; timeout: number }) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const timeout = mcpTimeoutSeconds(connection) * 1000;
  const controller = new AbortController();
  let timedOut = false;
  let reported: unknown;
  const streams = openStreams(
    egressFetch(egress, { timeoutMs: timeout, maxResponseBytes: STREAM_BYTES }),
    controller.signal,
    (error) => {
      reported ??= error;
      stop(error);
    },
    connection.url,
  );
  /** Ends the work: open answers are closed first, so an abort only ever meets requests still waiting. */
  const stop = (reason: unknown) => {
    streams.close();
    controller.abort(reason);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop(new Error('timeout'));
  }, timeout);
  const forward = () => stop(signal?.reason);
  if (signal?.aborted) forward();
  else signal?.addEventListener('abort', forward, { once: true });

  const headers: Record<string, string> = {};
  if (connection.headerName && connection.headerValue)
    headers[connection.headerName] = connection.headerValue;
  let authProvider: OAuthClientProvider | undefined;
  try {
    authProvider = await connection.oauth?.();
  } catch (error) {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
    throw readable(error, connection, false);
  }
  const transport = new StreamableHTTPClientTransport(new URL(connection.url), {
    fetch: streams.fetch,
    ...(authProvider ? { authProvider } : {}),
    requestInit: { headers },
    // Our egress module follows redirects itself, checking each hop (and dropping credentials across origins).
    redirectPolicy: 'follow',
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
  const client = new Client({ name: 'Crewline', version: '1.0.0' }, { capabilities: {} });
  try {
    await client.connect(transport, { signal: controller.signal, timeout });
    return (await oauthMasker(authProvider)).json(
      await work(client, { signal: controller.signal, timeout }),
    ) as T;
  } catch (error) {
    if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : error;
    const failure = readable(reported ?? error, connection, timedOut);
    // A server may echo what it was sent: an OAuth connection's tokens never go further.
    const masked = (await oauthMasker(authProvider)).text(failure.message);
    if (masked === failure.message) throw failure;
    const safe = new McpClientError(masked, failure.unknownTool);
    safe.listChanged = failure.listChanged;
    throw safe;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
    streams.close();
    await client.close().catch(() => undefined);
  }
}

/** Masks an OAuth connection's tokens (as they are after the work: a refresh may have changed them). */
async function oauthMasker(provider: OAuthClientProvider | undefined) {
  const masker = createSecretMasker();
  const tokens = await provider?.tokens();
  masker.add(tokens?.access_token, tokens?.refresh_token);
  return masker;
}

/** One of the server's tools as the contracts describe it; hints missing mean what the protocol says. */
function toolInfo(tool: Tool): McpToolInfo {
  const hints = tool.annotations ?? {};
  const readOnly = hints.readOnlyHint === true;
  return {
    name: tool.name,
    title: tool.title ?? hints.title ?? null,
    description: tool.description ?? '',
    inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
    readOnly,
    // The protocol's default: a tool that may write may also destroy, unless it says otherwise.
    destructive: !readOnly && hints.destructiveHint !== false,
  };
}

/** The server's tools (`tools/list`, every page). */
export async function listMcpTools(
  connection: McpConnection,
  egress: Egress,
  signal?: AbortSignal,
): Promise<McpToolInfo[]> {
  return withClient(
    connection,
    egress,
    async (client, options) => {
      if (!client.getServerCapabilities()?.tools) return [];
      const { tools } = await client.listTools(undefined, options);
      return tools.map(toolInfo);
    },
    signal,
  );
}

/** What the model (or the step) gets of a result: its text, and its structured content when there is one. */
function answerOf(result: CallToolResult): unknown {
  const parts = (result.content ?? []).map((part) => {
    switch (part.type) {
      case 'text':
        return part.text;
      case 'resource':
        return 'text' in part.resource ? part.resource.text : `[resource ${part.resource.uri}]`;
      case 'resource_link':
        return `[resource ${part.uri}]`;
      default:
        return `[${part.type}${'mimeType' in part && part.mimeType ? ` ${String(part.mimeType)}` : ''}]`;
    }
  });
  const text = parts.join('\n');
  return result.structuredContent === undefined
    ? text
    : { text, structuredContent: result.structuredContent };
}

/**
 * Calls one of the server's tools. A result the tool marks as an error, and a protocol error, throw
 * an McpClientError the model reads as the tool's failure; so does a result over the size cap.
 */
export async function callMcpTool(
  connection: McpConnection,
  egress: Egress,
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<McpCallOutcome> {
  let listChanged = false;
  try {
    return await withClient(
      connection,
      egress,
      async (client, options) => {
        client.setNotificationHandler('notifications/tools/list_changed', () => {
          listChanged = true;
        });
        const result = (await client.callTool({ name, arguments: args }, options)) as CallToolResult;
        const size = Buffer.byteLength(JSON.stringify([result.content, result.structuredContent]));
        if (size > MCP_MAX_RESULT_BYTES)
          throw new McpClientError(`The MCP tool "${name}" answered more than the limit of ${MB}.`);
        const answer = answerOf(result);
        if (result.isError) {
          const said = serverWords(typeof answer === 'string' ? answer : JSON.stringify(answer));
          throw new McpClientError(
            `The MCP tool "${name}" failed${said ? `: ${said}` : ''}`,
            UNKNOWN_TOOL.test(said),
          );
        }
        return { result: answer, listChanged };
      },
      signal,
    );
  } catch (error) {
    if (error instanceof McpClientError) error.listChanged = listChanged;
    throw error;
  }
}

/** Whether a failed call says the server's list should be read again. */
export const listIsStale = (error: unknown) =>
  error instanceof McpClientError && (error.unknownTool || error.listChanged);
