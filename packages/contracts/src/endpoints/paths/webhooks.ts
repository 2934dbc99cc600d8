// The paths of `endpoints.webhooks` (index.ts says why they are apart from the descriptors).
export const secret = '/api/workflows/:id/webhook-secret';
export const trigger = '/api/webhooks/:workflowId';
