// The paths of `endpoints.billing` (index.ts says why they are apart from the descriptors).
export const status = '/api/subscription-status';
export const config = '/api/billing/config';
export const subscribe = '/api/create-subscription';
export const cancel = '/api/cancel-subscription';
export const invoices = '/api/billing/invoices';
export const setupIntent = '/api/billing/setup-intent';
export const stripeWebhook = '/api/stripe/webhook';
