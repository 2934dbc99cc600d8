import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { moderationCategoryValues } from '@crewline/contracts';
import {
  anthropicSchemaRefusal,
  sampleOf,
  strictSchemaRefusal,
  structuredRequest,
  type StructuredRequest,
} from './fake-structured-output';

/**
 * A fake LLM server speaking enough of the OpenAI Chat Completions, Embeddings, Moderations and Anthropic Messages
 * protocols for the real AI SDK providers to talk to it over HTTP, refusing what the real APIs refuse (a missing
 * required field, or key when asked to). Tests never reach the internet (docs/architecture.md, Agents,
 * tools and models).
 *
 * A request for structured output (OpenAI's `response_format` json_schema, Anthropic's
 * `output_config.format` or the AI SDK's JSON tool for older Claude models) is answered, unless a
 * reply is scripted, with JSON that follows the schema (fake-structured-output.ts: an enum takes the
 * value the prompt names); a strict schema OpenAI would refuse is refused the same way.
 */

export type FakeToolCall = { name: string; arguments: Record<string, unknown> };
/**
 * `delayMs` holds the whole answer back; `chunkDelayMs` paces a streamed answer, word by word, as a
 * model producing it would. `when`: the reply is for the first request whose last user message
 * contains this text (replies without it go to any request, in order), so concurrent steps can be
 * told apart.
 */
export type FakeReply = (
  | { content: string; delayMs?: number; chunkDelayMs?: number }
  | { toolCalls: FakeToolCall[]; content?: string; delayMs?: number; chunkDelayMs?: number }
  /**
   * A structured answer: this value as JSON (as the JSON tool's input when asked that way). A
   * `content` reply is sent as written, so an answer that does not follow the schema can be scripted.
   */
  | { data: unknown; delayMs?: number; chunkDelayMs?: number }
  /** A refusal, with the response headers given (`retry-after-ms: 0` lets a retrying client go on at once). */
  | { error: { status: number; message: string }; headers?: Record<string, string>; delayMs?: number }
  /** Answers with the text of the last tool result it was sent, as a model repeating a tool's output. */
  | { echoToolResult: true; delayMs?: number }
) & { when?: string };
type ResolvedReply =
  | { content: string; delayMs?: number; chunkDelayMs?: number }
  | { toolCalls: FakeToolCall[]; content?: string; delayMs?: number; chunkDelayMs?: number }
  | { error: { status: number; message: string }; headers?: Record<string, string>; delayMs?: number };
type Message = { role: string; content?: unknown };

export type RecordedRequest = {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or undefined when there was none. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary protocol fields
  /** The caller's address: which machine asked, in the several-machines suite (testing/netns). */
  from?: string;
};

export type FakeLlmServerOptions = {
  port?: number;
  /** The address to listen on; 127.0.0.1 unless a test on other machines (testing/netns) reaches it. */
  host?: string;
  /** When set, requests without a key get 401; a string also requires that exact key. */
  requireKey?: boolean | string;
  models?: string[];
};

export type FakeLlmServer = Awaited<ReturnType<typeof startFakeLlmServer>>;

type Failure = { status: number; body: unknown; headers: Record<string, string> };
type Protocol = 'openai' | 'anthropic';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** OpenAI sends tool results as `tool` messages, Anthropic as `tool_result` parts of user messages. */
const isToolResult = (m: Message) =>
  m.role === 'tool' ||
  (Array.isArray(m.content) && m.content.some((p: { type?: string }) => p?.type === 'tool_result'));

/** Text of a message in either protocol: a string, or an array of text/tool parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content);
  return content
    .map((part: { type?: string; text?: string; content?: unknown; input?: unknown }) => {
      if (typeof part?.text === 'string') return part.text;
      if (part?.type === 'tool_result') return textOf(part.content);
      if (part?.type === 'tool_use') return JSON.stringify(part.input);
      return '';
    })
    .join(' ');
}

/** OpenAI's default length for text-embedding-3-small. */
export const FAKE_EMBEDDING_DIMENSIONS = 1536;

/** Lower-cased words, a plural's trailing "s" dropped, so "Invoices" and "invoice" meet. */
function embeddingTokens(text: string) {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) =>
    word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
  );
}

/** FNV-1a, 32 bits: stable across runs and processes. */
function hash(text: string) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The fake's embedding of a text: a bag of words, each word hashed into one dimension with a sign,
 * L2-normalised. Deterministic, and texts sharing words come out close, so retrieval behaves as a
 * user expects (a text without any word gets the first axis).
 */
export function fakeEmbedding(text: string, dimensions = FAKE_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const token of embeddingTokens(text)) {
    const h = hash(token);
    vector[h % dimensions] += h & 0x80000000 ? -1 : 1;
  }
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((x) => x / norm);
}

/** OpenAI's moderation models. */
const MODERATION_MODELS = ['omni-moderation-latest', 'text-moderation-latest'];
/** The fake's moderation: a category scores 0.95 when the text has one of its words, else 0.01. */
const MODERATION_WORDS: Partial<Record<(typeof moderationCategoryValues)[number], RegExp>> = {
  violence: /\b(kill|murder|attack|stab)\b/i,
  harassment: /\b(idiot|moron|loser)\b/i,
  hate: /\b(subhuman|vermin)\b/i,
  'self-harm': /\bhurt myself\b/i,
  illicit: /\b(make a bomb|steal a car)\b/i,
};

/** What OpenAI refuses: no input, an input that is not text, a model that is not a moderation model. */
function invalidModerationRequest(body: unknown) {
  const fields = (body ?? {}) as Record<string, unknown>;
  if (fields.input == null) return "Missing required parameter: 'input'.";
  if (typeof fields.input !== 'string' && !Array.isArray(fields.input)) return "Invalid type for 'input'.";
  if (fields.model !== undefined && !MODERATION_MODELS.includes(String(fields.model)))
    return `The model \`${String(fields.model)}\` does not exist or you do not have access to it.`;
  return undefined;
}

function moderation(body: { model?: string; input: string | string[] }) {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  return {
    id: `modr-${hash(JSON.stringify(inputs))}`,
    model: body.model ?? MODERATION_MODELS[0],
    results: inputs.map((text) => {
      const scores = Object.fromEntries(
        moderationCategoryValues.map((c) => [c, MODERATION_WORDS[c]?.test(text) ? 0.95 : 0.01]),
      );
      return {
        flagged: Object.values(scores).some((score) => score >= 0.5),
        categories: Object.fromEntries(Object.entries(scores).map(([c, score]) => [c, score >= 0.5])),
        category_scores: scores,
      };
    }),
  };
}

export async function startFakeLlmServer(options: FakeLlmServerOptions = {}) {
  const requests: RecordedRequest[] = [];
  let replies: FakeReply[] = [];
  let failures: Failure[] = [];
  let models = options.models ?? ['gpt-4o', 'gpt-4o-mini'];
  let embeddingDimensionsOverride: number | null = null;
  let counter = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: 'server_error' } });
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      return sendJson(res, 400, { error: { message: 'Malformed JSON body', type: 'invalid_request_error' } });
    }
    const path = url.pathname.replace(/\/+$/, '');

    // The control API lets a test in another process (Playwright) drive a standalone server.
    if (path.startsWith('/__control/')) return control(path, body, res);

    const method = req.method ?? 'GET';
    requests.push({
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      from: req.socket.remoteAddress,
    });

    const protocol: Protocol = path === '/v1/messages' ? 'anthropic' : 'openai';
    if (options.requireKey && !keyAccepted(req.headers, protocol)) {
      return sendError(res, protocol, 401, 'Incorrect API key provided', {});
    }
    const failure = failures.shift();
    if (failure) {
      if (failure.body !== undefined) return sendJson(res, failure.status, failure.body, failure.headers);
      return sendError(res, protocol, failure.status, `Fake failure ${failure.status}`, failure.headers);
    }

    if (method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({
          id,
          object: 'model',
          type: 'model',
          created: 1_700_000_000,
          owned_by: 'fake',
        })),
        has_more: false,
      });
    }
    if (method === 'POST' && path === '/v1/embeddings') {
      const refusal = invalidEmbeddingRequest(body);
      if (refusal) return sendError(res, protocol, 400, refusal, {});
      return embeddings(res, body as EmbeddingBody);
    }
    if (method === 'POST' && path === '/v1/moderations') {
      const refusal = invalidModerationRequest(body);
      if (refusal) return sendError(res, protocol, 400, refusal, {});
      return sendJson(res, 200, moderation(body as { model?: string; input: string | string[] }));
    }
    if (method === 'POST' && (path === '/v1/chat/completions' || path === '/v1/messages')) {
      const refusal = invalidRequest(protocol, req.headers, body);
      if (refusal) return sendError(res, protocol, 400, refusal, {});
      const structured = structuredRequest(protocol, body);
      const schemaRefusal = structured && invalidSchema(structured);
      if (schemaRefusal) return sendError(res, protocol, 400, schemaRefusal, {}, 'response_format');
      if (protocol === 'anthropic') return anthropicMessage(res, body as AnthropicBody, structured);
      return chatCompletion(res, body as ChatBody, structured);
    }
    return sendError(res, protocol, 404, `No route for ${method} ${path}`, {});
  }

  /**
   * What the real APIs refuse with a 400 before generating anything, in their words: OpenAI needs
   * `model` and `messages`, Anthropic also `max_tokens` and the `anthropic-version` header.
   */
  function invalidRequest(protocol: Protocol, headers: IncomingHttpHeaders, body: unknown) {
    const fields = (body ?? {}) as Record<string, unknown>;
    if (protocol === 'anthropic' && !headers['anthropic-version']) {
      return 'anthropic-version: header is required';
    }
    const required = protocol === 'anthropic' ? ['model', 'max_tokens', 'messages'] : ['model', 'messages'];
    const missing = required.find((field) => fields[field] == null);
    if (missing) {
      return protocol === 'anthropic'
        ? `${missing}: Field required`
        : `Missing required parameter: '${missing}'.`;
    }
    if (!Array.isArray(fields.messages) || fields.messages.length === 0) {
      return protocol === 'anthropic'
        ? 'messages: at least one message is required'
        : "Invalid 'messages': empty array. Expected an array with minimum length 1.";
    }
    return undefined;
  }

  /** What the real service refuses of the schema it is asked to follow. */
  function invalidSchema(structured: StructuredRequest) {
    if (structured.via === 'response_format' && structured.schema && structured.strict)
      return strictSchemaRefusal(structured.schema, structured.name);
    if (structured.via === 'output_config') return anthropicSchemaRefusal(structured.schema);
    return undefined;
  }

  type EmbeddingBody = {
    model: string;
    input: string | string[];
    dimensions?: number;
    encoding_format?: 'float' | 'base64';
  };

  /** What OpenAI's embeddings endpoint refuses, in its words. */
  function invalidEmbeddingRequest(body: unknown) {
    const fields = (body ?? {}) as Record<string, unknown>;
    const missing = ['model', 'input'].find((field) => fields[field] == null);
    if (missing) return `Missing required parameter: '${missing}'.`;
    const input = fields.input;
    const texts = Array.isArray(input) ? input : [input];
    if (texts.length === 0 || texts.some((text) => typeof text !== 'string' || text === '')) {
      return "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";
    }
    const dimensions = fields.dimensions;
    if (dimensions != null && (!Number.isInteger(dimensions) || (dimensions as number) < 1)) {
      return `Invalid value for 'dimensions' = ${String(dimensions)}. Must be greater than 0.`;
    }
    const format = fields.encoding_format;
    if (format != null && format !== 'float' && format !== 'base64') {
      return "Invalid value for 'encoding_format': expected 'float' or 'base64'.";
    }
    return undefined;
  }

  function embeddings(res: ServerResponse, body: EmbeddingBody) {
    const texts = Array.isArray(body.input) ? body.input : [body.input];
    const dimensions = embeddingDimensionsOverride ?? body.dimensions ?? FAKE_EMBEDDING_DIMENSIONS;
    const tokens = texts.reduce((sum, text) => sum + Math.max(1, words(text)), 0);
    return sendJson(res, 200, {
      object: 'list',
      data: texts.map((text, index) => {
        const vector = fakeEmbedding(text, dimensions);
        return {
          object: 'embedding',
          index,
          // base64: the float32 little-endian bytes, as OpenAI sends them.
          embedding:
            body.encoding_format === 'base64'
              ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
              : vector,
        };
      }),
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  function keyAccepted(headers: IncomingHttpHeaders, protocol: Protocol) {
    const given =
      protocol === 'anthropic'
        ? (headers['x-api-key'] as string | undefined)
        : headers.authorization?.replace(/^Bearer\s+/i, '');
    if (!given) return false;
    return typeof options.requireKey === 'string' ? given === options.requireKey : true;
  }

  /** The first scripted reply meant for this request (see FakeReply's `when`). */
  function takeReply(lastUserText: string): FakeReply | undefined {
    const index = replies.findIndex((reply) => reply.when === undefined || lastUserText.includes(reply.when));
    return index < 0 ? undefined : replies.splice(index, 1)[0];
  }

  /**
   * The next scripted reply (a tool echo filled in, a structured one as the request asked for it),
   * or, if none, JSON following the request's schema, or an echo of the last user message.
   */
  function nextReply(
    lastUserText: string,
    messages: Message[],
    structured?: StructuredRequest,
  ): ResolvedReply {
    const reply = takeReply(lastUserText);
    if (!reply) {
      if (!structured) return { content: `Fake reply to: ${lastUserText}` };
      const data = structured.schema ? sampleOf(structured.schema, lastUserText) : { reply: lastUserText };
      return asStructured({ data }, structured);
    }
    if ('echoToolResult' in reply) {
      const toolResult = [...messages].reverse().find(isToolResult);
      return { content: textOf(toolResult?.content), delayMs: reply.delayMs };
    }
    if (
      'data' in reply ||
      (structured?.via === 'json_tool' && 'content' in reply && !('toolCalls' in reply))
    ) {
      return asStructured(reply, structured);
    }
    return reply;
  }

  /**
   * A structured answer as the request asked for it: the JSON tool's call for Anthropic's JSON tool
   * (a scripted text that is not JSON stays text), else the JSON as the answer's text.
   */
  function asStructured(
    reply: { data: unknown } | { content: string },
    structured: StructuredRequest | undefined,
  ): ResolvedReply {
    const { delayMs, chunkDelayMs } = reply as { delayMs?: number; chunkDelayMs?: number };
    let data: unknown = 'data' in reply ? reply.data : undefined;
    if (!('data' in reply)) {
      try {
        data = JSON.parse(reply.content);
      } catch {
        return { content: reply.content, delayMs, chunkDelayMs };
      }
    }
    if (
      structured?.via === 'json_tool' &&
      data !== null &&
      typeof data === 'object' &&
      !Array.isArray(data)
    ) {
      return {
        toolCalls: [{ name: 'json', arguments: data as Record<string, unknown> }],
        delayMs,
        chunkDelayMs,
      };
    }
    return { content: JSON.stringify(data), delayMs, chunkDelayMs };
  }

  async function awaitDelay(reply: FakeReply, res: ServerResponse) {
    if (!reply.delayMs) return true;
    // Stop waiting when the client gives up (timeouts), so close() is not held up by it.
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), reply.delayMs);
      res.once('close', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  }

  /** Waits `chunkDelayMs` before a streamed piece; false when the client went away meanwhile. */
  function pause(reply: ResolvedReply, res: ServerResponse) {
    const ms = 'chunkDelayMs' in reply ? reply.chunkDelayMs : undefined;
    if (!ms) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        res.off('close', gone);
        resolve(!res.destroyed);
      }, ms);
      const gone = () => {
        clearTimeout(timer);
        resolve(false);
      };
      res.once('close', gone);
    });
  }

  type ChatBody = {
    model: string;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    messages: Message[];
  };

  async function chatCompletion(res: ServerResponse, body: ChatBody, structured?: StructuredRequest) {
    const messages = body.messages;
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const reply = nextReply(textOf(lastUser?.content), messages, structured);
    if (!(await awaitDelay(reply, res))) return;
    if ('error' in reply)
      return sendError(res, 'openai', reply.error.status, reply.error.message, reply.headers ?? {});

    const id = `chatcmpl-fake-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model;
    const content = reply.content ?? null;
    const toolCalls =
      'toolCalls' in reply
        ? reply.toolCalls.map((call, index) => ({
            index,
            id: `call_fake_${counter}_${index}`,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          }))
        : undefined;
    const finishReason = toolCalls?.length ? 'tool_calls' : 'stop';
    const promptTokens = Math.max(
      1,
      messages.reduce((sum, m) => sum + words(textOf(m.content)), 0),
    );
    const completionTokens = Math.max(
      1,
      words(content ?? '') + (toolCalls ?? []).reduce((sum, c) => sum + words(c.function.arguments), 0),
    );
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    };

    if (!body.stream) {
      const message = {
        role: 'assistant',
        content,
        ...(toolCalls ? { tool_calls: toolCalls.map(withoutIndex) } : {}),
      };
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        usage,
      });
    }

    startSse(res);
    const chunk = (choices: unknown[], extra: object = {}) =>
      sse(res, { id, object: 'chat.completion.chunk', created, model, choices, ...extra });
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    for (const piece of content?.match(/\S+\s*/g) ?? []) {
      if (!(await pause(reply, res))) return;
      chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]);
    }
    if (toolCalls?.length) chunk([{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: null }]);
    chunk([{ index: 0, delta: {}, finish_reason: finishReason }]);
    if (body.stream_options?.include_usage) chunk([], { usage });
    res.end('data: [DONE]\n\n');
  }

  type AnthropicBody = {
    model: string;
    stream?: boolean;
    system?: unknown;
    messages: Message[];
  };

  async function anthropicMessage(res: ServerResponse, body: AnthropicBody, structured?: StructuredRequest) {
    const messages = body.messages;
    // Anthropic sends tool results as user messages; the echo wants the last real user text.
    const lastUser = [...messages].reverse().find((m) => m.role === 'user' && !isToolResult(m));
    const reply = nextReply(textOf(lastUser?.content), messages, structured);
    if (!(await awaitDelay(reply, res))) return;
    if ('error' in reply)
      return sendError(res, 'anthropic', reply.error.status, reply.error.message, reply.headers ?? {});

    const id = `msg_fake_${++counter}`;
    const model = body.model;
    const content: Array<Record<string, unknown>> = [];
    if (reply.content) content.push({ type: 'text', text: reply.content });
    if ('toolCalls' in reply) {
      reply.toolCalls.forEach((call, index) =>
        content.push({
          type: 'tool_use',
          id: `toolu_fake_${counter}_${index}`,
          name: call.name,
          input: call.arguments,
        }),
      );
    }
    const stopReason = 'toolCalls' in reply && reply.toolCalls.length ? 'tool_use' : 'end_turn';
    const inputTokens = Math.max(
      1,
      words(textOf(body.system)) + messages.reduce((sum, m) => sum + words(textOf(m.content)), 0),
    );
    const outputTokens = Math.max(1, words(textOf(content)));
    const usage = { input_tokens: inputTokens, output_tokens: outputTokens };

    if (!body.stream) {
      return sendJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      });
    }

    startSse(res);
    const event = (type: string, data: object) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        usage: { ...usage, output_tokens: 0 },
      },
    });
    for (const [index, block] of content.entries()) {
      if (block.type === 'text') {
        event('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const piece of String(block.text).match(/\S+\s*/g) ?? []) {
          if (!(await pause(reply, res))) return;
          event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
        }
      } else {
        event('content_block_start', { index, content_block: { ...block, input: {} } });
        event('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        });
      }
      event('content_block_stop', { index });
    }
    event('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    });
    event('message_stop', {});
    res.end();
  }

  function control(path: string, body: unknown, res: ServerResponse) {
    const args = (body ?? {}) as Record<string, unknown>;
    switch (path) {
      case '/__control/script':
        api.script((args.replies as FakeReply[]) ?? []);
        break;
      case '/__control/models':
        api.setModels((args.ids as string[]) ?? []);
        break;
      case '/__control/fail':
        api.failNext(Number(args.status), args.body, Number(args.times ?? 1), {
          headers: args.headers as Record<string, string> | undefined,
        });
        break;
      case '/__control/embedding-dimensions':
        api.embeddingDimensionsOverride(args.dimensions == null ? null : Number(args.dimensions));
        break;
      case '/__control/reset':
        api.reset();
        break;
      case '/__control/requests':
        return sendJson(res, 200, requests);
      default:
        return sendJson(res, 404, { message: `Unknown control ${path}` });
    }
    return sendJson(res, 200, { ok: true });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const api = {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/v1`,
    port,
    requests,
    /** Queues replies, consumed in order by chat completions and messages alike. */
    script(next: FakeReply[]) {
      replies.push(...next);
    },
    setModels(ids: string[]) {
      models = [...ids];
    },
    /**
     * Embeddings come back with this many dimensions whatever was asked, until set back to null (or
     * reset): a provider whose model changed under a knowledge base.
     */
    embeddingDimensionsOverride(dimensions: number | null) {
      embeddingDimensionsOverride = dimensions;
    },
    /**
     * The next `times` requests (any route) fail with `status`; `body` defaults to the protocol's
     * error shape. Add `retry-after-ms: '0'` to headers to skip the SDK's 2 s retry backoff.
     */
    failNext(status: number, body?: unknown, times = 1, extra: { headers?: Record<string, string> } = {}) {
      for (let i = 0; i < times; i++) failures.push({ status, body, headers: extra.headers ?? {} });
    },
    /** Forgets recorded requests, scripted replies and failures; models go back to the start list. */
    reset() {
      requests.length = 0;
      replies = [];
      failures = [];
      models = options.models ?? ['gpt-4o', 'gpt-4o-mini'];
      embeddingDimensionsOverride = null;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return api;
}

function withoutIndex<T extends { index: number }>({ index: _index, ...rest }: T) {
  return rest;
}

async function readBody(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(
  res: ServerResponse,
  protocol: Protocol,
  status: number,
  message: string,
  headers: Record<string, string>,
  /** OpenAI names the request's parameter it refused. */
  param: string | null = null,
) {
  const type =
    status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  const body =
    protocol === 'anthropic'
      ? { type: 'error', error: { type, message } }
      : { error: { message, type, param, code: status === 401 ? 'invalid_api_key' : null } };
  sendJson(res, status, body, headers);
}

function startSse(res: ServerResponse) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

function sse(res: ServerResponse, data: unknown) {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

// Standalone for the browser tests: `node --import tsx apps/server/src/testing/fake-llm-server.ts --port 5299`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const portIndex = argv.indexOf('--port');
  const port = portIndex >= 0 ? Number(argv[portIndex + 1]) : 0;
  const hostIndex = argv.indexOf('--host');
  const host = hostIndex >= 0 ? argv[hostIndex + 1] : undefined;
  const fake = await startFakeLlmServer({ port, host, requireKey: argv.includes('--require-key') });
  console.log(fake.url);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
