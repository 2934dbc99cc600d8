import { z } from 'zod';
import { executionStatusSchema } from './executions';

/** GET and POST /api/workflows/:id/webhook-secret: the secret in full and the URL callers post to. */
export const webhookSecretSchema = z.object({ secret: z.string(), url: z.string() });
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

/** Where callers put the secret: this header, or the `secret` query parameter. */
export const WEBHOOK_SECRET_HEADER = 'X-Webhook-Secret';

/**
 * Signed calls (a workflow whose trigger configuration has `signed: true`): the caller sends the time
 * of the call in unix seconds and `v1=` followed by the hex HMAC-SHA256, keyed with the workflow's
 * secret, of `<timestamp>.<raw body>`. A call more than the tolerance away from now (either way), a
 * signature seen before or a wrong one is refused like a wrong secret.
 */
export const WEBHOOK_TIMESTAMP_HEADER = 'X-Crewline-Timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'X-Crewline-Signature';
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Refused calls (wrong secret or signature, unknown workflow) count per workflow id: past this many in
 * the window, every call to that id answers 429 until the window has room again.
 */
export const WEBHOOK_MAX_FAILURES = 20;
export const WEBHOOK_FAILURE_WINDOW_SECONDS = 600;

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

/**
 * The webhook route's refusals (docs/product-rules.md, Webhook trigger). An unknown workflow, one not
 * started by a webhook, a wrong secret and a refused signature all answer 401 `badSecret`, so a caller
 * cannot tell which ids are webhook workflows; `notFound` is for members revealing a secret.
 */
export const webhookMessages = {
  notFound: 'Workflow not found',
  badSecret: 'Missing or invalid webhook secret',
  notActive: 'Workflow is not active',
  notWebhook: 'This workflow is not started by a webhook: set its trigger to Webhook and save it first',
  tooMany: (seconds: number) =>
    `Too many webhook calls for this workflow; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
  tooManyFailures: (seconds: number) =>
    `Too many refused webhook calls for this workflow; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
} as const;
