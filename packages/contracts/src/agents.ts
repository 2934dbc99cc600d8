import { z } from 'zod';
import { formatNumber } from './format-number';
import { agentStatusValues, llmProviderValues } from './enums';
import { DEFAULT_LLM_PROVIDER } from './vocabulary/providers';
import { STEP_TOOL_RESULT_LIMIT, stepRetrievalSchema, tokenUsageSchema } from './executions';
import { DEFAULT_EMBEDDING_MODEL, embeddingProviderSchema } from './knowledge';
import { agentMemorySettingsSchema, type AgentMemorySettings } from './memory';
import { outputSchemaProblem } from './node-kinds/agent';
import { agentGuardrailsSchema } from './node-kinds/guardrail';

export const agentStatusSchema = z.enum(agentStatusValues);

/**
 * The JSON Schema an agent's answers follow unless a workflow node declares its own: an object
 * schema (what providers' structured output takes). The server also checks that it compiles.
 */
export const agentOutputSchema = z
  .record(z.string(), z.unknown(), { message: 'The output schema must be a JSON object' })
  .superRefine((schema, ctx) => {
    const problem = outputSchemaProblem(schema);
    if (problem) ctx.addIssue({ code: 'custom', message: `The output schema ${problem}` });
  });
export const llmProviderSchema = z.enum(llmProviderValues);

/** An agent as the API answers it. */
export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  role: z.string(),
  goal: z.string(),
  backstory: z.string().nullable(),
  llmProvider: llmProviderSchema,
  llmModel: z.string(),
  temperature: z.number().int(),
  maxTokens: z.number().int(),
  systemPrompt: z.string().nullable(),
  tools: z.array(z.unknown()),
  status: agentStatusSchema,
  templateCategory: z.string().nullable(),
  templateTags: z.array(z.string()),
  /** Free-form: stored and answered as sent. */
  config: z.record(z.string(), z.unknown()),
  memory: agentMemorySettingsSchema,
  /** The JSON Schema its answers follow (a node's own replaces it); null when it answers in text. */
  outputSchema: z.record(z.string(), z.unknown()).nullish(),
  /** Checks on its input, output and tool calls; empty when it has none. */
  guardrails: agentGuardrailsSchema,
  organizationId: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Agent = z.infer<typeof agentSchema>;

const optionalText = (max: number) => z.string().trim().max(max).nullish();

// The agent's fields without defaults: PUT takes any subset of them and must not reset the others.
const agentFields = {
  name: z.string().trim().min(1, { message: 'Name is required' }).max(100),
  description: optionalText(2000),
  role: z.string().trim().min(1, { message: 'Role is required' }).max(200),
  goal: z.string().trim().min(1, { message: 'Goal is required' }).max(2000),
  backstory: optionalText(5000),
  llmProvider: llmProviderSchema,
  llmModel: z.string().trim().min(1, { message: 'Model is required' }).max(200),
  temperature: z
    .number({ message: 'Temperature must be a number' })
    .int()
    .min(0, { message: 'Temperature must be between 0 and 100' })
    .max(100, { message: 'Temperature must be between 0 and 100' }),
  maxTokens: z
    .number({ message: 'Max tokens must be a number' })
    .int()
    .min(100, { message: 'Max tokens must be between 100 and 8000' })
    .max(8000, { message: 'Max tokens must be between 100 and 8000' }),
  systemPrompt: optionalText(20000),
  tools: z.array(z.union([z.string().max(200), z.record(z.string(), z.unknown())])).max(100),
  status: agentStatusSchema,
  templateCategory: optionalText(100),
  templateTags: z.array(z.string().max(50)).max(20),
  // Free-form: any JSON object, stored as sent. (An object in `config.memory` without a `memory` is
  // still taken as the memory settings, for clients of the version that kept them there: see
  // legacyMemoryOf and docs/decisions/0027-knowledge-on-the-agent.md.)
  config: z.record(z.string(), z.unknown()),
  memory: agentMemorySettingsSchema,
  /** A JSON Schema object, or null to answer in text again. */
  outputSchema: agentOutputSchema.nullable(),
  /** Its guardrails (docs/product-rules.md, Guardrails); `{}` for none. */
  guardrails: agentGuardrailsSchema,
};

/** The memory settings as the version that kept them in `config.memory` named them. */
const legacyMemorySettingsSchema = z
  .object({
    enabled: z.boolean(),
    embeddingProvider: embeddingProviderSchema.default('openai'),
    embeddingModel: z.string().trim().min(1).max(200).default(DEFAULT_EMBEDDING_MODEL),
  })
  .transform(({ enabled, embeddingProvider, embeddingModel }): AgentMemorySettings => ({
    enabled,
    connection: embeddingProvider,
    model: embeddingModel,
  }));

/**
 * The memory settings an older client sent in `config.memory` (an object that reads as them, with
 * their old names `embeddingProvider`/`embeddingModel`) in the `memory` field's shape, and the config
 * without them; undefined when there are none to move. Accepted for one version.
 */
export function legacyMemoryOf(config: Record<string, unknown> | undefined) {
  const memory = config?.memory;
  if (!memory || typeof memory !== 'object' || Array.isArray(memory)) return undefined;
  const parsed = legacyMemorySettingsSchema.safeParse(memory);
  if (!parsed.success) return undefined;
  const { memory: _moved, ...rest } = config;
  return { memory: parsed.data, config: rest };
}

/**
 * POST /api/agents — the same defaults as the agents table, except the model: without one the agent
 * gets its provider connection's default model (docs/product-rules.md, Agents and tools).
 */
export const createAgentSchema = z.object({
  ...agentFields,
  llmProvider: agentFields.llmProvider.default(DEFAULT_LLM_PROVIDER),
  llmModel: agentFields.llmModel.optional(),
  temperature: agentFields.temperature.default(70),
  maxTokens: agentFields.maxTokens.default(2000),
  tools: agentFields.tools.default([]),
  status: agentFields.status.default('inactive'),
  templateTags: agentFields.templateTags.default([]),
  config: agentFields.config.default({}),
  memory: agentFields.memory.optional(),
  outputSchema: agentFields.outputSchema.optional(),
  guardrails: agentFields.guardrails.default({}),
});
export type CreateAgentInput = z.input<typeof createAgentSchema>;

/** PUT /api/agents/:id — any subset of the fields, e.g. `{ status }` from the card's Pause/Activate. */
export const updateAgentSchema = z.object(agentFields).partial();
export type UpdateAgentInput = z.input<typeof updateAgentSchema>;

/*
 * The agent's knowledge (its Knowledge section): GET/PUT /api/agents/:id/knowledge-bases. Picking a
 * base links the agent to a vector-store tool on it, made the first time (docs/decisions/0027).
 */

export const AGENT_KNOWLEDGE_BASES_MAX = 20;

export const agentKnowledgeBaseSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The vector-store tool that searches it for the agent. */
  toolId: z.string(),
});
export type AgentKnowledgeBase = z.infer<typeof agentKnowledgeBaseSchema>;

export const agentKnowledgeBasesSchema = z.object({ knowledgeBases: z.array(agentKnowledgeBaseSchema) });
export type AgentKnowledgeBases = z.infer<typeof agentKnowledgeBasesSchema>;

/** PUT body: every base the agent should search; the others are unlinked. */
export const setAgentKnowledgeBasesSchema = z.object({
  knowledgeBaseIds: z
    .array(z.string({ message: 'A knowledge base id must be text' }), {
      message: 'knowledgeBaseIds must be a list of knowledge base ids',
    })
    .max(AGENT_KNOWLEDGE_BASES_MAX, {
      message: `Pick at most ${AGENT_KNOWLEDGE_BASES_MAX} knowledge bases`,
    }),
});
export type SetAgentKnowledgeBasesInput = z.infer<typeof setAgentKnowledgeBasesSchema>;

/** The fixed greeting the card's Test button sends (docs/product-rules.md). */
export const AGENT_TEST_GREETING = 'Hello! Please introduce yourself and explain what you can help me with.';

export const testAgentSchema = z.object({
  input: z.string().trim().min(1).max(20000).default(AGENT_TEST_GREETING),
});
export const agentTestResultSchema = z.object({
  success: z.boolean(),
  response: z.string().nullable(),
  error: z.string().nullable(),
  usage: z
    .object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number() })
    .optional(),
  durationMs: z.number().optional(),
});
export type AgentTestResult = z.infer<typeof agentTestResultSchema>;

/* The agent playground: POST /api/agents/:id/chat (docs/product-rules.md, Agent playground). */

export const AGENT_CHAT_MAX_MESSAGES = 50;
export const AGENT_CHAT_MESSAGE_LIMIT = 20000;

export const agentChatMessageSchema = z.object({
  role: z.enum(['user', 'assistant'], { message: "A message's role must be 'user' or 'assistant'" }),
  content: z
    .string({ message: 'A message must be text' })
    .max(AGENT_CHAT_MESSAGE_LIMIT, {
      message: `A message must be at most ${formatNumber(AGENT_CHAT_MESSAGE_LIMIT)} characters`,
    })
    .refine((text) => text.trim().length > 0, { message: 'A message cannot be empty' }),
});
export type AgentChatMessage = z.infer<typeof agentChatMessageSchema>;

/** The conversation so far, oldest first; the playground keeps it, the server stores none of it. */
export const agentChatSchema = z.object({
  messages: z
    .array(agentChatMessageSchema, { message: 'messages must be a list of messages' })
    .min(1, { message: 'Send at least one message' })
    .max(AGENT_CHAT_MAX_MESSAGES, {
      message: `Send at most ${AGENT_CHAT_MAX_MESSAGES} messages`,
    })
    .refine((messages) => messages.at(-1)?.role !== 'assistant', {
      message: 'The last message must be from the user',
    }),
});
export type AgentChatInput = z.infer<typeof agentChatSchema>;

/** The chat answer's media type: one JSON object a line, each written as it happens. */
export const AGENT_CHAT_CONTENT_TYPE = 'application/x-ndjson';

/** One line of the chat answer: pieces of text and finished tool calls, then exactly one done or error. */
export const agentChatLineSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('delta'), text: z.string() })
    .meta({ description: 'A piece of the answer text.' }),
  z
    .object({
      type: z.literal('tool_call'),
      name: z.string(),
      /** The arguments the model gave. */
      args: z.unknown(),
      /** The tool's answer as text (JSON for structured answers) or its error message, cut at 4,000 characters. */
      result: z.string(),
      truncated: z.boolean(),
      isError: z.boolean(),
      durationMs: z.number(),
      /** A knowledge search's query and every hit, as a step record keeps them. */
      retrieval: stepRetrievalSchema.optional(),
    })
    .meta({
      description: `A tool call that finished: its arguments, its result (at most ${STEP_TOOL_RESULT_LIMIT} characters, \`truncated\` when cut) or error, and how long it took.`,
    }),
  z
    .object({
      type: z.literal('done'),
      response: z.string(),
      usage: tokenUsageSchema,
      durationMs: z.number(),
      model: z.string(),
    })
    .meta({ description: 'The last line of an answer: the whole response, its tokens and time, the model.' }),
  z.object({ type: z.literal('error'), error: z.string() }).meta({
    description: 'The last line of a failed answer: why the model or its configuration failed, readably.',
  }),
]);
export type AgentChatLine = z.infer<typeof agentChatLineSchema>;
