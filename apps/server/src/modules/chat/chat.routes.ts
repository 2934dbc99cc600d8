import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CHAT_REPLY_WAIT_SECONDS,
  chatMessages,
  type ChatStreamEvent,
  type Execution,
} from '@crewline/contracts';
import { endpoints } from '@crewline/contracts/endpoints';
import { bearerToken } from '../../platform/auth/auth-context';
import { route } from '../../platform/route';
import type { ChatApp } from './chat-apps.presenter';
import type { ChatCookies } from './chat-cookies';
import type { ChatVisitor } from './chat-turn';
import type { ChatCaller, ChatEntry, ChatService } from './chat.service';

const { chat: api } = endpoints;

/** The header a password app's password may come in instead of the unlock cookie. */
const PASSWORD_HEADER = 'x-chat-password';

/**
 * A hijacked reply skips the onSend hook that sets the security headers (platform/security-headers.ts):
 * the stream sets its own, as strict (an event stream is never a page, nor framed).
 */
const streamHeaders = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  // Proxies (nginx) must pass each event on as it comes rather than buffer the answer.
  'x-accel-buffering': 'no',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

const wantsStream = (request: FastifyRequest) =>
  (request.headers.accept ?? '').toLowerCase().includes('text/event-stream');

/**
 * The chat apps' public routes (docs/product-rules.md, Chat apps), which the hosted page and the
 * widget call: `auth: 'public'`, so the auth guard lets them through and the chat service decides who
 * may use the app. A visitor is the signed visitor cookie, which starting a thread sets; a member of
 * the app's organization is their session token.
 */
export function chatRoutes(deps: {
  chat: ChatService;
  cookies: ChatCookies;
  /** How long a message's request waits for its reply (tests shorten it). */
  replyWaitMs?: number;
}): FastifyPluginAsyncZod {
  const { chat, cookies } = deps;
  const replyWaitMs = deps.replyWaitMs ?? CHAT_REPLY_WAIT_SECONDS * 1000;

  const callerOf = (request: FastifyRequest): ChatCaller => {
    const password = request.headers[PASSWORD_HEADER];
    return {
      token: bearerToken(request),
      password: typeof password === 'string' && password ? password : undefined,
      unlocked: (app: ChatApp) =>
        app.passwordHash !== null && cookies.isUnlocked(request, app.slug, app.passwordHash),
      ip: request.ip,
    };
  };

  /** Who writes: the member, else the visitor of a valid visitor cookie, else nobody's threads. */
  const writerOf = (entry: ChatEntry, request: FastifyRequest): ChatVisitor | null => {
    if (entry.member) return entry.member;
    const visitorId = cookies.visitorOf(request);
    return visitorId ? { id: visitorId, userId: null } : null;
  };

  /**
   * The reply as Server-Sent Events (chatStreamEventSchema): the run, the reply's pieces as they are
   * written, then the whole reply or why there is none. The client going away stops the wait, not the run.
   */
  async function stream(
    request: FastifyRequest,
    reply: FastifyReply,
    app: ChatApp,
    run: Execution,
    signal: AbortSignal,
  ) {
    reply.hijack();
    const raw = reply.raw;
    const secure = request.protocol === 'https' ? { 'strict-transport-security': 'max-age=31536000' } : {};
    raw.writeHead(200, { ...streamHeaders, ...secure });
    const send = (event: ChatStreamEvent) => {
      if (!raw.writableEnded && !raw.destroyed) raw.write(`data: ${JSON.stringify(event)}\n\n`);
    };
    send({ type: 'run', runId: run.id });
    let streamed = '';
    try {
      const outcome = await chat.follow(app, run, {
        timeoutMs: replyWaitMs,
        signal,
        onDelta: (text) => {
          streamed += text;
          send({ type: 'delta', text });
        },
      });
      if (outcome.status === 'done') {
        const whole = outcome.reply ?? '';
        // The step's last words are not streamed (its end answers them): they go as one last piece,
        // so the pieces make the whole reply for a client that only appends them.
        if (whole.length > streamed.length && whole.startsWith(streamed)) {
          send({ type: 'delta', text: whole.slice(streamed.length) });
        }
        send({ type: 'done', runId: run.id, reply: whole });
      } else {
        // A failed run's words for a visitor (chat-turn.ts failureText: a spent cap says so).
        const message =
          outcome.status === 'failed' ? (outcome.reply ?? chatMessages.failed) : chatMessages.stillRunning;
        send({ type: 'error', message, runId: run.id });
      }
    } catch (error) {
      // The stream has begun: the failure can only be told in it.
      request.log.error({ err: error, runId: run.id }, 'chat reply stream failed');
      send({ type: 'error', message: chatMessages.failed, runId: run.id });
    } finally {
      raw.end();
    }
  }

  return async (app) => {
    route(app, api.face, async (request) => chat.face(request.params.slug, callerOf(request)));

    route(app, api.unlock, async (request, reply) => {
      const unlocked = await chat.unlock(request.params.slug, request.body.password, request.ip);
      if (unlocked) cookies.setUnlocked(reply, unlocked.slug, unlocked.passwordHash!);
      return reply.status(204).send();
    });

    route(app, api.createThread, async (request, reply) => {
      const entry = await chat.enter(request.params.slug, callerOf(request));
      let writer = writerOf(entry, request);
      if (!entry.member) {
        // A visitor's cookie is set, or renewed, with each new thread: it lives as long as one is kept.
        writer ??= { id: cookies.newVisitorId(), userId: null };
        cookies.setVisitor(reply, writer.id);
      }
      return { threadId: await chat.createThread(entry.app, writer!) };
    });

    route(app, api.thread, async (request) => {
      const entry = await chat.enter(request.params.slug, callerOf(request));
      return chat.thread(entry.app, writerOf(entry, request), request.params.threadId);
    });

    route(app, api.send, async (request, reply) => {
      // The client going away (before its answer ends) stops the wait for the reply, never the run.
      const gone = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableEnded) gone.abort();
      });
      const entry = await chat.enter(request.params.slug, callerOf(request));
      const run = await chat.send(
        entry.app,
        writerOf(entry, request),
        request.params.threadId,
        request.body.message,
      );
      if (wantsStream(request)) {
        await stream(request, reply, entry.app, run, gone.signal);
        return reply;
      }
      const outcome = await chat.follow(entry.app, run, { timeoutMs: replyWaitMs, signal: gone.signal });
      return { reply: outcome.reply, runId: run.id, status: outcome.status };
    });
  };
}
