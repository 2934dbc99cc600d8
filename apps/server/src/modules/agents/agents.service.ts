import {
  legacyMemoryOf,
  type Agent,
  type AgentChatLine,
  type AgentChatMessage,
  type AgentTestResult,
  type CreateAgentInput,
  type UpdateAgentInput,
  type Usage,
} from '@crewline/contracts';
import { buildSystemPrompt, buildUserPrompt, guardrailRuleErrors } from '@crewline/engine';
import { BadRequestError, BudgetExceededError, NotFoundError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import {
  LlmCallError,
  LlmConfigurationError,
  outputSchemaProblem,
  type LlmProvider,
} from '../../platform/llm';
import { toolCall } from '../../platform/llm/step-record';
import type { Db } from '@crewline/db';
import type { LimitReader } from '../billing/billing.service';
import type { MemoryService } from '../memory/memory.service';
import type { AgentModel } from './agent-model';
import type { AgentsRepository } from './agents.repository';

/** What the run engine (modules/executions) uses of agents: their model calls and a run's agents. */
export type { AgentModel, RunAgents } from './agent-model';

const notFound = 'Agent not found';
const MODEL_REQUIRED = 'Model is required';

/**
 * Memory settings sent the old way (an object in `config.memory`, no `memory`) become the `memory`
 * field; anything else in `config` is kept as sent (docs/decisions/0027-knowledge-on-the-agent.md).
 */
function withLegacyMemory<T extends { config?: Record<string, unknown>; memory?: unknown }>(input: T): T {
  if (input.memory !== undefined) return input;
  const moved = legacyMemoryOf(input.config);
  return moved ? { ...input, ...moved } : input;
}

/**
 * A schema the contract let through (an object schema) that is still not one a model can be asked
 * for, because it does not compile as JSON Schema: refused when saved rather than at the first run.
 */
async function checkOutputSchema(schema: Record<string, unknown> | null | undefined) {
  if (!schema) return;
  const problem = await outputSchemaProblem(schema);
  if (problem) {
    const message = `The output schema ${problem}`;
    throw new BadRequestError(message, [{ path: 'outputSchema', message }]);
  }
}

/**
 * An agent's custom guardrail rules must check as conditions over `text` (and the run's `input`,
 * `vars` and `run`; an agent knows no workflow's nodes), refused when saved rather than at a run.
 */
function checkGuardrails(guardrails: CreateAgentInput['guardrails']) {
  for (const list of ['input', 'output', 'tools'] as const) {
    const [problem] = guardrailRuleErrors('Agent', guardrails?.[list] ?? [], { nodes: {}, vars: [] });
    if (problem) throw new BadRequestError(problem, [{ path: `guardrails.${list}`, message: problem }]);
  }
}

export function createAgentsService(deps: {
  repository: AgentsRepository;
  events: EventBus;
  agentModel: AgentModel;
  /** The plan's agent limit (modules/billing), checked in the inserting transaction (`tx`). */
  limits: { checkAgentLimit(organizationId: string, adding?: number, tx?: LimitReader): Promise<void> };
  /** An agent with memory on is given what it recalls in the playground too (modules/memory). */
  memory?: Pick<MemoryService, 'withRecalled'>;
  /**
   * The model a new agent of the provider gets when the caller names none (modules/connections:
   * the connection's default model); '' when there is none to give.
   */
  defaultModel(organizationId: string, provider: LlmProvider): Promise<string>;
}) {
  const { repository, events } = deps;

  async function get(organizationId: string, id: string): Promise<Agent> {
    const agent = await repository.get(organizationId, requireUuid(id, notFound));
    if (!agent) throw new NotFoundError(notFound);
    return agent;
  }

  return {
    /** Newest first; only those with the given ids when `ids` is passed. */
    list: (organizationId: string, ids?: string[]) => repository.list(organizationId, ids),

    get,

    /**
     * Whether the organization has this agent (`id` a UUID): memory and tools, which may not import
     * agents, are handed it by app.ts and answer 404 for another organization's agent.
     */
    exists: (organizationId: string, id: string) => repository.exists(organizationId, id),

    /** The agents made from these template agents, by source (modules/templates reuses them). */
    fromTemplateSources: repository.fromTemplateSources,

    /**
     * `templateSource` marks an agent made from a workflow template's agent (modules/templates). Given
     * `within`, the agent is made in that transaction and the caller announces it after the commit.
     */
    async create(
      organizationId: string,
      userId: string,
      input: CreateAgentInput,
      templateSource?: string,
      within?: Pick<Db, 'transaction'>,
    ): Promise<Agent> {
      input = withLegacyMemory(input);
      await checkOutputSchema(input.outputSchema);
      checkGuardrails(input.guardrails);
      if (!input.llmModel) {
        const provider = input.llmProvider ?? 'openai';
        const llmModel = await deps.defaultModel(organizationId, provider);
        // A local or custom server that names no model: a guessed one would only fail the first run.
        if (!llmModel)
          throw new BadRequestError(MODEL_REQUIRED, [{ path: 'llmModel', message: MODEL_REQUIRED }]);
        input = { ...input, llmProvider: provider, llmModel };
      }
      // Checked and inserted under the organization's lock: concurrent creates cannot pass the limit.
      const agent = await repository.create(
        organizationId,
        userId,
        input,
        templateSource,
        (tx) => deps.limits.checkAgentLimit(organizationId, 1, tx),
        within,
      );
      if (!within) events.publish({ type: 'agent_created', organizationId, agentId: agent.id });
      return agent;
    },

    /** `userId` is who saves it (Recent Activity names them). */
    async update(
      organizationId: string,
      userId: string | null,
      id: string,
      patch: UpdateAgentInput,
    ): Promise<Agent> {
      await checkOutputSchema(patch.outputSchema);
      checkGuardrails(patch.guardrails);
      const agent = await repository.update(
        organizationId,
        requireUuid(id, notFound),
        withLegacyMemory(patch),
        userId,
      );
      if (!agent) throw new NotFoundError(notFound);
      events.publish({ type: 'agent_updated', organizationId, agentId: agent.id });
      return agent;
    },

    /**
     * Sends one message to the agent's model, with its prompt and enabled tools, and reports the answer.
     * A model or configuration failure is an answer too (success false with the reason), not an HTTP error.
     */
    async test(organizationId: string, id: string, input: string): Promise<AgentTestResult> {
      const agent = await get(organizationId, id);
      try {
        const result = await deps.agentModel.ask(
          organizationId,
          agent,
          { system: buildSystemPrompt(agent), user: buildUserPrompt({ input }) },
          { meter: { source: 'agent_test', agentId: agent.id } },
        );
        return {
          success: true,
          response: result.text,
          error: null,
          usage: result.usage,
          durationMs: result.durationMs,
        };
      } catch (error) {
        if (error instanceof LlmCallError || error instanceof LlmConfigurationError) {
          return { success: false, response: null, error: error.message };
        }
        throw error;
      }
    },

    /**
     * One playground turn: the conversation so far (ending with the user's message) to the agent's
     * model, with its prompt and enabled tools as the test has them, each piece of the answer and each
     * finished tool call sent as it happens, then one `done` or `error` line. The messages go as typed:
     * buildUserPrompt of an input alone only trims it, so the greeting reaches the model as the test
     * sends it. An agent with memory on is given what it recalls for the user's last message (nothing is
     * learned from the conversation). A model or configuration failure is an `error` line, as the test
     * answers it; anything else is thrown (the route logs it). Nothing of the conversation is stored.
     */
    async chat(
      organizationId: string,
      agent: Agent,
      messages: AgentChatMessage[],
      stream: { send(line: AgentChatLine): void; signal: AbortSignal },
    ): Promise<void> {
      const { send, signal } = stream;
      try {
        const system = buildSystemPrompt(agent);
        const lastMessage = messages.at(-1)?.content ?? '';
        const result = await deps.agentModel.ask(
          organizationId,
          agent,
          {
            system: deps.memory
              ? await deps.memory.withRecalled(organizationId, agent, system, lastMessage, signal)
              : system,
            messages,
          },
          {
            signal,
            meter: { source: 'playground', agentId: agent.id },
            onTextDelta: (text) => send({ type: 'delta', text }),
            // As a step record shows it: masked by the tool runtime, the result cut at 4,000 characters.
            onToolCall: (trace) => {
              const { arguments: args, ...call } = toolCall(trace);
              send({ type: 'tool_call', ...call, args });
            },
          },
        );
        send({
          type: 'done',
          response: result.text,
          usage: result.usage,
          durationMs: result.durationMs,
          model: result.model,
        });
      } catch (error) {
        // A budget that is spent (modules/costs) ends the turn with its words, as a model's failure does.
        if (
          error instanceof LlmCallError ||
          error instanceof LlmConfigurationError ||
          error instanceof BudgetExceededError
        ) {
          send({ type: 'error', error: error.message });
        } else throw error;
      }
    },

    /** What uses the agent, for its delete dialog: another organization's agent is not found. */
    async usage(organizationId: string, id: string): Promise<Usage> {
      const usage = await repository.usage(organizationId, requireUuid(id, notFound));
      if (!usage) throw new NotFoundError(notFound);
      return usage;
    },

    async remove(organizationId: string, id: string): Promise<void> {
      if (!(await repository.remove(organizationId, requireUuid(id, notFound))))
        throw new NotFoundError(notFound);
      events.publish({ type: 'agent_deleted', organizationId, agentId: id });
    },
  };
}
export type AgentsService = ReturnType<typeof createAgentsService>;
