import {
  chatMessages,
  executionMessages,
  type ChatRunInput,
  type Execution,
  type ExecutionMetrics,
  type WorkflowVersion,
} from '@crewline/contracts';
import {
  AppError,
  BudgetExceededError,
  ConflictError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '../../platform/errors';
import { retryAfterSeconds, type RateLimitRepository } from '../../platform/rate-limit.repository';
import type { ExecutionsService, PrepareRun } from '../executions/executions.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { ChatApp } from './chat-apps.presenter';

/** Who writes: a visitor's id (the visitor cookie's, or the API key's), and the member when one is signed in. */
export type ChatVisitor = { id: string; userId: string | null };

/** What a turn answers once its run ended, or while it still runs when the wait is over. */
export type TurnOutcome = {
  run: Execution;
  status: 'done' | 'failed' | 'pending';
  /** The reply (done), the reason in words a visitor reads (failed), or null (pending). */
  reply: string | null;
  /** The run's figures (tokens) once it ended. */
  metrics: Partial<ExecutionMetrics> | null;
};

const RATE_WINDOW_SECONDS = 60;
/** Versions are immutable: their reply steps are remembered, up to this many. */
const REPLY_STEPS_CACHED = 500;

/** A run's result as a reply: a string as it is, anything else as JSON. */
export const replyText = (result: unknown): string =>
  typeof result === 'string' ? result : result === null || result === undefined ? '' : JSON.stringify(result);

/**
 * What a visitor reads of a failed run: the app's spent cap says so; any other reason stays the
 * organization's (a tool's or a model's error may name what visitors must not see).
 */
export const failureText = (error: string | null | undefined): string =>
  error === chatMessages.capReached ? chatMessages.capReached : chatMessages.failed;

/**
 * The steps whose answer is the reply as it is written (docs/product-rules.md, Chat apps): the agent
 * steps of a sequential workflow with no step after them. Their deltas stream; any other step's do
 * not, and the stored result is the reply in the end.
 */
export function replySteps(version: Pick<WorkflowVersion, 'processType' | 'nodes' | 'edges'>): Set<string> {
  if (version.processType !== 'sequential') return new Set();
  // The End node is no step: an agent step whose only next node is the End is a reply step.
  const ends = new Set(version.nodes.filter((n) => n.type === 'end').map((n) => n.id));
  const sources = new Set(version.edges.filter((edge) => !ends.has(edge.target)).map((edge) => edge.source));
  return new Set(version.nodes.filter((n) => n.type === 'agent' && !sources.has(n.id)).map((n) => n.id));
}

/**
 * One message of a chat (its page, its widget or the OpenAI-compatible endpoint): the app's rate
 * limits, the run it starts (trigger `chat`, untrusted unless a member writes), and its reply followed
 * to the end, streamed as the last agent step writes it.
 */
export function createChatTurns(deps: {
  executions: Pick<ExecutionsService, 'startRun' | 'waitForEnd'>;
  workflows: Pick<WorkflowsService, 'version'>;
  rateLimits: Pick<RateLimitRepository, 'take'>;
}) {
  const replyStepsOf = new Map<string, Promise<Set<string>>>();

  async function replyStepsOfRun(organizationId: string, run: Execution): Promise<Set<string>> {
    if (run.workflowVersion === null) return new Set();
    const key = `${run.workflowId}@${run.workflowVersion}`;
    let steps = replyStepsOf.get(key);
    if (!steps) {
      if (replyStepsOf.size >= REPLY_STEPS_CACHED) replyStepsOf.delete(replyStepsOf.keys().next().value!);
      steps = deps.workflows
        .version(organizationId, run.workflowId, run.workflowVersion)
        .then(replySteps)
        .catch(() => new Set<string>());
      replyStepsOf.set(key, steps);
    }
    return steps;
  }

  return {
    /**
     * Counts a message against the visitor's limit and the app's (429 with Retry-After past either):
     * the visitor's first, so one visitor's flood does not use up everyone's minute.
     */
    async admit(app: ChatApp, visitorId: string): Promise<void> {
      const what = (bucket: string, key: string, max: number) =>
        deps.rateLimits.take(bucket, key, max, RATE_WINDOW_SECONDS);
      for (const [bucket, key, max] of [
        ['chat-visitor', `${app.workflowId}|${visitorId}`, app.rateLimitPerMinute],
        ['chat-app', app.workflowId, app.appRateLimitPerMinute],
      ] as const) {
        const { allowed, oldest } = await what(bucket, key, max);
        if (!allowed) {
          const seconds = retryAfterSeconds(oldest, RATE_WINDOW_SECONDS);
          throw new TooManyRequestsError(chatMessages.tooMany(seconds), seconds);
        }
      }
    },

    /**
     * Starts the message's run of the app's workflow; `prepare` writes what goes with it in the run's
     * own transaction (the thread's message). A switched-off app or a workflow no longer active is
     * "switched off" (503); a plan limit or a spent cap is the 402 it is.
     */
    async start(
      app: ChatApp,
      input: ChatRunInput,
      visitor: ChatVisitor,
      options: { triggerDetail?: string | null; prepare?: PrepareRun } = {},
    ): Promise<Execution> {
      if (!app.enabled) throw new ServiceUnavailableError(chatMessages.off);
      try {
        return await deps.executions.startRun(
          {
            organizationId: app.organizationId,
            workflowId: app.workflowId,
            trigger: 'chat',
            triggerDetail: options.triggerDetail ?? null,
            triggeredBy: visitor.userId,
            input,
            // Anyone who is not a member of the organization is outside it.
            untrusted: visitor.userId === null,
          },
          options.prepare,
        );
      } catch (error) {
        if (error instanceof ConflictError && error.message !== executionMessages.draft) {
          throw new ServiceUnavailableError(chatMessages.off);
        }
        // Whichever cap is spent (the app's, the workflow's, the organization's), a visitor reads that
        // the chat is out of budget, never the organization's figures.
        if (error instanceof BudgetExceededError) throw new AppError(402, chatMessages.capReached);
        throw error;
      }
    },

    /**
     * Follows the run to its end, up to `timeoutMs`: `onDelta` gets the reply as its step writes it
     * (each piece continues the text so far; only the first reply step to write streams, and a piece
     * after a missed one is not sent, since the end answers the whole reply anyway).
     */
    async follow(
      app: ChatApp,
      run: Execution,
      options: { timeoutMs: number; signal?: AbortSignal; onDelta?: (text: string) => void },
    ): Promise<TurnOutcome> {
      const steps = options.onDelta ? await replyStepsOfRun(app.organizationId, run) : new Set<string>();
      let streaming: string | undefined;
      let written = 0;
      const ended = await deps.executions.waitForEnd(app.organizationId, run.id, {
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        onEvent(event) {
          if (event.type !== 'execution_node_delta') return;
          const step = event.baseNodeId ?? event.nodeId;
          if (!steps.has(step)) return;
          streaming ??= event.nodeId;
          if (event.nodeId !== streaming || event.offset !== written) return;
          written += event.text.length;
          options.onDelta!(event.text);
        },
      });
      if (!ended) return { run, status: 'pending', reply: null, metrics: null };
      if (ended.status === 'completed') {
        const reply = replyText(ended.result);
        return { run: ended, status: 'done', reply: reply || chatMessages.noReply, metrics: ended.metrics };
      }
      return { run: ended, status: 'failed', reply: failureText(ended.error), metrics: ended.metrics };
    },
  };
}
export type ChatTurns = ReturnType<typeof createChatTurns>;
