import { z } from 'zod';

/** Every organization API key starts with this, so a leaked one is easy to recognise and scan for. */
export const API_KEY_PREFIX = 'crw_';

export const apiKeyMessages = {
  invalid: 'Invalid or expired API key',
  sessionOnly: 'API keys cannot call this route: it needs a signed-in user',
  notFound: 'API key not found',
  expiryInPast: 'The expiry must be in the future',
  tooMany: 'Too many requests with this API key.',
} as const;

/** POST /api/organizations/:orgId/api-keys */
export const createApiKeySchema = z.object({
  name: z.string().trim().min(1, { message: 'Name is required' }).max(100),
  /** ISO time; none means the key does not expire. */
  expiresAt: z.iso.datetime({ offset: true, message: 'Expiry must be an ISO date and time' }).nullish(),
});
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** A key as listed: never the key itself, only its first characters. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer of a create: the key itself, shown this once. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyParamsSchema = z.object({ orgId: z.string(), id: z.string() });
