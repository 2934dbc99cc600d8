import { z } from 'zod';
import { DEFAULT_EMBEDDING_MODEL, embeddingProviderSchema } from './knowledge';

/*
 * Agent memory (modules/memory): with its Memory switch on, an agent keeps the facts worth keeping
 * from each of its steps (its own model picks them) and is given the most relevant ones before each
 * step. Memories belong to one agent of one organization.
 *
 *   GET    /api/agents/:id/memories?search=   its memories, newest first (a text filter)
 *   DELETE /api/agents/:id/memories/:memoryId forget one → 204
 *   DELETE /api/agents/:id/memories           forget all → 204
 */

/** The most memories an agent keeps: past it, the oldest are forgotten. */
export const AGENT_MEMORY_LIMIT = 1000;
/** How many memories a step is given at most (the closest to its task). */
export const AGENT_MEMORY_RECALL = 5;
/** How many memories the list answers at most (the newest matching). */
export const AGENT_MEMORY_PAGE = 200;
/** The longest memory kept. */
export const AGENT_MEMORY_MAX_LENGTH = 300;

/**
 * An agent's memory settings, its `memory` field (beside `config`, which is free-form):
 * `{ enabled, connection, model }`. Memories are searched by meaning: they are embedded with the
 * organization's `connection` (a provider whose connection gives embeddings; Anthropic has none),
 * with `model`. This is the wire shape clients rely on; the memory module speaks of them as
 * `embeddingProvider`/`embeddingModel`, like knowledge bases, and converts where it reads the agent.
 */
export const agentMemorySettingsSchema = z.object(
  {
    enabled: z.boolean({ message: 'memory.enabled must be true or false' }),
    connection: embeddingProviderSchema.default('openai'),
    model: z
      .string()
      .trim()
      .min(1, { message: 'Choose the embedding model memories are searched with' })
      .max(200)
      .default(DEFAULT_EMBEDDING_MODEL),
  },
  { message: 'memory must be an object' },
);
export type AgentMemorySettings = z.infer<typeof agentMemorySettingsSchema>;

/** An agent's memory settings until they are set: off, with the default embeddings. */
export const MEMORY_OFF: AgentMemorySettings = {
  enabled: false,
  connection: 'openai',
  model: DEFAULT_EMBEDDING_MODEL,
};

export const agentMemorySchema = z.object({
  id: z.string(),
  agentId: z.string(),
  content: z.string(),
  /** The run whose step it was learned in (null once that run is deleted). */
  executionId: z.string().nullable(),
  createdAt: z.string(),
});
export type AgentMemory = z.infer<typeof agentMemorySchema>;

export const agentMemoriesQuerySchema = z.object({
  search: z.string().trim().max(200, { message: 'Search for at most 200 characters' }).optional(),
});

export const agentMemoriesSchema = z.object({
  /** The newest matching, at most AGENT_MEMORY_PAGE. */
  memories: z.array(agentMemorySchema),
  /** How many match in all. */
  total: z.number().int(),
});
export type AgentMemories = z.infer<typeof agentMemoriesSchema>;

export const agentMemoryParamsSchema = z.object({ id: z.string(), memoryId: z.string() });
