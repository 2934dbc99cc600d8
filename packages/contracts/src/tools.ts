import { z } from 'zod';
import { toolCategoryValues, type ToolCategory } from './vocabulary/tool-categories';

export const toolCategorySchema = z.enum(toolCategoryValues);

/** Configuration keys whose values are credentials: encrypted at rest, answered as a mask. */
export const SECRET_CONFIG_KEYS = [
  'apiKey',
  'connectionString',
  'password',
  'token',
  'secret',
  'headerValue',
] as const;

/**
 * Configuration keys that say where a tool's requests go and what they carry besides their body. They
 * and the credentials are one unit (docs/security.md, Credentials): a change of any of them, or of the
 * category, drops the stored credentials unless new ones come in the same request.
 */
export const DESTINATION_CONFIG_KEYS = [
  'baseUrl',
  'url',
  'host',
  'port',
  'headers',
  'authHeader',
  'headerName',
] as const;

/** A destination value as compared: text trimmed, an empty one the same as none. */
const destinationValue = (value: unknown) => {
  const text = typeof value === 'string' ? value.trim() : value;
  return text === '' || text === null || text === undefined ? '' : JSON.stringify(text);
};

/**
 * Whether an update (`PUT /api/tools/:id`) moves a tool's credentials elsewhere: another category
 * (SendGrid, Pinecone and custom tools each imply their own address) or another value of a destination
 * key. The server then keeps only the credentials sent with it; the edit form asks for them again.
 */
export function movesToolDestination(
  existing: { category: ToolCategory; config: Record<string, unknown> },
  update: { category?: ToolCategory | null; config?: Record<string, unknown> | null },
): boolean {
  if (update.category && update.category !== existing.category) return true;
  const config = update.config;
  if (!config) return false;
  return DESTINATION_CONFIG_KEYS.some(
    (key) => destinationValue(existing.config[key]) !== destinationValue(config[key]),
  );
}

/**
 * Names (lower case, without `-` and `_`) of credentials, as the server's logger reads them. These
 * rules (this pattern, DESTINATION_NAME and normalName) have a copy in SQL: the migration
 * 0024_scrub_link_credentials.sql applies the same rules to links stored before them.
 */
const CREDENTIAL_NAME =
  /password|passwd|passphrase|secret|(?:token|apikey|accesskey|privatekey|authorization|credentials?|connectionstring|databaseurl|headervalue)$|^(?:key|pwd|pass|auth)$/;
/** Names of a destination or of headers, at the top of a link's config (where the runtime reads them). */
const DESTINATION_NAME = /^(?:baseurl|url|uri|endpoint|host|hostname|port|headers?|authheader|headername)$/;
const normalName = (key: string) => key.toLowerCase().replace(/[-_]/g, '');

export const linkConfigMessages = {
  credential: (field: string) =>
    `An agent's tool settings cannot hold credentials ("${field}"): set them on the tool itself.`,
  destination: (field: string) =>
    `An agent's tool settings cannot change where the tool connects or its headers ("${field}"): set them on the tool itself.`,
};

export type LinkConfigIssue = { path: string[]; message: string };

/**
 * What an agent-tool link's `config` may not hold: a link narrows what its tool does (parameters), it
 * never brings credentials (at any depth: they would be stored and shown in clear) nor changes the
 * tool's destination or headers (top-level keys, which the runtime would read).
 */
export function linkConfigIssues(config: Record<string, unknown>): LinkConfigIssue[] {
  const issues: LinkConfigIssue[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (!value || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      const at = [...path, key];
      if (CREDENTIAL_NAME.test(normalName(key))) {
        issues.push({ path: at, message: linkConfigMessages.credential(at.join('.')) });
      } else if (path.length === 0 && DESTINATION_NAME.test(normalName(key))) {
        issues.push({ path: at, message: linkConfigMessages.destination(key) });
      } else {
        walk(inner, at);
      }
    }
  };
  walk(config, []);
  return issues;
}

/**
 * A link's config without what it may not hold (links stored before the rule): what the runtime
 * applies over the tool's settings, and what the API shows.
 */
export function usableLinkConfig(config: Record<string, unknown>): Record<string, unknown> {
  const clean = (value: unknown, top: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => clean(item, false));
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(
          ([key]) =>
            !CREDENTIAL_NAME.test(normalName(key)) && !(top && DESTINATION_NAME.test(normalName(key))),
        )
        .map(([key, inner]) => [key, clean(inner, false)]),
    );
  };
  return clean(config, true) as Record<string, unknown>;
}

/** An HTTP header's name (RFC 9110 token characters). */
const headerName = z
  .string()
  .trim()
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, {
    message: 'Enter a header name such as Authorization or X-API-Key',
  });

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
  /**
   * A remote MCP server (Streamable HTTP; docs/security.md says why there is no stdio): its URL, the
   * server's tools the organization allows (all when absent), how long one call may take, and the
   * header its credential goes in (the value is `headerValue`, sealed like every credential).
   */
  mcp: z.looseObject({
    url: httpUrl,
    auth: z
      .enum(['none', 'header', 'oauth'], { message: 'Authentication is none, header or oauth' })
      .optional(),
    enabledTools: z.array(z.string().min(1).max(200)).max(500).optional(),
    timeoutSeconds: z
      .number({ message: 'Timeout must be a number of seconds' })
      .int()
      .min(1, { message: 'Timeout must be between 1 and 600 seconds' })
      .max(600, { message: 'Timeout must be between 1 and 600 seconds' })
      .optional(),
    headerName: headerName.optional(),
    headerValue: z.string().max(8000).optional(),
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

/**
 * An MCP server's credential, apart from its config as the API describes it: `{ headerName?,
 * headerValue? }` (a bearer token is `Authorization` and `Bearer …`). The server keeps them with the
 * config (the value sealed); `withToolCredentials` puts them there.
 */
export const toolCredentialsSchema = z.object({
  headerName: headerName.optional(),
  headerValue: z.string().max(8000).optional(),
});

/** The body's `credentials` moved into its config, where the tool keeps them. */
export function withToolCredentials<T extends { config?: Record<string, unknown>; credentials?: unknown }>(
  body: T,
): Omit<T, 'credentials'> {
  const { credentials, ...rest } = body;
  const given = (credentials ?? {}) as Record<string, unknown>;
  if (!Object.keys(given).length) return rest;
  return { ...rest, config: { ...(rest.config ?? {}), ...given } };
}

function checkCategoryConfig(
  value: { category?: ToolCategory; config?: Record<string, unknown>; credentials?: Record<string, unknown> },
  ctx: z.RefinementCtx,
) {
  const schema = value.category && categoryConfigSchemas[value.category];
  if (!schema || !value.config) return;
  const result = schema.safeParse({ ...value.config, ...(value.credentials ?? {}) });
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
    credentials: toolCredentialsSchema.optional(),
  })
  .superRefine(checkCategoryConfig);
export type CreateToolInput = z.input<typeof createToolSchema>;

/** PUT /api/tools/:id — the create body, or any part of it. */
export const updateToolSchema = z
  .object({ ...toolFields, credentials: toolCredentialsSchema })
  .partial()
  .superRefine(checkCategoryConfig);
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

/**
 * When an agent's call of a tool waits for a person's approval (docs/product-rules.md, People in the
 * loop): `never`, `always`, or `writes` — the calls the tool says write (HTTP methods other than GET
 * and HEAD, email sends, file writes). New links default to `writes`.
 */
export const toolApprovalValues = ['never', 'always', 'writes'] as const;
export type ToolApprovalPolicy = (typeof toolApprovalValues)[number];
export const toolApprovalSchema = z.enum(toolApprovalValues);

export const agentToolLinkSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  toolId: z.string(),
  tool: z.object({ name: z.string(), description: z.string().nullable(), category: toolCategorySchema }),
  isEnabled: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  approval: toolApprovalSchema,
  createdAt: z.string(),
});
export type AgentToolLink = z.infer<typeof agentToolLinkSchema>;

/** A link's config is checked like a tool's fields: 400 naming the first field it may not hold. */
const linkConfigSchema = z.record(z.string(), z.unknown()).superRefine((config, ctx) => {
  for (const issue of linkConfigIssues(config))
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});

export const connectToolSchema = z.object({
  config: linkConfigSchema.default({}),
  approval: toolApprovalSchema.default('writes'),
});
/** The web app's switch sends isEnabled inside config; a top-level isEnabled is accepted too. */
export const updateAgentToolSchema = z.object({
  config: linkConfigSchema.optional(),
  isEnabled: z.boolean().optional(),
  approval: toolApprovalSchema.optional(),
});
export const agentToolParamsSchema = z.object({ agentId: z.string(), toolId: z.string() });
