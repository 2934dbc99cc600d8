import { BudgetExceededError } from '../../platform/errors';
import type { Agent, EmbeddingProvider, ExecutionLog } from '@crewline/contracts';
import type { Logger } from 'pino';
import { databaseUnavailable } from '../../platform/database-unavailable';
import {
  LlmCallError,
  LlmConfigurationError,
  type LlmConnection,
  type LlmResult,
  type LlmUsage,
} from '../../platform/llm';
import { withMemories } from './memory-prompt';
import { memoryEmbeddingOf } from './memory-settings';
import type { MemoryContext, MemoryService } from './memory.service';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Failures of the provider or its configuration: their messages are written for the user. */
/** Failures with words for the run's log: the provider's, and a spent budget's (modules/costs). */
const isProviderError = (error: unknown): error is Error =>
  error instanceof LlmCallError ||
  error instanceof LlmConfigurationError ||
  error instanceof BudgetExceededError;

/** What a step of an agent with memory on does around its model call. */
export type RememberingStep = {
  /** The step's system prompt with what the agent recalls for its task. */
  system: string;
  /**
   * Keeps the facts worth keeping from the step's answer, asking the agent's model with `extract`;
   * answers the tokens that extraction used (none when it failed).
   */
  keep(
    answer: string,
    extract: (prompt: { system: string; user: string }) => Promise<LlmResult>,
  ): Promise<LlmUsage | undefined>;
};

/** What an attempt gives its steps' memory: the run it belongs to and where its warnings go. */
export type StepMemoryRun = {
  organizationId: string;
  executionId: string;
  /**
   * The run is untrusted (started from outside the organization, docs/product-rules.md, People in the
   * loop): its steps recall, but keep nothing, so what an outsider wrote never becomes a memory.
   */
  untrusted: boolean;
  signal: AbortSignal;
  /** The organization's connection of a provider, as read with the run's claim (throws when there is none). */
  connection(provider: EmbeddingProvider): LlmConnection;
  /** Adds a line to the run's log. */
  log(level: ExecutionLog['level'], message: string, nodeId: string): void;
  logger?: Logger;
};

/**
 * Agent memory in one attempt at a run (the runner's agent step, agent-step.ts): before a step of an agent with memory
 * on, what it recalls goes after its system prompt; after the model call, what it learned is kept,
 * before the step is stored. A memory failure other than a cancel or a database outage (no connection
 * for the embeddings, the provider down) is a warning in the run's log and the step goes on without
 * memory: memory helps a step, it never fails one.
 */
export function createStepMemory(
  deps: StepMemoryRun & { memory: Pick<MemoryService, 'recall' | 'remember'> },
) {
  const { memory, organizationId, executionId, signal } = deps;

  async function guarded<T>(agent: Agent, nodeId: string, work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      if (signal.aborted || (!isProviderError(error) && databaseUnavailable(error))) throw error;
      if (!isProviderError(error)) deps.logger?.warn({ err: error, executionId }, 'agent memory failed');
      const reason = isProviderError(error) ? error.message : 'an unexpected error';
      deps.log('warn', `${agent.name}'s memory was not used: ${reason}`, nodeId);
      return undefined;
    }
  }

  return {
    /** The step's memory, when its agent has memory on (and its embedding connection exists). */
    async recall(
      agent: Agent,
      call: { nodeId: string; system: string; user: string },
    ): Promise<RememberingStep | undefined> {
      const settings = memoryEmbeddingOf(agent.memory);
      if (!settings) return undefined;
      const { nodeId } = call;
      const context = await guarded<MemoryContext>(agent, nodeId, async () => ({
        organizationId,
        agentId: agent.id,
        settings,
        connection: deps.connection(settings.embeddingProvider),
        signal,
      }));
      if (!context) return undefined;
      const recalled =
        (await guarded(agent, nodeId, () => memory.recall(context, call.user)))?.memories ?? [];
      if (recalled.length > 0)
        deps.log('info', `${agent.name} recalled ${plural(recalled.length, 'memory', 'memories')}`, nodeId);
      return {
        system: withMemories(call.system, recalled),
        async keep(answer, extract) {
          if (deps.untrusted) {
            deps.log('info', `${agent.name} learned nothing: the run is untrusted`, nodeId);
            return undefined;
          }
          const learned = await guarded(agent, nodeId, () =>
            memory.remember({ ...context, executionId }, { task: call.user, answer }, extract),
          );
          if (!learned) return undefined;
          if (learned.kept.length > 0)
            deps.log(
              'info',
              `${agent.name} remembered ${plural(learned.kept.length, 'new fact', 'new facts')}`,
              nodeId,
            );
          return learned.usage;
        },
      };
    },
  };
}
