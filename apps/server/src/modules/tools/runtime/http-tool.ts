import { z } from 'zod';
import type { Egress } from '../../../platform/egress';
import type { LlmTool } from '../../../platform/llm';

const MAX_BODY_CHARS = 20_000;

const httpArgs = z.object({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).default('GET'),
  path: z.string().max(2000).default(''),
  body: z.unknown().optional(),
});

/** What the model gets back from an HTTP call: the status and the (truncated) body, parsed when JSON. */
async function readResult(response: {
  status: number;
  headers: Record<string, string>;
  text(): Promise<string>;
}) {
  const text = await response.text();
  const truncated = text.length > MAX_BODY_CHARS;
  const clipped = truncated ? text.slice(0, MAX_BODY_CHARS) : text;
  let body: unknown = clipped;
  if (!truncated && (response.headers['content-type'] ?? '').includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON after all: hand over the text
    }
  }
  return { status: response.status, body, ...(truncated ? { truncated: true } : {}) };
}

/** An HTTP tool's answer as readResult gives it. */
type HttpResult = { status: number; body: unknown; truncated?: boolean };

const isHttpResult = (value: unknown): value is HttpResult =>
  typeof value === 'object' && value !== null && typeof (value as HttpResult).status === 'number';

/**
 * An HTTP tool's answer to a direct call (a workflow's Tool step): its body, which later steps read
 * as the step's data. An error status is the call's failure, with the start of what the API said; a
 * model reads the status itself and may try again, a Tool step has no one to do so.
 */
export function httpAnswer(result: unknown): unknown {
  if (!isHttpResult(result)) return result;
  if (result.status >= 400) {
    const said = typeof result.body === 'string' ? result.body : (JSON.stringify(result.body) ?? '');
    const flat = said.replace(/\s+/g, ' ').trim();
    const excerpt = flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
    throw new Error(`the API answered HTTP ${result.status}${excerpt ? `: ${excerpt}` : ''}`);
  }
  return result.body;
}

/** `api` and `web` tools: requests under the tool's base URL, authenticated with its API key. */
export function createHttpTool(
  settings: { baseUrl?: unknown; apiKey?: unknown; authHeader?: unknown },
  egress: Egress,
): LlmTool {
  const baseUrl = typeof settings.baseUrl === 'string' ? settings.baseUrl : '';
  return {
    description: `Sends an HTTP request to ${baseUrl || 'the configured API'} and returns the status and response body. Give the path relative to that base URL.`,
    inputSchema: {
      type: 'object',
      properties: {
        method: {
          type: 'string',
          enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
          description: 'HTTP method (default GET)',
        },
        path: {
          type: 'string',
          description: 'Path and query relative to the base URL, e.g. "search?q=crewline"',
        },
        body: { description: 'JSON body for POST, PUT and PATCH' },
      },
      required: ['path'],
    },
    async execute(raw, options) {
      if (!baseUrl) throw new Error('This tool has no base URL configured.');
      const args = httpArgs.parse(raw);
      const base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
      const url = new URL(args.path.replace(/^\/+/, ''), base);
      // The model may choose the path, never another host or a folder above the base URL.
      if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
        throw new Error(`The path must stay under ${base.toString()}`);
      }
      const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9, */*;q=0.5' };
      if (typeof settings.apiKey === 'string' && settings.apiKey) {
        const header =
          typeof settings.authHeader === 'string' && settings.authHeader
            ? settings.authHeader
            : 'authorization';
        headers[header.toLowerCase()] =
          header.toLowerCase() === 'authorization' ? `Bearer ${settings.apiKey}` : settings.apiKey;
      }
      let body: string | undefined;
      if (args.body !== undefined && args.method !== 'GET' && args.method !== 'DELETE') {
        body = typeof args.body === 'string' ? args.body : JSON.stringify(args.body);
        headers['content-type'] = typeof args.body === 'string' ? 'text/plain' : 'application/json';
      }
      return readResult(
        await egress.fetch(url, { method: args.method, headers, body, signal: options?.signal }),
      );
    },
  };
}

/** `custom` tools: the call's arguments are POSTed as JSON to the tool's URL. */
export function createCustomTool(
  settings: { url?: unknown; baseUrl?: unknown; apiKey?: unknown; inputSchema?: unknown },
  description: string,
  egress: Egress,
): LlmTool {
  const target =
    typeof settings.url === 'string'
      ? settings.url
      : typeof settings.baseUrl === 'string'
        ? settings.baseUrl
        : '';
  const schema =
    settings.inputSchema && typeof settings.inputSchema === 'object'
      ? (settings.inputSchema as LlmTool['inputSchema'])
      : {
          type: 'object' as const,
          properties: { input: { type: 'string' as const, description: 'What to send' } },
          additionalProperties: true,
        };
  return {
    description:
      description ||
      `Sends the arguments as JSON to ${target || 'the configured URL'} and returns its answer.`,
    inputSchema: schema,
    async execute(args, options) {
      if (!target) throw new Error('This tool has no URL configured.');
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json',
      };
      if (typeof settings.apiKey === 'string' && settings.apiKey)
        headers.authorization = `Bearer ${settings.apiKey}`;
      return readResult(
        await egress.fetch(target, {
          method: 'POST',
          headers,
          body: JSON.stringify(args ?? {}),
          signal: options?.signal,
        }),
      );
    },
  };
}
