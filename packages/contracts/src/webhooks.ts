import { z } from 'zod';
import { executionStatusSchema } from './executions';

/** GET and POST /api/workflows/:id/webhook-secret: the secret in full and the URL callers post to. */
export const webhookSecretSchema = z.object({ secret: z.string(), url: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

/** Where callers put the secret: this header, or the `secret` query parameter. */
export const WEBHOOK_SECRET_HEADER = 'X-Webhook-Secret';

/** How long `?wait=true` waits for the run to end before answering 202 anyway. */
export const WEBHOOK_WAIT_SECONDS = 30;

/** POST /api/webhooks/:workflowId's query. */
export const webhookQuerySchema = z.object({
  secret: z.string().optional(),
  wait: z.enum(['true', 'false', '1', '0']).optional(),
});

/**
 * POST /api/webhooks/:workflowId: 202 `{ executionId, status }` as soon as the run is queued (or when
 * `?wait=true` waited in vain); 200 with the run's output map (node id → output) once it ended.
 */
export const webhookAcceptedSchema = z.object({ executionId: z.string(), status: executionStatusSchema });
export const webhookFinishedSchema = webhookAcceptedSchema.extend({
  output: z.record(z.string(), z.unknown()),
  /** Why the run failed, when it did. */
  error: z.string().optional(),
});
export type WebhookAccepted = z.infer<typeof webhookAcceptedSchema>;
export type WebhookFinished = z.infer<typeof webhookFinishedSchema>;

/** The webhook route's refusals (docs/product-rules.md, Webhook trigger). */
export const webhookMessages = {
  notFound: 'Workflow not found',
  badSecret: 'Missing or invalid webhook secret',
  notActive: 'Workflow is not active',
  notWebhook: 'This workflow is not started by a webhook: set its trigger to Webhook and save it first',
  tooMany: (seconds: number) =>
    `Too many webhook calls for this workflow; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
} as const;
