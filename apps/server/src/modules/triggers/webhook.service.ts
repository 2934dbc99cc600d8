import {
  isRunEnded,
  WEBHOOK_FAILURE_WINDOW_SECONDS,
  WEBHOOK_MAX_FAILURES,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_WAIT_SECONDS,
  webhookMessages,
  type Execution,
  type RealtimeEvent,
  type WebhookSecret,
} from '@crewline/contracts';
import type { Config } from '../../platform/env';
import { ConflictError, TooManyRequestsError, UnauthorizedError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';
import { isUuid } from '../../platform/ids';
import type { RequestActor } from '../../platform/request-actor';
import { retryAfterSeconds, type RateLimitRepository } from '../../platform/rate-limit.repository';
import type { ExecutionsService } from '../executions/executions.service';
import type { WebhookSecretsService } from '../workflows/webhook-secrets.service';
import type { TriggersService } from './triggers.service';
import { checkWebhookSignature } from './webhook-signature';
import type { WebhookSignaturesRepository } from './webhook-signatures.repository';

/** The rate-limit bucket of webhook calls, keyed by workflow id. */
const WEBHOOK_BUCKET = 'webhook';
const WINDOW_SECONDS = 60;
/** Refused calls, keyed by the id called (a real workflow's or not: the answers must not differ). */
const FAILURE_BUCKET = 'webhook_failure';
/** The one key of every id that is not a UUID (no workflow has one). */
const NOT_AN_ID = 'not-a-uuid';
/**
 * A seen signature is kept past its call's tolerance window by as much again, so that clocks of API
 * processes a little apart never let a replay through before the row goes.
 */
const SEEN_FOR_MS = 2 * WEBHOOK_SIGNATURE_TOLERANCE_SECONDS * 1000;
/** How often a process deletes expired seen signatures, on the way of a call. */
const PRUNE_EVERY_MS = 60_000;
/** While `?wait=true` waits on the bus, the run is also read this often in case an event was missed. */
const WAIT_POLL_MS = 2_000;

const ENDED = new Set<RealtimeEvent['type']>([
  'workflow_execution_completed',
  'workflow_execution_failed',
  'workflow_execution_cancelled',
]);

export type WebhookCall = {
  workflowId: string;
  /** From the X-Webhook-Secret header or the `secret` query parameter. */
  secret: string | undefined;
  /** A signed call's X-Crewline-Timestamp and X-Crewline-Signature, and the body's bytes they sign. */
  signed?: { timestamp: string | undefined; signature: string | undefined; body: Buffer };
  input: Record<string, unknown>;
  /** Wait (up to WEBHOOK_WAIT_SECONDS) for the run to end. */
  wait: boolean;
};

/**
 * The webhook trigger (docs/product-rules.md, Webhook trigger): reveals and rotates a workflow's
 * secret for its members, and turns an authenticated call of the public route into a run through the
 * triggers service.
 */
export function createWebhookService(deps: {
  config: Pick<Config, 'webhookMaxPerMinute'>;
  /** The workflows module keeps the secrets (reveal, rotate, and the one a call must prove). */
  secrets: WebhookSecretsService;
  rateLimits: RateLimitRepository;
  signatures: WebhookSignaturesRepository;
  triggers: TriggersService;
  executions: ExecutionsService;
  events: EventBus;
  /** Tests shorten the wait. */
  waitMs?: number;
  /** The time signed calls are checked against (tests move it). */
  clock?: () => Date;
}) {
  const { secrets } = deps;
  const now = deps.clock ?? (() => new Date());
  let prunedAt = 0;
  const waitMs = deps.waitMs ?? WEBHOOK_WAIT_SECONDS * 1000;

  /** Resolves with the run once it ended, or with its state when `waitMs` passed first. */
  async function waitForEnd(
    organizationId: string,
    execution: Execution,
    ended: Set<string>,
    onEnd: { target?: string; wake?: () => void },
  ): Promise<Execution> {
    onEnd.target = execution.id;
    const deadline = Date.now() + waitMs;
    let current = execution;
    while (!isRunEnded(current.status)) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      // An end event for this run reads it at once (and only once); otherwise wait for one, or poll.
      if (!ended.delete(execution.id)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(WAIT_POLL_MS, left));
          onEnd.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        onEnd.wake = undefined;
      }
      current = await deps.executions.get(organizationId, execution.id);
    }
    return current;
  }

  /**
   * A refused call: counted, then 401 (the same for every reason), or 429 once the id's refused calls
   * fill the window. A right secret is never refused for them: whoever knows a workflow's id (it is in
   * its URL) could otherwise stop its callers, and a 256-bit secret is not guessed at any rate.
   */
  async function refuse(failureKey: string): Promise<never> {
    const { allowed, oldest } = await deps.rateLimits.take(
      FAILURE_BUCKET,
      failureKey,
      WEBHOOK_MAX_FAILURES,
      WEBHOOK_FAILURE_WINDOW_SECONDS,
    );
    if (!allowed) {
      const seconds = retryAfterSeconds(oldest, WEBHOOK_FAILURE_WINDOW_SECONDS);
      throw new TooManyRequestsError(webhookMessages.tooManyFailures(seconds), seconds);
    }
    throw new UnauthorizedError(webhookMessages.badSecret);
  }

  /**
   * Whether the call proves it knows the workflow's secret: by naming it, or for a signed workflow
   * by a fresh signature not seen before (then recorded, so the same call is refused next time).
   */
  async function authenticated(
    workflow: { id: string; signed: boolean },
    expected: string | undefined,
    call: WebhookCall,
  ): Promise<boolean> {
    if (!workflow.signed) return secrets.matches(call.secret, expected);
    const checked = checkWebhookSignature({
      secret: expected,
      timestamp: call.signed?.timestamp,
      signature: call.signed?.signature,
      body: call.signed?.body ?? Buffer.alloc(0),
      now: now(),
    });
    if (!checked.ok) return false;
    if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      void deps.signatures.prune().catch(() => undefined);
    }
    const expiresAt = new Date(checked.timestamp * 1000 + SEEN_FOR_MS);
    return deps.signatures.remember(workflow.id, checked.signature, expiresAt);
  }

  return {
    urlOf: secrets.urlOf,

    /** GET /api/workflows/:id/webhook-secret (kept by the workflows module, webhook-secrets.service.ts). */
    reveal: (organizationId: string, id: string, actor: RequestActor): Promise<WebhookSecret> =>
      secrets.reveal(organizationId, id, actor),

    /** POST /api/workflows/:id/webhook-secret: a new random secret; the old one stops working at once. */
    rotate: (organizationId: string, id: string, actor: RequestActor): Promise<WebhookSecret> =>
      secrets.rotate(organizationId, id, actor),

    /**
     * POST /api/webhooks/:workflowId. Refusals start nothing: an unknown or non-webhook workflow, a
     * wrong secret or a refused signature is the same 401 and counts toward the id's refused calls
     * (429 for refused calls while WEBHOOK_MAX_FAILURES fill the window); an inactive workflow 409, a
     * full minute 429. Statements: the lookup, (a signed call's seen signature,) the rate limit, then
     * the run's start.
     */
    async receive(call: WebhookCall): Promise<{ execution: Execution; finished: boolean }> {
      const id = isUuid(call.workflowId) ? call.workflowId.toLowerCase() : undefined;
      const failureKey = id ?? NOT_AN_ID;
      const found = id ? await secrets.forCall(id) : undefined;
      if (!found || found.workflow.triggerType !== 'webhook') return refuse(failureKey);
      // A sealed value that no longer opens (another key) is no expected secret: it matches no caller.
      const { workflow, expected } = found;
      const { organizationId } = workflow;
      if (!(await authenticated(workflow, expected, call))) return refuse(failureKey);
      if (workflow.status !== 'active') throw new ConflictError(webhookMessages.notActive);

      const { allowed, oldest } = await deps.rateLimits.take(
        WEBHOOK_BUCKET,
        workflow.id,
        deps.config.webhookMaxPerMinute,
        WINDOW_SECONDS,
      );
      if (!allowed) {
        const seconds = retryAfterSeconds(oldest, WINDOW_SECONDS);
        throw new TooManyRequestsError(webhookMessages.tooMany(seconds), seconds);
      }

      // Listening before the run exists: a fast run may end before fire() returns.
      const ended = new Set<string>();
      const onEnd: { target?: string; wake?: () => void } = {};
      const unsubscribe = call.wait
        ? deps.events.listen(channels.events, {
            onNotify(batch) {
              for (const event of batch) {
                if (event.organizationId !== organizationId || !ENDED.has(event.type)) continue;
                if (!('executionId' in event)) continue;
                ended.add(event.executionId);
                if (event.executionId === onEnd.target) onEnd.wake?.();
              }
            },
          })
        : undefined;
      try {
        const execution = await deps.triggers.fire({
          organizationId,
          workflowId: workflow.id,
          trigger: 'webhook',
          input: call.input,
          // A signature proves who sent this very body; a secret alone only that the caller knows it
          // (it may sit in a third party's configuration, or leak): such a run is untrusted.
          untrusted: !workflow.signed,
        });
        if (!call.wait) return { execution, finished: false };
        const current = await waitForEnd(organizationId, execution, ended, onEnd);
        return { execution: current, finished: isRunEnded(current.status) };
      } finally {
        unsubscribe?.();
      }
    },
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
