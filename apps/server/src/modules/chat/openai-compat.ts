import { z } from 'zod';
import {
  CHAT_MAX_MESSAGE_CHARS,
  type ChatRunInput,
  type Execution,
  type ExecutionMetrics,
} from '@crewline/contracts';
import { AppError } from '../../platform/errors';
import type { ChatApp } from './chat-apps.presenter';
import { cappedHistory } from './chat-history';

/*
 * The OpenAI Chat Completions wire format as the OpenAI-compatible endpoint speaks it
 * (docs/product-rules.md, Chat apps: OpenAI-compatible endpoint): the request as OpenAI defines it
 * (text only), the chat turn it becomes, and the answers, errors and stream chunks the official
 * SDKs read. The routes are in openai-compat.routes.ts.
 */

/** OpenAI's error types, which the SDKs and clients act on (with the HTTP status). */
export type OpenAiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_exceeded'
  | 'insufficient_quota'
  | 'server_error';

export type OpenAiErrorBody = {
  error: { message: string; type: OpenAiErrorType; param: string | null; code: string | null };
};

export const openAiMessages = {
  noKey: 'Send an organization API key: "Authorization: Bearer crw_…".',
  invalidKey: 'Invalid API key: send an organization API key, "Authorization: Bearer crw_…".',
  modelNotFound: (model: string) =>
    `The model "${model}" does not exist or you do not have access to it: a model is the slug of one of your organization's chat apps that is switched on (GET /v1/models lists them).`,
  notObject: 'The request body must be a JSON object.',
  content: "Only text content is supported: a string, or an array of { type: 'text', text } parts.",
  role: 'A message role is one of system, developer, user, assistant or tool.',
  lastNotUser: "The last message must be the user's: it is the one the workflow answers.",
  emptyMessage: 'The last message has no text.',
  tooLong: `The last message is longer than ${CHAT_MAX_MESSAGE_CHARS} characters.`,
  runFailed: (runId: string, error: string | null) =>
    `The workflow's run ${runId} failed${error ? `: ${error}` : '.'}`,
  stillRunning: (runId: string, seconds: number) =>
    `The workflow's run ${runId} is still going after ${seconds} s: read its result later with GET /api/executions/${runId}.`,
  internal: 'Internal server error',
};

/**
 * A refusal in OpenAI's shape, with the type, param and code it answers; `noRetry` adds
 * `x-should-retry: false`, which the official SDKs obey (they retry 5xx otherwise, and a retry would
 * start another run).
 */
export class OpenAiCompatError extends AppError {
  constructor(
    statusCode: number,
    message: string,
    readonly type: OpenAiErrorType,
    readonly param: string | null = null,
    readonly code: string | null = null,
    readonly noRetry = false,
  ) {
    super(statusCode, message);
  }
}

export const openAiError = (
  type: OpenAiErrorType,
  message: string,
  param: string | null = null,
  code: string | null = null,
): OpenAiErrorBody => ({ error: { message, type, param, code } });

/** Our status as OpenAI's error type: what an OpenAI client expects with that status. */
export function errorTypeOf(status: number): OpenAiErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 402) return 'insufficient_quota';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export const modelNotFound = (model: string) =>
  new OpenAiCompatError(
    404,
    openAiMessages.modelNotFound(model),
    'not_found_error',
    'model',
    'model_not_found',
  );

const invalid = (message: string, param: string | null) =>
  new OpenAiCompatError(400, message, 'invalid_request_error', param, null);

// The request. Fields OpenAI defines that a workflow has no use for (temperature, max_tokens, tools,
// user, …) are accepted and ignored: loose objects keep them, nothing reads them.
const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });
const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });
const textContent = z.union([z.string(), z.array(textPart)], { error: openAiMessages.content });
const assistantContent = z.union([z.string(), z.array(z.union([textPart, refusalPart]))], {
  error: openAiMessages.content,
});

const messageSchema = z.discriminatedUnion(
  'role',
  [
    z.looseObject({ role: z.literal('system'), content: textContent }),
    z.looseObject({ role: z.literal('developer'), content: textContent }),
    z.looseObject({ role: z.literal('user'), content: textContent }),
    // A reply that only called tools has no content.
    z.looseObject({ role: z.literal('assistant'), content: assistantContent.nullish() }),
    z.looseObject({ role: z.literal('tool'), content: textContent }),
  ],
  { error: openAiMessages.role },
);
type OpenAiMessage = z.infer<typeof messageSchema>;

const chatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/** A zod path as OpenAI names a param: `messages.[2].content`. */
const paramOf = (path: PropertyKey[]) =>
  path.map((key) => (typeof key === 'number' ? `[${key}]` : String(key))).join('.') || null;

/** The body as a request, or a 400 naming the first param at fault. */
export function parseChatCompletionRequest(body: unknown): ChatCompletionRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid(openAiMessages.notObject, null);
  const parsed = chatCompletionRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = paramOf(issue.path);
  throw invalid(param ? `Invalid '${param}': ${issue.message}` : issue.message, param);
}

/** A message's text: its text parts joined (a refusal part is what the assistant said). */
function textOf(content: OpenAiMessage['content']): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => ('text' in part ? part.text : part.refusal)).join('');
}

/**
 * The chat turn a request is: the last message (the user's) is the run's `message`; the earlier
 * user and assistant messages its `history`, capped as every chat's is. System and developer
 * messages are not passed (the workflow's agents have their own instructions), nor tool messages.
 */
export function turnOf(messages: OpenAiMessage[]): Pick<ChatRunInput, 'message' | 'history'> {
  const last = messages.length - 1;
  if (messages[last].role !== 'user') throw invalid(openAiMessages.lastNotUser, `messages.[${last}].role`);
  const message = textOf(messages[last].content).trim();
  if (!message) throw invalid(openAiMessages.emptyMessage, `messages.[${last}].content`);
  if (message.length > CHAT_MAX_MESSAGE_CHARS)
    throw invalid(openAiMessages.tooLong, `messages.[${last}].content`);
  const history: ChatRunInput['history'] = [];
  for (const earlier of messages.slice(0, last)) {
    if (earlier.role !== 'user' && earlier.role !== 'assistant') continue;
    const content = textOf(earlier.content);
    if (content.trim()) history.push({ role: earlier.role, content });
  }
  return { message, history: cappedHistory(history) };
}

/** What every answer of one run shares: its id, when it started and the model (the app's slug). */
export type CompletionHead = { id: string; created: number; model: string };

const seconds = (iso: string | Date) => Math.floor(new Date(iso).getTime() / 1000);

export const completionHead = (run: Pick<Execution, 'id' | 'createdAt'>, model: string): CompletionHead => ({
  id: `chatcmpl-${run.id}`,
  created: seconds(run.createdAt),
  model,
});

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

/** The run's tokens as OpenAI counts them (0 where the run has no figures). */
export const usageOf = (metrics: Partial<ExecutionMetrics> | null): Usage => ({
  prompt_tokens: metrics?.promptTokens ?? 0,
  completion_tokens: metrics?.completionTokens ?? 0,
  total_tokens: metrics?.totalTokens ?? 0,
});

/** The `chat.completion` a non-streaming request answers. */
export const completionOf = (head: CompletionHead, reply: string, usage: Usage) => ({
  ...head,
  object: 'chat.completion' as const,
  choices: [
    {
      index: 0,
      message: { role: 'assistant' as const, content: reply, refusal: null },
      finish_reason: 'stop' as const,
      logprobs: null,
    },
  ],
  usage,
});

type Delta = { role?: 'assistant'; content?: string };

/**
 * One `chat.completion.chunk`: a delta of the reply, the end (`finish_reason: 'stop'`, empty delta),
 * or the usage (no choices). With `include_usage`, OpenAI gives every other chunk `usage: null`.
 */
export function chunkOf(
  head: CompletionHead,
  part: { delta: Delta } | { stop: true } | { usage: Usage },
  includeUsage = false,
) {
  const base = { ...head, object: 'chat.completion.chunk' as const };
  if ('usage' in part) return { ...base, choices: [], usage: part.usage };
  const choice =
    'delta' in part
      ? { index: 0, delta: part.delta, finish_reason: null, logprobs: null }
      : { index: 0, delta: {}, finish_reason: 'stop' as const, logprobs: null };
  return { ...base, choices: [choice], ...(includeUsage ? { usage: null } : {}) };
}

/**
 * What a stream still owes once the run ended: nothing when the deltas made the whole reply, the
 * rest when the reply goes on from them, the whole reply when nothing streamed (a workflow whose
 * last step is not an agent's). A reply that differs from what streamed cannot be mended by more
 * deltas: nothing is added.
 */
export function remainderOf(streamed: string, reply: string): string {
  if (streamed === '') return reply;
  return reply.startsWith(streamed) ? reply.slice(streamed.length) : '';
}

/** A chat app as `GET /v1/models` lists it. */
export const modelOf = (app: Pick<ChatApp, 'slug' | 'updatedAt'>) => ({
  id: app.slug,
  object: 'model' as const,
  created: app.updatedAt ? seconds(app.updatedAt) : 0,
  owned_by: 'crewline',
});

/** Whether the app answers on the endpoint: switched on, its workflow active. */
export const isServed = (app: Pick<ChatApp, 'enabled' | 'workflowStatus'>) =>
  app.enabled && app.workflowStatus === 'active';
