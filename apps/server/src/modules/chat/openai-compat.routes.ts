import { PassThrough } from 'node:stream';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { chatMessages } from '@crewline/contracts';
import {
  AppError,
  BudgetExceededError,
  PlanLimitError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '../../platform/errors';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '../../platform/database-unavailable';
import { describeError } from '../../platform/logger';
import { bearerToken, isApiKey, type AuthContext } from '../../platform/auth/auth-context';
import type { ApiKeysService } from '../api-keys/api-keys.service';
import type { ChatAppsPresenter, ChatApp } from './chat-apps.presenter';
import type { ChatTurns } from './chat-turn';
import {
  chunkOf,
  completionHead,
  completionOf,
  errorTypeOf,
  isServed,
  modelNotFound,
  modelOf,
  OpenAiCompatError,
  openAiError,
  openAiMessages,
  parseChatCompletionRequest,
  remainderOf,
  turnOf,
  usageOf,
  type OpenAiErrorBody,
} from './openai-compat';

/** The endpoint's paths: outside /api, where OpenAI clients look once given `<public URL>/v1` as their base URL. */
const COMPLETIONS_PATH = '/v1/chat/completions';
const MODELS_PATH = '/v1/models';
/** A conversation's messages are text; the history a run takes is capped anyway (chat-history.ts). */
const OPENAI_BODY_LIMIT_BYTES = 1024 * 1024;
/** How long a request waits for its run's reply; the run goes on after it (its id is in the answer). */
const OPENAI_REPLY_WAIT_SECONDS = 300;

/** Refusals in OpenAI's shape, by their status (docs/product-rules.md, OpenAI-compatible endpoint). */
function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const send = (status: number, body: OpenAiErrorBody) =>
    reply.status(status).type('application/json; charset=utf-8').send(body);
  if (error instanceof OpenAiCompatError) {
    if (error.noRetry) reply.header('x-should-retry', 'false');
    if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer');
    return send(error.statusCode, openAiError(error.type, error.message, error.param, error.code));
  }
  if (error instanceof TooManyRequestsError) {
    reply.header('retry-after', String(error.retryAfterSeconds));
    return send(429, openAiError('rate_limit_exceeded', error.message, null, 'rate_limit_exceeded'));
  }
  if (error instanceof PlanLimitError || error instanceof BudgetExceededError)
    return send(402, openAiError('insufficient_quota', error.message, null, error.code));
  if (error instanceof AppError) {
    const status = error.statusCode;
    return send(status, openAiError(errorTypeOf(status), error.message, error.errors?.[0]?.path ?? null));
  }
  const unavailable = databaseUnavailable(error);
  if (unavailable) {
    request.log.warn({ code: unavailable.code, reason: unavailable.message }, 'database unavailable');
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return send(
      503,
      openAiError('server_error', 'The service is temporarily unavailable. Try again in a moment.'),
    );
  }
  // Fastify's own refusals (malformed JSON, a body over the limit, another content type).
  if (error.statusCode && error.statusCode < 500)
    return send(error.statusCode, openAiError(errorTypeOf(error.statusCode), error.message));
  // Type, message and code only, as the app's handler logs them; the answer says nothing of it.
  request.log.error({ err: describeError(error) }, 'unhandled error');
  return send(500, openAiError('server_error', openAiMessages.internal));
}

/**
 * The OpenAI-compatible endpoint (docs/product-rules.md, Chat apps): `POST /v1/chat/completions`
 * talks to one of the organization's chat apps (the `model` is its slug) as a chat turn of the
 * key's member, and `GET /v1/models` lists the apps. Outside /api, so the API's guard does not run:
 * every request authenticates with an organization API key here (its rate limit and the plan's API
 * access included), and every refusal answers in OpenAI's error shape.
 */
export function openAiCompatRoutes(deps: {
  apiKeys: Pick<ApiKeysService, 'authenticate'>;
  apps: Pick<ChatAppsPresenter, 'bySlug' | 'ofOrganization'>;
  turns: Pick<ChatTurns, 'admit' | 'start' | 'follow'>;
  /** How long a request waits for the reply (tests shorten it). */
  replyWaitMs?: number;
}): FastifyPluginAsync {
  const waitMs = deps.replyWaitMs ?? OPENAI_REPLY_WAIT_SECONDS * 1000;

  async function authenticate(request: FastifyRequest): Promise<AuthContext> {
    const token = bearerToken(request);
    if (!token) throw new OpenAiCompatError(401, openAiMessages.noKey, 'authentication_error');
    const auth = isApiKey(token) ? await deps.apiKeys.authenticate(token) : null;
    if (!auth)
      throw new OpenAiCompatError(
        401,
        openAiMessages.invalidKey,
        'authentication_error',
        null,
        'invalid_api_key',
      );
    return auth;
  }

  /** The organization's app at `model`, switched on with its workflow active; 404 otherwise. */
  async function servedApp(organizationId: string, model: string): Promise<ChatApp> {
    const app = await deps.apps.bySlug(model);
    if (!app || app.organizationId !== organizationId || !isServed(app)) throw modelNotFound(model);
    return app;
  }

  return async (app) => {
    const options = { bodyLimit: OPENAI_BODY_LIMIT_BYTES, errorHandler: answerError };
    // Answers for one key's caller: never kept by a cache on the way (the /api's get the same).
    app.addHook('onRequest', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get(MODELS_PATH, options, async (request) => {
      const auth = await authenticate(request);
      const apps = await deps.apps.ofOrganization(auth.organizationId);
      return { object: 'list', data: apps.filter(isServed).map(modelOf) };
    });

    app.get<{ Params: { model: string } }>(`${MODELS_PATH}/:model`, options, async (request) => {
      const auth = await authenticate(request);
      return modelOf(await servedApp(auth.organizationId, request.params.model));
    });

    app.post(COMPLETIONS_PATH, options, async (request, reply) => {
      const auth = await authenticate(request);
      const body = parseChatCompletionRequest(request.body);
      const chat = await servedApp(auth.organizationId, body.model);
      const turn = turnOf(body.messages);
      // The key is the visitor: its own rate limit within the app's, and its member's trust.
      const visitor = { id: auth.sessionId, userId: auth.userId };
      await deps.turns.admit(chat, visitor.id);
      const input = { ...turn, threadId: null, visitor: { id: visitor.id, member: true } };
      const run = await deps.turns.start(chat, input, visitor, { triggerDetail: 'API' }).catch((error) => {
        // Switched off between the lookup and the start: as absent as before it.
        if (error instanceof ServiceUnavailableError && error.message === chatMessages.off)
          throw modelNotFound(body.model);
        throw error;
      });
      reply.header('x-crewline-run-id', run.id);
      const head = completionHead(run, chat.slug);
      // The client went away: the wait stops (the run goes on).
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());

      if (!body.stream) {
        const outcome = await deps.turns.follow(chat, run, { timeoutMs: waitMs, signal: gone.signal });
        if (outcome.status === 'failed') {
          const message = openAiMessages.runFailed(run.id, outcome.run.error);
          throw new OpenAiCompatError(502, message, 'server_error', null, 'run_failed', true);
        }
        if (outcome.status === 'pending') {
          const message = openAiMessages.stillRunning(run.id, Math.round(waitMs / 1000));
          throw new OpenAiCompatError(504, message, 'server_error', null, 'run_timeout', true);
        }
        return completionOf(head, outcome.reply ?? '', usageOf(outcome.metrics));
      }

      // Server-Sent Events, as OpenAI streams: each `data:` line a chunk, `[DONE]` last.
      const includeUsage = body.stream_options?.include_usage === true;
      const out = new PassThrough();
      out.on('error', () => undefined);
      const write = (data: unknown) => {
        if (out.destroyed || out.writableEnded) return;
        out.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      };
      const streamed = { text: '' };
      const delta = (content: string) => write(chunkOf(head, { delta: { content } }, includeUsage));

      async function follow() {
        try {
          const outcome = await deps.turns.follow(chat, run, {
            timeoutMs: waitMs,
            signal: gone.signal,
            onDelta(text) {
              streamed.text += text;
              delta(text);
            },
          });
          if (gone.signal.aborted) return;
          if (outcome.status === 'done') {
            const rest = remainderOf(streamed.text, outcome.reply ?? '');
            if (rest) delta(rest);
            write(chunkOf(head, { stop: true }, includeUsage));
            if (includeUsage) write(chunkOf(head, { usage: usageOf(outcome.metrics) }));
          } else if (outcome.status === 'failed') {
            const message = openAiMessages.runFailed(run.id, outcome.run.error);
            write(openAiError('server_error', message, null, 'run_failed'));
          } else {
            const message = openAiMessages.stillRunning(run.id, Math.round(waitMs / 1000));
            write(openAiError('server_error', message, null, 'run_timeout'));
          }
        } catch (error) {
          request.log.error({ err: describeError(error as Error) }, 'chat completion stream failed');
          write(openAiError('server_error', openAiMessages.internal));
        } finally {
          write('[DONE]');
          out.end();
        }
      }

      write(chunkOf(head, { delta: { role: 'assistant', content: '' } }, includeUsage));
      void follow();
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(out);
    });
  };
}
