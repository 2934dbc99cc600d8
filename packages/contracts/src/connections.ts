import { z } from 'zod';

/**
 * Organization-wide connections (the Tools tab of Profile & Settings, docs/product-rules.md).
 * local_config and custom_config hold the address of a local or custom OpenAI-compatible server.
 */
export const connectionIds = [
  'openai_config',
  'anthropic_config',
  'local_config',
  'custom_config',
  'database_config',
  'sendgrid_config',
] as const;
export const connectionIdSchema = z.enum(connectionIds);
export type ConnectionId = z.infer<typeof connectionIdSchema>;

const optionalUrl = z
  .string()
  .trim()
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), {
    message: 'Enter a URL starting with http:// or https://',
  })
  // Paths are appended to it (`/chat/completions`, `/v3/mail/send`): a query or fragment would move
  // them elsewhere on the server, a user name would carry a credential outside the key's field.
  .refine((v) => !/[?#]/.test(v) && !/^https?:\/\/[^/]*@/i.test(v), {
    message: 'Enter the address without ?, # or a user name',
  })
  .optional();
const text = (max = 200) => z.string().trim().max(max).optional();

export const connectionFields = {
  openai_config: z.object({ defaultModel: text(), baseUrl: optionalUrl, apiKey: text(500) }),
  anthropic_config: z.object({ defaultModel: text(), baseUrl: optionalUrl, apiKey: text(500) }),
  local_config: z.object({ defaultModel: text(), baseUrl: optionalUrl }),
  custom_config: z.object({ defaultModel: text(), baseUrl: optionalUrl, apiKey: text(500) }),
  database_config: z.object({
    host: text(),
    port: z.number().int().min(1).max(65535).optional(),
    database: text(),
    username: text(),
    password: text(500),
    ssl: z.enum(['disable', 'require', 'prefer']).optional(),
  }),
  sendgrid_config: z.object({
    fromEmail: z.union([z.literal(''), z.email({ message: 'Invalid email address' })]).optional(),
    fromName: text(),
    apiKey: text(500),
    baseUrl: optionalUrl,
  }),
} satisfies Record<ConnectionId, z.ZodType>;

export const connectionSchema = z.object({
  id: connectionIdSchema,
  /** Secrets appear only as a mask. */
  config: z.record(z.string(), z.unknown()),
  isActive: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type Connection = z.infer<typeof connectionSchema>;

/** PUT /api/tools/configurations/:id — `{ config?, isActive? }`; the active toggle sends only isActive. */
export const updateConnectionSchema = z.object({
  config: z.record(z.string(), z.unknown()).optional(),
  isActive: z.boolean().optional(),
});

/**
 * GET /api/llm/providers — `defaultModel` is what a new agent starts with ('' when the user must
 * choose). `listError`, for Local and Custom only, says why their server's models are not listed
 * (`models` are then mere suggestions, and the form takes any name).
 */
export const providerCatalogueSchema = z.record(
  z.string(),
  z.object({
    name: z.string(),
    models: z.array(z.string()),
    defaultModel: z.string(),
    listError: z.string().optional(),
  }),
);
