import type {
  ExecutionMetrics,
  ExecutionResult,
  NodeKind,
  NodeOutput,
  TokenUsage,
} from '@crewline/contracts';
import { WorkflowRunError } from './errors';
import { engineNodeKinds, isStepKind } from './node-kinds';
import { agentPredecessors, sequentialOrder } from './plan';
import { buildUserPrompt, type PromptAgent } from './prompt';

export { WorkflowRunError };

export type RunAgent = PromptAgent & { id: string; llmProvider: string; llmModel: string };

export type RunDefinition = {
  processType: 'sequential' | 'hierarchical' | 'parallel';
  nodes: {
    id: string;
    type: NodeKind;
    agentId?: string | null;
    data?: Record<string, unknown>;
  }[];
  edges: { source: string; target: string }[];
  /** The organization's agents referenced by the nodes, by id. */
  agents: Record<string, RunAgent>;
};

export type RunInput = {
  /** What the run was started with; an object is shown to the agents as JSON. */
  input: unknown;
  instructions?: string | null;
  parameters?: Record<string, unknown>;
};

export type DelegationTool = {
  description: string;
  inputSchema: Record<string, unknown>;
  execute(args: unknown): Promise<unknown>;
};

export type AgentCall = {
  /** The step this call runs (its id, its node, its agent): the same identity its events carry. */
  step: StepRef;
  /** The step's id (`step.nodeId`). */
  nodeId: string;
  agent: RunAgent;
  system: string;
  user: string;
  /** Extra tools the engine offers (hierarchical delegation); the agent's own tools are the port's. */
  tools?: Record<string, DelegationTool>;
  /** A hierarchical run's lead: the names of the co-workers it may delegate to. */
  coworkers?: string[];
};

/** Which step an event is about. */
export type StepRef = {
  /** The step's id, its key in the output map: the node id, or `${baseNodeId}#${n}` for a hierarchical delegation. */
  nodeId: string;
  /** The workflow node the step runs. */
  baseNodeId: string;
  /** The agent of that node. */
  agentId: string;
};

/**
 * A step's lifecycle, reported through `onEvent` in this order: `node_started`, then
 * `node_completed` or `node_failed` (its agent call threw; the engine then rethrows that error).
 * Steps reused from `completed` report nothing. `node_waiting` is the reserved name for a step that
 * will pause for something outside the run (an approval) between started and completed.
 */
export type EngineEvent =
  | ({ type: 'node_started' } & StepRef & StepTimes)
  | ({ type: 'node_completed'; output: NodeOutput } & StepRef & Required<StepTimes>)
  | ({ type: 'node_failed'; error: unknown } & StepRef & Required<StepTimes>);

/** When a step started and ended, read from `ports.now()`: the run's one clock. */
export type StepTimes = { startedAt: number; completedAt?: number };

export type RunPorts = {
  /** Runs one agent (model call with its tools) and reports its answer. */
  callAgent(call: AgentCall): Promise<{ content: string; usage: TokenUsage; model?: string }>;
  /** Milliseconds, for step times; injected so the engine has no clock of its own. */
  now(): number;
  /**
   * Called as each step starts and ends, awaited before the run goes on (the server stores the step,
   * delivers its output and pushes progress); an error thrown on `node_started` or `node_completed`
   * fails the run.
   */
  onEvent?(event: EngineEvent): void | Promise<void>;
  /** Steps a previous attempt already finished: they are reused, never called again. */
  completed?: Record<string, NodeOutput>;
  /** At most this many agents at once in a parallel run (default 4). */
  concurrency?: number;
};

export type RunResult = {
  output: Record<string, NodeOutput>;
  /** Sequential and hierarchical: the final answer; parallel: every output by node id. */
  result: ExecutionResult;
  metrics: ExecutionMetrics;
};

const inputText = (input: unknown) =>
  typeof input === 'string'
    ? input
    : input && Object.keys(input).length > 0
      ? JSON.stringify(input, null, 2)
      : 'Start the task.';

/** Runs a workflow's agents according to its process type (docs/architecture.md, Runs). Pure: all I/O goes through ports. */
export async function runWorkflow(
  definition: RunDefinition,
  input: RunInput,
  ports: RunPorts,
): Promise<RunResult> {
  const started = ports.now();
  const output: Record<string, NodeOutput> = {};
  const byId = new Map(definition.nodes.map((n) => [n.id, n]));

  /** The step node's executor (its kind's, node-kinds/) and its agent, before the step starts. */
  const prepare = (nodeId: string) => {
    const node = byId.get(nodeId);
    const executor = node && engineNodeKinds[node.type].executor;
    if (!node || !executor) throw new WorkflowRunError(`Node "${nodeId}" is not a step a run can execute`);
    return { executor, ...executor.agentOf(node, definition.agents) };
  };

  /**
   * Runs one step: `nodeId` is its id in the output map, `baseNodeId` the node it runs. The step's
   * lifecycle is the run's (reuse, events, times); the work is its kind's executor.
   */
  async function step(
    nodeId: string,
    baseNodeId: string,
    user: string,
    extra?: Partial<AgentCall>,
    delegatedBy?: string,
  ): Promise<NodeOutput> {
    const reused = ports.completed?.[nodeId];
    if (reused) {
      output[nodeId] = reused;
      return reused;
    }
    const { executor, agentId, agent } = prepare(baseNodeId);
    const ref: StepRef = { nodeId, baseNodeId, agentId };
    const startedAt = ports.now();
    await ports.onEvent?.({ type: 'node_started', ...ref, startedAt });
    let done: Omit<NodeOutput, 'executionTime'>;
    try {
      done = await executor.execute({ step: ref, agent, user, extra, delegatedBy }, ports);
    } catch (error) {
      try {
        await ports.onEvent?.({ type: 'node_failed', ...ref, error, startedAt, completedAt: ports.now() });
      } catch {
        // The run fails with the step's own error, not with what went wrong while reporting it.
      }
      throw error;
    }
    const completedAt = ports.now();
    // In the order a step's output has always been written (content, metadata, time, usage).
    const result: NodeOutput = {
      content: done.content,
      metadata: done.metadata,
      executionTime: Math.max(0, completedAt - startedAt),
      usage: done.usage,
    };
    output[nodeId] = result;
    await ports.onEvent?.({ type: 'node_completed', ...ref, output: result, startedAt, completedAt });
    return result;
  }

  const base = {
    input: inputText(input.input),
    instructions: input.instructions,
    parameters: input.parameters,
  };
  const order = sequentialOrder(definition.nodes, definition.edges);
  if (order.length === 0) throw new WorkflowRunError('The workflow has no agent connected to its start node');
  let result: RunResult['result'];

  if (definition.processType === 'parallel') {
    const all = definition.nodes.filter((n) => isStepKind(n.type)).map((n) => n.id);
    const limit = Math.max(1, ports.concurrency ?? 4);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(limit, all.length) }, async () => {
        while (next < all.length) {
          const nodeId = all[next++];
          await step(nodeId, nodeId, buildUserPrompt(base));
        }
      }),
    );
    result = Object.fromEntries(all.map((id) => [id, output[id].content]));
  } else if (definition.processType === 'hierarchical') {
    const [lead, ...coworkers] = order;
    const nameOf = (id: string) => prepare(id).agent.name;
    const names = coworkers.map((id) => `${nameOf(id)} (${prepare(id).agent.role})`).join(', ');
    let delegations = 0;
    const delegate = (kind: 'task' | 'question') => ({
      description:
        kind === 'task'
          ? `Delegate a specific task to one of your co-workers: ${names}. Give the co-worker's name, the task and all the context they need.`
          : `Ask one of your co-workers a question: ${names}. Give the co-worker's name, the question and the context.`,
      inputSchema: {
        type: 'object',
        properties: {
          coworker: { type: 'string', description: 'The co-worker’s name' },
          [kind]: { type: 'string' },
          context: { type: 'string' },
        },
        required: ['coworker', kind],
      },
      async execute(raw: unknown) {
        const args = (raw ?? {}) as Record<string, string>;
        const target = coworkers.find(
          (id) =>
            nameOf(id).toLowerCase() ===
            String(args.coworker ?? '')
              .trim()
              .toLowerCase(),
        );
        if (!target) return `There is no co-worker named "${args.coworker}". Choose one of: ${names}.`;
        // Each delegation is its own recorded step; a second one to the same co-worker gets its own id.
        const stepId = `${target}#${++delegations}`;
        const asked = buildUserPrompt({
          ...base,
          input: `${args[kind]}${args.context ? `\n\nContext:\n${args.context}` : ''}`,
        });
        return (await step(stepId, target, asked, undefined, lead)).content;
      },
    });
    const final = await step(lead, lead, buildUserPrompt(base), {
      tools: { delegate_work_to_coworker: delegate('task'), ask_question_to_coworker: delegate('question') },
      coworkers: coworkers.map(nameOf),
    });
    result = final.content;
  } else {
    for (const nodeId of order) {
      const context = agentPredecessors(nodeId, definition.nodes, definition.edges)
        .filter((id) => output[id])
        .map((id) => ({ agentName: output[id].metadata.agentName, content: output[id].content }));
      await step(nodeId, nodeId, buildUserPrompt({ ...base, context }));
    }
    result = output[order[order.length - 1]].content;
  }

  const steps = Object.values(output);
  const sum = (key: keyof TokenUsage) => steps.reduce((total, s) => total + s.usage[key], 0);
  return {
    output,
    result,
    metrics: {
      totalTokens: sum('totalTokens'),
      promptTokens: sum('promptTokens'),
      completionTokens: sum('completionTokens'),
      durationMs: Math.max(0, ports.now() - started),
      steps: steps.length,
    },
  };
}
