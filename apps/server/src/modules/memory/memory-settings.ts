import { agentMemorySettingsSchema, type EmbeddingProvider } from '@crewline/contracts';

/**
 * How a step's memories are embedded, in the memory module's words (those of knowledge bases): the
 * organization's connection of `embeddingProvider`, with `embeddingModel`.
 */
export type MemoryEmbedding = { embeddingProvider: EmbeddingProvider; embeddingModel: string };

/**
 * The agent's memory settings (its `memory` field, `{ enabled, connection, model }` on the wire) as
 * the memory module uses them when its memory is on, else null.
 */
export function memoryEmbeddingOf(memory: unknown): MemoryEmbedding | null {
  const parsed = agentMemorySettingsSchema.safeParse(memory);
  if (!parsed.success || !parsed.data.enabled) return null;
  return { embeddingProvider: parsed.data.connection, embeddingModel: parsed.data.model };
}
