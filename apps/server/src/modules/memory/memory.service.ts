import {
  AGENT_MEMORY_RECALL,
  type Agent,
  type AgentMemories,
  type EmbeddingProvider,
} from '@crewline/contracts';
import { NotFoundError } from '../../platform/errors';
import { requireUuid } from '../../platform/ids';
import {
  LlmCallError,
  LlmConfigurationError,
  type LlmConnection,
  type LlmGateway,
  type LlmUsage,
} from '../../platform/llm';
import { decodeVectors, encodeVector } from '../../platform/llm/vector-codec';
import { extractionTask, EXTRACTION_SYSTEM_PROMPT, parseFacts, withMemories } from './memory-prompt';
import type { MemoryRepository, StoredMemory } from './memory.repository';
import { memoryEmbeddingOf, type MemoryEmbedding } from './memory-settings';
import { createStepMemory, type StepMemoryRun } from './step-memory';

const agentNotFound = 'Agent not found';
const memoryNotFound = 'Memory not found';

/** A memory closer to a step's task than this (cosine) is given to it; the rest are not relevant. */
const RECALL_MIN_SCORE = 0.25;
/** A new fact this close to a kept one says nothing new (also: a step run again after a crash). */
const SAME_FACT_SCORE = 0.92;

/** What a step with memory on works with: the agent's embeddings and the connection that embeds. */
export type MemoryContext = {
  organizationId: string;
  agentId: string;
  settings: MemoryEmbedding;
  /** The organization's connection of `settings.embeddingProvider`. */
  connection: LlmConnection;
  signal?: AbortSignal;
};

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
};
const unit = (vector: number[]) => {
  const norm = Math.hypot(...vector) || 1;
  return Float32Array.from(vector, (x) => x / norm);
};

/**
 * Agent memory: after each step of an agent with memory on, its own model names the facts worth
 * keeping, which are embedded and stored (a fact already kept is not kept twice); before each step
 * the memories closest in meaning to its task are read back. Memories are few per agent (at most
 * AGENT_MEMORY_LIMIT), so a recall scores each of them, exactly, with no index.
 */
export function createMemoryService(deps: {
  repository: MemoryRepository;
  llm: Pick<LlmGateway, 'embed'>;
  /** The organization's connection of a provider (outside runs, which read theirs with their claim). */
  connectionFor(organizationId: string, provider: EmbeddingProvider): Promise<LlmConnection>;
  /** Whether the organization has this agent (modules/agents, which imports memory: app.ts hands it over). */
  agentExists(organizationId: string, agentId: string): Promise<boolean>;
}) {
  const { repository } = deps;

  async function embed(context: MemoryContext, texts: string[]) {
    const { embeddings, tokens } = await deps.llm.embed({
      connection: context.connection,
      model: context.settings.embeddingModel,
      texts,
      signal: context.signal,
      meter: { organizationId: context.organizationId, source: 'memory', agentId: context.agentId },
    });
    return { vectors: embeddings.map(unit), tokens };
  }

  /** The kept memories as unit vectors (those of another length than `dimensions` left out). */
  function scored(stored: StoredMemory[], dimensions: number) {
    return stored.flatMap((memory) => {
      if (memory.embedding.length !== dimensions * 4) return [];
      const vector = decodeVectors([memory.embedding], dimensions);
      return [{ ...memory, vector: unit(Array.from(vector)) }];
    });
  }

  async function ownedAgent(organizationId: string, agentId: string) {
    const id = requireUuid(agentId, agentNotFound);
    if (!(await deps.agentExists(organizationId, id))) throw new NotFoundError(agentNotFound);
    return id;
  }

  async function recall(
    context: MemoryContext,
    task: string,
  ): Promise<{ memories: string[]; tokens: number }> {
    const stored = await repository.withEmbeddings(
      context.organizationId,
      context.agentId,
      context.settings.embeddingModel,
    );
    if (stored.length === 0) return { memories: [], tokens: 0 };
    const {
      vectors: [query],
      tokens,
    } = await embed(context, [task]);
    const memories = scored(stored, query.length)
      .map((memory) => ({ content: memory.content, score: dot(memory.vector, query) }))
      .filter((memory) => memory.score >= RECALL_MIN_SCORE)
      .sort((a, b) => b.score - a.score)
      .slice(0, AGENT_MEMORY_RECALL)
      .map((memory) => memory.content);
    return { memories, tokens };
  }

  /**
   * Keeps what a step taught: `extract` asks the agent's model (EXTRACTION_SYSTEM_PROMPT) for the
   * facts in its task and answer; each new one is embedded and stored with the run. Answers how
   * many were kept and what the model calls used.
   */
  async function remember(
    context: MemoryContext & { executionId: string | null },
    step: { task: string; answer: string },
    extract: (prompt: { system: string; user: string }) => Promise<{ text: string; usage: LlmUsage }>,
  ): Promise<{ kept: string[]; usage: LlmUsage; embeddingTokens: number }> {
    const extracted = await extract({
      system: EXTRACTION_SYSTEM_PROMPT,
      user: extractionTask(step.task, step.answer),
    });
    const facts = parseFacts(extracted.text);
    if (facts.length === 0) return { kept: [], usage: extracted.usage, embeddingTokens: 0 };
    const { vectors, tokens } = await embed(context, facts);
    // Decided under the agent's lock (addNew), against what is kept at that moment.
    const kept = await repository.addNew(
      context.organizationId,
      context.agentId,
      context.executionId,
      context.settings.embeddingModel,
      (stored) => {
        const known = scored(stored, vectors[0].length).map((memory) => memory.vector);
        return facts.flatMap((fact, i) => {
          if (known.some((vector) => dot(vector, vectors[i]) >= SAME_FACT_SCORE)) return [];
          known.push(vectors[i]);
          return [{ content: fact, embedding: encodeVector(Array.from(vectors[i])) }];
        });
      },
    );
    return { kept: kept.map((memory) => memory.content), usage: extracted.usage, embeddingTokens: tokens };
  }

  return {
    /**
     * The memories most relevant to a step's task, closest first: at most AGENT_MEMORY_RECALL, each
     * at least RECALL_MIN_SCORE. An agent with no memories yet costs no embedding.
     */
    recall,

    /**
     * The agent's system prompt with what it recalls for `task`, outside a run (the playground): as
     * is when its memory is off, or when the embeddings cannot be had (the playground shows no warning).
     */
    async withRecalled(
      organizationId: string,
      agent: Agent,
      system: string,
      task: string,
      signal?: AbortSignal,
    ): Promise<string> {
      const settings = memoryEmbeddingOf(agent.memory);
      if (!settings) return system;
      try {
        const connection = await deps.connectionFor(organizationId, settings.embeddingProvider);
        const { memories } = await recall(
          { organizationId, agentId: agent.id, settings, connection, signal },
          task,
        );
        return withMemories(system, memories);
      } catch (error) {
        if (error instanceof LlmCallError || error instanceof LlmConfigurationError) return system;
        throw error;
      }
    },

    remember,

    /**
     * The memory of an attempt's agent steps (step-memory.ts): what each step of an agent with memory
     * on recalls before its model call and keeps after it.
     */
    stepMemory: (run: StepMemoryRun) => createStepMemory({ ...run, memory: { recall, remember } }),

    /** The agent's memories for its Advanced tab, newest first, filtered by their text. */
    async list(organizationId: string, agentId: string, search?: string): Promise<AgentMemories> {
      const id = await ownedAgent(organizationId, agentId);
      return repository.list(organizationId, id, search || undefined);
    },

    async remove(organizationId: string, agentId: string, memoryId: string): Promise<void> {
      const id = await ownedAgent(organizationId, agentId);
      const removed = await repository.remove(organizationId, id, requireUuid(memoryId, memoryNotFound));
      if (!removed) throw new NotFoundError(memoryNotFound);
    },

    async clear(organizationId: string, agentId: string): Promise<void> {
      await repository.clear(organizationId, await ownedAgent(organizationId, agentId));
    },
  };
}
export type MemoryService = ReturnType<typeof createMemoryService>;
