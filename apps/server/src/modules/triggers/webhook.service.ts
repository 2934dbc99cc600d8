import {
  WEBHOOK_WAIT_SECONDS,
  webhookMessages,
  type Execution,
  type RealtimeEvent,
  type WebhookSecret,
} from '@crewline/contracts';
import type { Config } from '../../platform/env';
import { ConflictError, NotFoundError, TooManyRequestsError, UnauthorizedError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { isUuid, requireUuid } from '../../platform/ids';
import type { RateLimitRepository } from '../auth/rate-limit.repository';
import type { ExecutionsService } from '../executions/executions.service';
import type { WorkflowsRepository } from '../workflows/workflows.repository';
import type { TriggersService } from './triggers.service';
import { generateWebhookSecret, webhookSecretMatches, type WebhookSecrets } from './webhook-secret';

/** The rate-limit bucket of webhook calls, keyed by workflow id. */
const WEBHOOK_BUCKET = 'webhook';
const WINDOW_SECONDS = 60;
/** While `?wait=true` waits on the bus, the run is also read this often in case an event was missed. */
const WAIT_POLL_MS = 2_000;

const ENDED = new Set<RealtimeEvent['type']>([
  'workflow_execution_completed',
  'workflow_execution_failed',
  'workflow_execution_cancelled',
]);
const isEnded = (execution: Execution) =>
  execution.status === 'completed' || execution.status === 'failed' || execution.status === 'cancelled';

export type WebhookCall = {
  workflowId: string;
  /** From the X-Webhook-Secret header or the `secret` query parameter. */
  secret: string | undefined;
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
  config: Pick<Config, 'publicUrl' | 'webhookMaxPerMinute'>;
  repository: WorkflowsRepository;
  secrets: WebhookSecrets;
  rateLimits: RateLimitRepository;
  triggers: TriggersService;
  executions: ExecutionsService;
  events: EventBus;
  /** Tests shorten the wait. */
  waitMs?: number;
}) {
  const { repository, secrets } = deps;
  const waitMs = deps.waitMs ?? WEBHOOK_WAIT_SECONDS * 1000;
  const urlOf = (workflowId: string) => `${deps.config.publicUrl}/api/webhooks/${workflowId}`;

  /** The organization's webhook workflow; another organization's is not found, another trigger is a 409. */
  async function ownWebhookWorkflow(organizationId: string, id: string) {
    const workflow = await repository.findForWebhook(requireUuid(id, webhookMessages.notFound));
    if (!workflow || workflow.organizationId !== organizationId)
      throw new NotFoundError(webhookMessages.notFound);
    if (workflow.triggerType !== 'webhook') throw new ConflictError(webhookMessages.notWebhook);
    return workflow;
  }

  async function store(organizationId: string, workflowId: string, secret: string): Promise<WebhookSecret> {
    if (
      !(await repository.setWebhookSecret(organizationId, workflowId, secrets.seal(organizationId, secret)))
    )
      throw new NotFoundError(webhookMessages.notFound);
    return { secret, url: urlOf(workflowId) };
  }

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
    while (!isEnded(current)) {
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

  return {
    urlOf,

    /** GET /api/workflows/:id/webhook-secret. A workflow saved before secrets were sealed gets its sealed one now. */
    async reveal(organizationId: string, id: string): Promise<WebhookSecret> {
      const workflow = await ownWebhookWorkflow(organizationId, id);
      const secret = secrets.open(organizationId, workflow);
      if (secret && workflow.sealed) return { secret, url: urlOf(workflow.id) };
      return store(organizationId, workflow.id, secret ?? generateWebhookSecret());
    },

    /** POST /api/workflows/:id/webhook-secret: a new random secret; the old one stops working at once. */
    async rotate(organizationId: string, id: string): Promise<WebhookSecret> {
      const workflow = await ownWebhookWorkflow(organizationId, id);
      return store(organizationId, workflow.id, generateWebhookSecret());
    },

    /**
     * POST /api/webhooks/:workflowId. Refusals start nothing: an unknown or non-webhook workflow is
     * 404, a wrong secret 401, an inactive workflow 409, a full minute 429. Statements: the lookup,
     * the rate limit, then the run's start.
     */
    async receive(call: WebhookCall): Promise<{ execution: Execution; finished: boolean }> {
      const workflow = isUuid(call.workflowId)
        ? await repository.findForWebhook(call.workflowId.toLowerCase())
        : undefined;
      if (!workflow || workflow.triggerType !== 'webhook') throw new NotFoundError(webhookMessages.notFound);
      const { organizationId } = workflow;
      let expected: string | undefined;
      try {
        expected = secrets.open(organizationId, workflow);
      } catch {
        // A sealed value that no longer opens (another key) matches no caller.
        expected = undefined;
      }
      if (!webhookSecretMatches(call.secret, expected))
        throw new UnauthorizedError(webhookMessages.badSecret);
      if (workflow.status !== 'active') throw new ConflictError(webhookMessages.notActive);

      const { allowed, oldest } = await deps.rateLimits.take(
        WEBHOOK_BUCKET,
        workflow.id,
        deps.config.webhookMaxPerMinute,
        WINDOW_SECONDS,
      );
      if (!allowed) {
        const retryAfter = Math.max(
          1,
          Math.ceil(((oldest?.getTime() ?? Date.now()) + WINDOW_SECONDS * 1000 - Date.now()) / 1000),
        );
        throw new TooManyRequestsError(webhookMessages.tooMany(retryAfter), retryAfter);
      }

      // Listening before the run exists: a fast run may end before fire() returns.
      const ended = new Set<string>();
      const onEnd: { target?: string; wake?: () => void } = {};
      const unsubscribe = call.wait
        ? deps.events.subscribe((event) => {
            if (event.organizationId !== organizationId || !ENDED.has(event.type)) return;
            if (!('executionId' in event)) return;
            ended.add(event.executionId);
            if (event.executionId === onEnd.target) onEnd.wake?.();
          })
        : undefined;
      try {
        const execution = await deps.triggers.fire({
          organizationId,
          workflowId: workflow.id,
          trigger: 'webhook',
          input: call.input,
        });
        if (!call.wait) return { execution, finished: false };
        const current = await waitForEnd(organizationId, execution, ended, onEnd);
        return { execution: current, finished: isEnded(current) };
      } finally {
        unsubscribe?.();
      }
    },
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
