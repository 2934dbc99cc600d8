import { z } from 'zod';
import { toolCategoryValues } from './enums';

export const toolCategorySchema = z.enum(toolCategoryValues);
export type ToolCategory = z.infer<typeof toolCategorySchema>;

export const toolCategoryLabels: Record<ToolCategory, string> = {
  web: 'Web Tools',
  vector_store: 'Vector Store',
  api: 'API Integration',
  file: 'File Operations',
  communication: 'Communication',
  database: 'Database',
  ai: 'AI Services',
  custom: 'Custom',
};

/** Configuration keys whose values are credentials: encrypted at rest, answered as a mask. */
export const SECRET_CONFIG_KEYS = ['apiKey', 'connectionString', 'password', 'token', 'secret'] as const;

const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), {
    message: 'Enter a URL starting with http:// or https://',
  });

/** Category-specific configuration fields; other categories take a free JSON object (docs/product-rules.md). */
const categoryConfigSchemas: Partial<Record<ToolCategory, z.ZodType>> = {
  api: z.looseObject({ baseUrl: httpUrl.optional(), apiKey: z.string().optional() }),
  web: z.looseObject({ baseUrl: httpUrl.optional(), apiKey: z.string().optional() }),
  custom: z.looseObject({ url: httpUrl.optional() }),
  database: z.looseObject({
    connectionString: z
      .string()
      .trim()
      .refine((v) => v === '' || /^postgres(ql)?:\/\//.test(v) || v.startsWith('••'), {
        message: 'Enter a PostgreSQL connection string (postgres://user:password@host:5432/database)',
      })
      .optional(),
    schema: z.string().trim().max(63).optional(),
  }),
  vector_store: z.looseObject({
    /** The organization's own store: one of its knowledge bases (else a Pinecone index). */
    knowledgeBaseId: z.string().uuid({ message: 'Choose one of your knowledge bases' }).optional(),
    /** A Pinecone index: its name, its vectors' length and the project's API key. */
    indexName: z.string().trim().max(200).optional(),
    dimensions: z.number({ message: 'Dimensions must be a number' }).int().positive().max(100_000).optional(),
    apiKey: z.string().optional(),
    /** The index's namespace to search (Pinecone's default namespace when absent). */
    namespace: z.string().trim().max(200).optional(),
    /** Which of the organization's connections embeds the queries, with which model (OpenAI text-embedding-3-small by default). */
    embeddingProvider: z
      .enum(['openai', 'local', 'custom'], { message: 'Embeddings come from openai, local or custom' })
      .optional(),
    embeddingModel: z.string().trim().max(200).optional(),
  }),
};

const toolFields = {
  name: z.string().trim().min(1, { message: 'Tool Name is required' }).max(100),
  description: z.string().trim().max(2000).nullish(),
  category: toolCategorySchema,
  provider: z.string().trim().max(100).nullish(),
  config: z.record(z.string(), z.unknown()),
  isActive: z.boolean(),
};

function checkCategoryConfig(
  value: { category?: ToolCategory; config?: Record<string, unknown> },
  ctx: z.RefinementCtx,
) {
  const schema = value.category && categoryConfigSchemas[value.category];
  if (!schema || !value.config) return;
  const result = schema.safeParse(value.config);
  if (!result.success) {
    for (const issue of result.error.issues)
      ctx.addIssue({ ...issue, path: ['config', ...issue.path] } as never);
  }
}

/** POST /api/tools — new tools default to the web category. */
export const createToolSchema = z
  .object({
    ...toolFields,
    category: toolFields.category.default('web'),
    config: toolFields.config.default({}),
    isActive: toolFields.isActive.default(true),
  })
  .superRefine(checkCategoryConfig);
export type CreateToolInput = z.input<typeof createToolSchema>;

/** PUT /api/tools/:id — the create body, or any part of it. */
export const updateToolSchema = z.object(toolFields).partial().superRefine(checkCategoryConfig);
export type UpdateToolInput = z.input<typeof updateToolSchema>;

export const toolSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  category: toolCategorySchema,
  provider: z.string().nullable(),
  /** Secrets appear only as a mask; sending the mask back keeps the stored value. */
  config: z.record(z.string(), z.unknown()),
  isActive: z.boolean(),
  organizationId: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tool = z.infer<typeof toolSchema>;

/** POST /api/tools/:id/test — whether a Vector Store tool can search, in words a user reads. */
export const toolTestResultSchema = z.object({ ok: z.boolean(), message: z.string() });
export type ToolTestResult = z.infer<typeof toolTestResultSchema>;

export const agentToolLinkSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  toolId: z.string(),
  tool: z.object({ name: z.string(), description: z.string().nullable(), category: toolCategorySchema }),
  isEnabled: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AgentToolLink = z.infer<typeof agentToolLinkSchema>;

export const connectToolSchema = z.object({ config: z.record(z.string(), z.unknown()).default({}) });
/** The web app's switch sends isEnabled inside config; a top-level isEnabled is accepted too. */
export const updateAgentToolSchema = z.object({
  config: z.record(z.string(), z.unknown()).optional(),
  isEnabled: z.boolean().optional(),
});
export const agentToolParamsSchema = z.object({ agentId: z.string(), toolId: z.string() });
