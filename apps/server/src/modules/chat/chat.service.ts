import {
  chatMessages,
  type ChatAppFace,
  type ChatRunInput,
  type ChatThread,
  type ChatThreadSummary,
  type Execution,
} from '@crewline/contracts';
import { NotFoundError, ServiceUnavailableError, UnauthorizedError } from '../../platform/errors';
import { isApiKey } from '../../platform/auth/auth-context';
import { verifyPassword } from '../../platform/auth/passwords';
import { tooManyRequests, type RateLimitRepository } from '../../platform/rate-limit.repository';
import type { AuthService } from '../auth/auth.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { ChatApp, ChatAppsPresenter } from './chat-apps.presenter';
import { cappedHistory } from './chat-history';
import { historyTurns, threadMessages, type ChatThreadPresenter } from './chat-thread.presenter';
import type { ChatThreadsRepository } from './chat-threads.repository';
import type { ChatTurns, ChatVisitor, TurnOutcome } from './chat-turn';

/** Wrong passwords one address may try (X-Chat-Password or unlock) in the window, over every app. */
const PASSWORD_MAX_FAILURES = 10;
const PASSWORD_WINDOW_SECONDS = 600;
const PASSWORD_BUCKET = 'chat-password';

/** What a request to a chat app's public routes brings: whatever may say who it is. */
export type ChatCaller = {
  /** `Authorization: Bearer …`: a member's session token counts; anything else is ignored. */
  token: string | undefined;
  /** `X-Chat-Password`. */
  password: string | undefined;
  /** Whether it carries the app's unlock cookie. */
  unlocked: (app: ChatApp) => boolean;
  /** The client's address (wrong passwords are counted per address). */
  ip: string;
};

/** Who may go on: the app, and the member who writes (null: a visitor, known by the visitor cookie). */
export type ChatEntry = { app: ChatApp; member: ChatVisitor | null };

const gateText = {
  'sign-in': chatMessages.signIn,
  password: chatMessages.password,
} as const;

/**
 * Chat apps (docs/product-rules.md, Chat apps): who may use an app's public routes (members, anyone
 * with the link, anyone with its password), its threads and their messages, each message a run of the
 * app's workflow through the chat turn; and the organization's view of an app's threads.
 */
export function createChatService(deps: {
  apps: Pick<ChatAppsPresenter, 'bySlug'>;
  turns: ChatTurns;
  threads: ChatThreadsRepository;
  thread: ChatThreadPresenter;
  /** A session token's user (modules/auth); whether they belong to the app's organization is asked apart. */
  auth: Pick<AuthService, 'authenticateSession'>;
  rateLimits: Pick<RateLimitRepository, 'window' | 'take'>;
  /** The organization's workflow (404 for another organization's). */
  workflows: Pick<WorkflowsService, 'get'>;
}) {
  const { threads } = deps;

  /** The app at `slug`: 404 when there is none, 503 while it is switched off or its workflow not active. */
  async function open(slug: string): Promise<ChatApp> {
    const app = await deps.apps.bySlug(slug);
    if (!app) throw new NotFoundError(chatMessages.notFound);
    if (!app.enabled || app.workflowStatus !== 'active') throw new ServiceUnavailableError(chatMessages.off);
    return app;
  }

  /** The member of the app's organization the session token is, or null (no token, an API key, not a member). */
  async function memberOf(app: ChatApp, token: string | undefined): Promise<ChatVisitor | null> {
    if (!token || isApiKey(token)) return null;
    const session = await deps.auth.authenticateSession(token);
    if (!session) return null;
    const { userId, organizationId } = session.context;
    const member =
      (organizationId === app.organizationId && session.member) ||
      (await threads.isMember(userId, app.organizationId));
    return member ? { id: `user:${userId}`, userId } : null;
  }

  /**
   * Whether `password` is the app's. Wrong ones are counted per address: past the limit every try
   * answers 429 before the password is even checked, so guessing goes no faster than the limit.
   */
  async function passwordMatches(app: ChatApp, password: string, ip: string): Promise<boolean> {
    const tried = await deps.rateLimits.window(PASSWORD_BUCKET, ip, PASSWORD_WINDOW_SECONDS);
    if (tried.count >= PASSWORD_MAX_FAILURES) {
      throw tooManyRequests(tried.oldest, PASSWORD_WINDOW_SECONDS, 'Too many wrong passwords.');
    }
    if (app.passwordHash && (await verifyPassword(app.passwordHash, password))) return true;
    const { allowed, oldest } = await deps.rateLimits.take(
      PASSWORD_BUCKET,
      ip,
      PASSWORD_MAX_FAILURES,
      PASSWORD_WINDOW_SECONDS,
    );
    if (!allowed) throw tooManyRequests(oldest, PASSWORD_WINDOW_SECONDS, 'Too many wrong passwords.');
    return false;
  }

  /** What the caller must do before writing: nothing, sign in as a member, or give the password. */
  async function gateOf(app: ChatApp, caller: ChatCaller, member: ChatVisitor | null) {
    if (member || app.access === 'link') return 'ready' as const;
    if (app.access === 'members') return 'sign-in' as const;
    if (caller.unlocked(app)) return 'ready' as const;
    if (caller.password === undefined) return 'password' as const;
    if (await passwordMatches(app, caller.password, caller.ip)) return 'ready' as const;
    throw new UnauthorizedError(chatMessages.wrongPassword);
  }

  /** A thread the visitor may read and write: theirs, of this app, not expired (404 otherwise). */
  async function requireThread(app: ChatApp, visitor: ChatVisitor | null, threadId: string) {
    if (!visitor || !(await threads.isVisitors(threadId, app.workflowId, visitor.id))) {
      throw new NotFoundError(chatMessages.threadNotFound);
    }
  }

  /** The organization's workflow, then whether the thread is one of its (404 otherwise). */
  async function requireWorkflowThread(organizationId: string, workflowId: string, threadId: string) {
    await deps.workflows.get(organizationId, workflowId);
    if (!(await threads.isWorkflows(organizationId, workflowId, threadId))) {
      throw new NotFoundError(chatMessages.threadNotFound);
    }
  }

  const read = async (threadId: string): Promise<ChatThread> => ({
    threadId,
    messages: threadMessages(await deps.thread.turns(threadId)),
  });

  return {
    /** GET /api/chat/:slug: the app as its page shows it, and what this caller must do first. */
    async face(slug: string, caller: ChatCaller): Promise<ChatAppFace> {
      const app = await open(slug);
      const member = await memberOf(app, caller.token);
      const gate = await gateOf(app, caller, member).catch((error: unknown) => {
        if (error instanceof UnauthorizedError) return 'password' as const;
        throw error;
      });
      const { name, greeting, suggestions, theme, access } = app;
      return { slug: app.slug, name, greeting, suggestions, theme, access, gate };
    },

    /** The app, once the caller may use it (401 naming what is missing); and the member, if one writes. */
    async enter(slug: string, caller: ChatCaller): Promise<ChatEntry> {
      const app = await open(slug);
      const member = await memberOf(app, caller.token);
      const gate = await gateOf(app, caller, member);
      if (gate !== 'ready') throw new UnauthorizedError(gateText[gate]);
      return { app, member };
    },

    /**
     * POST /api/chat/:slug/unlock: true when the password is the app's (the route then sets the
     * unlock cookie); 401 when it is not; 429 past the wrong tries' limit.
     */
    async unlock(slug: string, password: string, ip: string): Promise<ChatApp | null> {
      const app = await open(slug);
      if (app.access !== 'password' || !app.passwordHash) return null;
      if (!(await passwordMatches(app, password, ip)))
        throw new UnauthorizedError(chatMessages.wrongPassword);
      return app;
    },

    /** A new thread of the visitor's. */
    createThread(app: ChatApp, visitor: ChatVisitor): Promise<string> {
      return threads.create({
        organizationId: app.organizationId,
        workflowId: app.workflowId,
        visitorId: visitor.id,
        userId: visitor.userId,
      });
    },

    /** The visitor's thread with its messages and replies. */
    async thread(app: ChatApp, visitor: ChatVisitor | null, threadId: string): Promise<ChatThread> {
      await requireThread(app, visitor, threadId);
      return read(threadId);
    },

    /**
     * A message in the visitor's thread: counted against the rate limits, then the run that answers
     * it, started with the thread so far as its history; the message is written in the run's own
     * start transaction, so there is never one without the other.
     */
    async send(
      app: ChatApp,
      visitor: ChatVisitor | null,
      threadId: string,
      message: string,
    ): Promise<Execution> {
      await requireThread(app, visitor, threadId);
      const writer = visitor!;
      await deps.turns.admit(app, writer.id);
      const input: ChatRunInput = {
        message,
        history: cappedHistory(historyTurns(await deps.thread.turns(threadId))),
        threadId,
        visitor: { id: writer.id, member: writer.userId !== null },
      };
      return deps.turns.start(app, input, writer, {
        triggerDetail: app.slug,
        async prepare(runId, executor) {
          const written = await threads.addMessage(executor, {
            threadId,
            organizationId: app.organizationId,
            runId,
            content: message,
          });
          // The thread was deleted meanwhile: no message, so no run either.
          if (!written) throw new NotFoundError(chatMessages.threadNotFound);
        },
      });
    },

    /** Follows the message's run to its reply (chat-turn.ts). */
    follow: (
      app: ChatApp,
      run: Execution,
      options: Parameters<ChatTurns['follow']>[2],
    ): Promise<TurnOutcome> => deps.turns.follow(app, run, options),

    /** GET /api/workflows/:id/chat-threads: the app's threads, newest first. */
    async threads(organizationId: string, workflowId: string): Promise<ChatThreadSummary[]> {
      await deps.workflows.get(organizationId, workflowId);
      return threads.listOfWorkflow(organizationId, workflowId);
    },

    /** GET /api/workflows/:id/chat-threads/:threadId: one thread, as its visitor reads it. */
    async workflowThread(organizationId: string, workflowId: string, threadId: string): Promise<ChatThread> {
      await requireWorkflowThread(organizationId, workflowId, threadId);
      return read(threadId);
    },

    /** DELETE /api/workflows/:id/chat-threads/:threadId: the thread and its messages (the runs stay). */
    async deleteThread(organizationId: string, workflowId: string, threadId: string): Promise<void> {
      await deps.workflows.get(organizationId, workflowId);
      if (!(await threads.delete(organizationId, workflowId, threadId))) {
        throw new NotFoundError(chatMessages.threadNotFound);
      }
    },

    /** Deletes the threads past CHAT_THREAD_DAYS since their last message (the periodic prune, start.ts). */
    pruneThreads: (): Promise<void> => threads.prune(),
  };
}
export type ChatService = ReturnType<typeof createChatService>;
