import type { SQL } from 'drizzle-orm';
import type { Agent } from '@crewline/contracts';
import type {
  LlmConnection,
  LlmGateway,
  LlmMessage,
  LlmMeter,
  LlmProvider,
  LlmRequest,
  LlmResult,
  LlmSpendHooks,
  LlmTool,
  LlmToolTrace,
  LlmTrace,
} from '../../platform/llm';
import { configurationsFromJson, configurationsJson } from '../connections/connections.columns';
import type { ConnectionsService } from '../connections/connections.service';
import { enabledToolsFromJson, enabledToolsJson } from '../tools/tools.columns';
import type { ResolvedTool, ToolRuntime, ToolsService } from '../tools/tools.service';
import { agentsFromJson, agentsJson } from './agents.repository';

/** One user prompt (the agent test, a run's step), or a conversation ending with the user's turn (the playground). */
type Prompt = { system: string; user: string } | { system: string; messages: LlmMessage[] };
type AskOptions = {
  extraTools?: Record<string, LlmTool>;
  signal?: AbortSignal;
  /** Filled in with the call's tool calls and retries (a run's step records). */
  trace?: LlmTrace;
  /** Streams the answer: each piece as the model produces it. */
  onTextDelta?: (text: string) => void;
  /** Each tool call as it finishes (see LlmRequest). */
  onToolCall?: (call: LlmToolTrace) => void;
  /** The model alone, without the agent's tools (the memory's extraction of a step's facts). */
  withoutTools?: boolean;
  /** The JSON Schema (of an object) the answer must follow; its parsed answer is the result's `data`. */
  outputSchema?: Record<string, unknown>;
  /**
   * A run's step: calls its tool links' policies say wait for approval end the call with
   * `pendingApproval` (every write does in an untrusted run). The agent test and playground ask none.
   */
  approvals?: { untrusted: boolean };
  /** Goes on after an approval (LlmRequest['resume']). */
  resume?: LlmRequest['resume'];
  /** Wraps each tool the model may call (an agent's tool guardrails check its arguments and result). */
  guardTool?: (tool: LlmTool) => LlmTool;
  /** A call outside a run's steps is charged to its source (LlmMeter; the organization is the caller's). */
  meter?: Omit<LlmMeter, 'organizationId'>;
  /** A run's step: its budgets' hooks (modules/costs). */
  spend?: LlmSpendHooks;
};

/** A call of a model with no agent: which model, its prompt, and the JSON Schema of its answer. */
export type ModelCall = {
  provider: LlmProvider;
  model: string;
  maxTokens: number;
  system: string;
  user: string;
  outputSchema?: LlmRequest['outputSchema'];
};

/**
 * An agent talking to its model: the organization's connection for the agent's provider, the agent's
 * model settings and its enabled tools (run by the server). Used by the agent test and by workflow runs.
 */
export function createAgentModel(deps: {
  llm: LlmGateway;
  connections: ConnectionsService;
  tools: ToolsService;
  toolRuntime: ToolRuntime;
}) {
  async function generate(
    organizationId: string,
    agent: Agent,
    connection: LlmConnection,
    resolvedTools: ResolvedTool[],
    prompt: Prompt,
    options: AskOptions,
  ): Promise<LlmResult> {
    const all = options.withoutTools
      ? undefined
      : {
          ...(await deps.toolRuntime.modelTools(organizationId, resolvedTools, options.approvals)),
          ...options.extraTools,
        };
    const guardTool = options.guardTool;
    const tools =
      all && guardTool
        ? Object.fromEntries(Object.entries(all).map(([name, tool]) => [name, guardTool(tool)]))
        : all;
    return deps.llm.generate({
      connection,
      model: agent.llmModel,
      temperaturePercent: agent.temperature,
      maxTokens: agent.maxTokens,
      system: prompt.system,
      messages: 'messages' in prompt ? prompt.messages : [{ role: 'user', content: prompt.user }],
      tools,
      signal: options.signal,
      trace: options.trace,
      onTextDelta: options.onTextDelta,
      onToolCall: options.onToolCall,
      outputSchema: options.outputSchema as LlmRequest['outputSchema'],
      resume: options.resume,
      spend: options.spend,
      ...(options.meter ? { meter: { organizationId, ...options.meter } } : {}),
    });
  }

  /** One call of a model with no agent and no tools: a classifier (a guardrail's checks). */
  function classify(
    organizationId: string,
    connection: LlmConnection,
    request: ModelCall,
    options: Pick<AskOptions, 'signal' | 'meter' | 'spend'>,
  ): Promise<LlmResult> {
    return deps.llm.generate({
      connection,
      model: request.model,
      temperaturePercent: 0,
      maxTokens: request.maxTokens,
      system: request.system,
      messages: [{ role: 'user', content: request.user }],
      outputSchema: request.outputSchema,
      signal: options.signal,
      spend: options.spend,
      ...(options.meter ? { meter: { organizationId, ...options.meter } } : {}),
    });
  }

  return {
    /** One call of a model with no agent, reading the organization's connection now ("Test this node"). */
    async askModel(
      organizationId: string,
      request: ModelCall,
      options: Pick<AskOptions, 'signal' | 'meter' | 'spend'> = {},
    ): Promise<LlmResult> {
      const connection = await deps.connections.connectionFor(organizationId, request.provider);
      return classify(organizationId, connection, request, options);
    },

    /** OpenAI's moderation endpoint on the organization's OpenAI connection, read now. */
    async moderate(organizationId: string, input: string, signal?: AbortSignal) {
      const connection = await deps.connections.connectionFor(organizationId, 'openai');
      return deps.llm.moderate({ connection, input, signal });
    },

    /** One call of the agent's model, reading its connection and tools now (the agent test). */
    async ask(organizationId: string, agent: Agent, prompt: Prompt, options: AskOptions = {}) {
      const connection = await deps.connections.connectionFor(organizationId, agent.llmProvider);
      const tools = await deps.tools.resolveForAgent(organizationId, agent.id);
      return generate(organizationId, agent, connection, tools, prompt, options);
    },

    /**
     * What a run reads about its agents when it is claimed, as columns of the claim (`run` names the
     * run's row, `agentIds` is the text[] of the agents its nodes name): the agents with their tools,
     * and the organization's connections. `forRun` turns them into the run's agents.
     */
    runColumns(run: string, agentIds: SQL) {
      return {
        agents: agentsJson(run, agentIds, { tools: enabledToolsJson }),
        configurations: configurationsJson(run),
      };
    },

    /**
     * A run's agents (those that exist), with their tools and connections as read with its claim, and
     * `ask` for each step, which reads nothing more: a run uses the settings it started with,
     * whatever its length.
     */
    forRun(organizationId: string, read: { agents: unknown; configurations: unknown }) {
      const rows = agentsFromJson(read.agents);
      const connectionOf = deps.connections.connectionsFrom(configurationsFromJson(read.configurations));
      const connections = new Map<LlmProvider, LlmConnection>();
      const toolsOf = new Map(
        rows.map((row) => [
          row.agent.id,
          deps.tools.resolve(organizationId, enabledToolsFromJson(row.tools)),
        ]),
      );
      /** Throws the provider's configuration error, which fails the step that needed it. */
      const connection = (provider: LlmProvider) => {
        let found = connections.get(provider);
        if (!found) {
          found = connectionOf(provider);
          connections.set(provider, found);
        }
        return found;
      };
      return {
        agents: new Map(rows.map((row) => [row.agent.id, row.agent])),
        /** The organization's connection of a provider, as read with the claim (memory embeds with it). */
        connection,
        /** One call of a model with no agent, on the connection read with the claim (a guardrail's classifier). */
        askModel(request: ModelCall, options: Pick<AskOptions, 'signal' | 'spend'> = {}) {
          return classify(organizationId, connection(request.provider), request, options);
        },
        /** OpenAI's moderation endpoint on the OpenAI connection read with the claim. */
        moderate(input: string, signal?: AbortSignal) {
          return deps.llm.moderate({ connection: connection('openai'), input, signal });
        },
        async ask(agent: Agent, prompt: Prompt, options: AskOptions = {}): Promise<LlmResult> {
          const agentConnection = connection(agent.llmProvider);
          return generate(
            organizationId,
            agent,
            agentConnection,
            toolsOf.get(agent.id) ?? [],
            prompt,
            options,
          );
        },
      };
    },
  };
}
export type AgentModel = ReturnType<typeof createAgentModel>;
export type RunAgents = ReturnType<AgentModel['forRun']>;
