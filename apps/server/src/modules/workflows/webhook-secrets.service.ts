import { webhookMessages, type WebhookSecret } from '@crewline/contracts';
import type { Config } from '../../platform/env';
import { ConflictError, NotFoundError } from '../../platform/errors';
import { requireUuid } from '../../platform/ids';
import type { RequestActor } from '../../platform/request-actor';
import type { WorkflowsRepository } from './workflows.repository';
import { generateWebhookSecret, webhookSecretMatches, type WebhookSecrets } from './webhook-secret';

/**
 * A webhook workflow's secret (docs/product-rules.md, Webhook trigger), kept by the workflows module
 * that owns the row: revealed and rotated for its members, and opened for the public route's calls
 * (modules/triggers/webhook.service.ts), which never touch the workflows table themselves.
 */
export function createWebhookSecretsService(deps: {
  config: Pick<Config, 'publicUrl'>;
  repository: Pick<WorkflowsRepository, 'findForWebhook' | 'setWebhookSecret'>;
  secrets: WebhookSecrets;
}) {
  const { repository, secrets } = deps;
  const urlOf = (workflowId: string) => `${deps.config.publicUrl}/api/webhooks/${workflowId}`;

  /** The organization's webhook workflow; another organization's is not found, another trigger is a 409. */
  async function ownWebhookWorkflow(organizationId: string, id: string) {
    const workflow = await repository.findForWebhook(requireUuid(id, webhookMessages.notFound));
    if (!workflow || workflow.organizationId !== organizationId)
      throw new NotFoundError(webhookMessages.notFound);
    if (workflow.triggerType !== 'webhook') throw new ConflictError(webhookMessages.notWebhook);
    return workflow;
  }

  /** Stores the secret sealed; `audited` says which change the audit log records (none: only sealed). */
  async function store(
    organizationId: string,
    workflowId: string,
    secret: string,
    audited?: { actor: RequestActor; change: 'generated' | 'rotated' },
  ): Promise<WebhookSecret> {
    const sealed = secrets.seal(organizationId, secret);
    if (!(await repository.setWebhookSecret(organizationId, workflowId, sealed, audited)))
      throw new NotFoundError(webhookMessages.notFound);
    return { secret, url: urlOf(workflowId) };
  }

  return {
    urlOf,

    /** GET /api/workflows/:id/webhook-secret. A workflow saved before secrets were sealed gets its sealed one now. */
    async reveal(organizationId: string, id: string, actor: RequestActor): Promise<WebhookSecret> {
      const workflow = await ownWebhookWorkflow(organizationId, id);
      const secret = secrets.open(organizationId, workflow);
      if (secret && workflow.sealed) return { secret, url: urlOf(workflow.id) };
      // A plaintext secret from before is only sealed (the same secret): a new one is audited.
      if (secret) return store(organizationId, workflow.id, secret);
      return store(organizationId, workflow.id, generateWebhookSecret(), { actor, change: 'generated' });
    },

    /** POST /api/workflows/:id/webhook-secret: a new random secret; the old one stops working at once. */
    async rotate(organizationId: string, id: string, actor: RequestActor): Promise<WebhookSecret> {
      const workflow = await ownWebhookWorkflow(organizationId, id);
      return store(organizationId, workflow.id, generateWebhookSecret(), { actor, change: 'rotated' });
    },

    /**
     * The workflow a webhook call names (any organization's: the route is public) and the secret the
     * call must prove it knows; `expected` is undefined when it has none or its sealed value no longer
     * opens (another key), so it matches no caller. One statement.
     */
    async forCall(id: string) {
      const workflow = await repository.findForWebhook(id);
      if (!workflow) return undefined;
      let expected: string | undefined;
      try {
        expected = secrets.open(workflow.organizationId, workflow);
      } catch {
        expected = undefined;
      }
      return { workflow, expected };
    },

    /** Whether the secret a caller sent is the expected one, in constant time. */
    matches: (given: string | undefined, expected: string | undefined) =>
      webhookSecretMatches(given, expected),
  };
}
export type WebhookSecretsService = ReturnType<typeof createWebhookSecretsService>;
