import type {
  ApprovalAssignees,
  ApprovalDecision,
  ApprovalField,
  ApprovalPolicy,
  ApprovalTimeout,
  EvaluationRecord,
  FieldAnswers,
  ExecutionMetrics,
  GuardrailCheck,
  GuardrailModel,
  GuardrailResult,
  ExecutionResult,
  NodeKind,
  NodeOutput,
  TokenUsage,
} from '@crewline/contracts';
import { noStep, RunWaiting, WorkflowRunError } from './errors';
import type { ExpressionContext } from './expressions';
import { engineNodeKinds, type StepResult, type StepRunner, type StepTask } from './node-kinds';
import { sequentialOrder } from './plan';
import { buildUserPrompt, inputText, type PromptAgent } from './prompt';
import { runGraph } from './run-graph';
import { runHierarchy } from './run-hierarchy';
import { addUsage, noUsage } from './usage';

export { RunWaiting, WorkflowRunError };

export type RunAgent = PromptAgent & {
  id: string;
  llmProvider: string;
  llmModel: string;
  /** The JSON Schema its answers follow unless a node declares its own. */
  outputSchema?: Record<string, unknown> | null;
};

export type RunDefinition = {
  processType: 'sequential' | 'hierarchical' | 'parallel';
  nodes: {
    id: string;
    type: NodeKind;
    agentId?: string | null;
    data?: Record<string, unknown>;
  }[];
  edges: { source: string; target: string; sourceHandle?: string | null }[];
  /** The organization's agents referenced by the nodes, by id. */
  agents: Record<string, RunAgent>;
};

export type RunInput = {
  /** What the run was started with; an object is shown to the agents as JSON. */
  input: unknown;
  instructions?: string | null;
  parameters?: Record<string, unknown>;
  /** What expressions read as `run`: the run's id, its trigger and when it started (ISO). */
  run?: { id: string; trigger: string; startedAt: string };
  /** The longest list a map takes: the organization's plan's when the run started (MAP_MAX_ITEMS when absent). */
  mapItems?: number;
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
  /**
   * The JSON Schema (an object) the answer must follow: the node's `outputSchema`, else the agent's.
   * The port asks the model for that shape, checks the answer and returns it parsed as `data`.
   */
  outputSchema?: Record<string, unknown>;
  /**
   * The node has a Blocked path (AGENT_BLOCKED_PATH): a block by one of the agent's guardrails is
   * then answered (`blockedBy`) instead of failing the step, and the run goes on along that path.
   */
  routesBlocks?: boolean;
};

/** What one agent call answered. */
export type AgentAnswer = {
  content: string;
  usage: TokenUsage;
  model?: string;
  /** The parsed answer, when the call had an output schema. */
  data?: unknown;
  /** With `routesBlocks`: the check of the agent's guardrails that blocked; the content says so. */
  blockedBy?: string;
};

/** A Tool step's call: which tool, with the arguments its templates gave. */
/** `mcpTool`: when the tool is an MCP server connection, the server's tool the step calls. */
/** What a Code step asks the sandbox: its source, what it reads, its limits. */
export type CodeCall = {
  step: StepRef;
  source: string;
  /** What the source reads, as plain JSON. */
  globals: { input: unknown; nodes: ExpressionContext['nodes']; vars: Record<string, unknown> };
  timeoutMs: number;
  memoryMb: number;
};

/** The sandbox's answer: the returned JSON value and the captured `console.log` lines. */
export type CodeAnswer = { value: unknown; logs: string[] };

/** What a guardrail asks: its text checked by its checks that are on. */
export type GuardCall = {
  step: StepRef;
  text: string;
  checks: GuardrailCheck[];
  /** The model its classifier checks run on. */
  model: GuardrailModel;
  /** A custom rule's CEL, evaluated over `text` and the run's state: whether it holds. */
  holds(when: string): boolean;
};

/** What the checks found: the text that goes on (redacted where asked), whether it passed, what the classifier calls cost. */
export type GuardAnswer = GuardrailResult & { usage: TokenUsage };

export type ToolCall = {
  step: StepRef;
  toolId: string;
  mcpTool?: string;
  arguments: Record<string, unknown>;
};

/** What an Approval step asks (its title and message rendered with the run's values). */
export type ApprovalRequest = {
  title: string;
  message: string;
  assignees: ApprovalAssignees;
  policy: ApprovalPolicy;
  fields: ApprovalField[];
  timeout?: ApprovalTimeout;
};

/** How an approval ended: its step's `data`. */
export type ApprovalOutcome = {
  decision: 'approved' | 'rejected' | 'timeout';
  decisions: ApprovalDecision[];
  fields: FieldAnswers;
};

/**
 * Steps that wait for something outside the run (docs/product-rules.md, People in the loop). Each
 * resolves when what it waits for has happened; otherwise it stores the wait (the run then waits,
 * holding no worker) and throws RunWaiting. A later attempt runs the workflow again, reusing every
 * finished step, and asks again.
 */
export type WaitPorts = {
  /** A Delay step: resolves once its end has passed. `until` (ms) is its end as first computed; a stored wait keeps its own. */
  delay(step: StepRef, request: { until: number; title: string }): Promise<{ until: number }>;
  /** An Approval step: its outcome once decided or timed out. */
  approval(step: StepRef, request: ApprovalRequest): Promise<ApprovalOutcome>;
};

/** Which step an event is about. */
export type StepRef = {
  /** The step's id, its key in the output map: the node id, or `${baseNodeId}#${n}` for a hierarchical delegation. */
  nodeId: string;
  /** The workflow node the step runs. */
  baseNodeId: string;
  /** The agent of that node; null for steps that call no agent (conditions, transforms, …). */
  agentId: string | null;
  /** The node's kind. */
  kind: NodeKind;
};

/**
 * A step's lifecycle, reported through `onEvent` in this order: `node_started`, then
 * `node_completed` or `node_failed` (its work threw; the engine then rethrows that error).
 * Steps reused from `completed` report nothing. `node_skipped` reports a step whose path was not
 * taken (it never starts); `node_items` how many items a started map has (its items are its child
 * steps, so progress is their count). `node_waiting` is the reserved name for a step that will pause for
 * something outside the run (an approval) between started and completed.
 */
export type EngineEvent =
  | ({ type: 'node_started' } & StepRef & StepTimes)
  | ({ type: 'node_completed'; output: NodeOutput; evaluation?: EvaluationRecord } & StepRef &
      Required<StepTimes>)
  | ({ type: 'node_failed'; error: unknown } & StepRef & Required<StepTimes>)
  | ({ type: 'node_skipped' } & StepRef)
  | ({ type: 'node_waiting' } & StepRef & StepTimes)
  | ({ type: 'node_items'; total: number } & StepRef);

/** When a step started and ended, read from `ports.now()`: the run's one clock. */
export type StepTimes = { startedAt: number; completedAt?: number };

export type RunPorts = {
  /** Runs one agent (model call with its tools) and reports its answer. */
  callAgent(call: AgentCall): Promise<AgentAnswer>;
  /**
   * Runs one of the organization's tools directly, with no model (a Tool step): its result. Absent
   * where runs have no tools (a run fails at a Tool step then).
   */
  callTool?(call: ToolCall): Promise<unknown>;
  /** Runs a Code step's source in the sandbox; throws a readable error. Absent where runs have no sandbox. */
  runCode?(call: CodeCall): Promise<CodeAnswer>;
  /** Runs a guardrail's checks (detectors, classifier and moderation calls, metered). Absent where runs have none. */
  guard?(call: GuardCall): Promise<GuardAnswer>;
  /**
   * Runs another workflow of the organization (a map's item, a loop's pass) with `input`, at its
   * newest version when this run started: its answer, data and tokens. Absent where runs cannot.
   */
  runWorkflow?(call: { step: StepRef; workflowId: string; input: unknown }): Promise<AgentAnswer>;
  /** Steps that wait (approvals, delays); absent where runs cannot wait (such a step fails the run). */
  waits?: WaitPorts;
  /**
   * Whether an error stops the run rather than fails a step (a cancel, a worker stopping, the
   * database away): a map never keeps it as an item's error. A RunWaiting always stops it.
   */
  stops?(error: unknown): boolean;
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

/** What one step is asked, besides its node: see StepTask (node-kinds/types.ts). */
export type StepAsk = Pick<StepTask, 'user' | 'extra' | 'delegatedBy'> & {
  inputs?: StepTask['inputs'];
};

/** Runs a workflow's nodes according to its process type (docs/architecture.md, Runs). Pure: all I/O goes through ports. */
export async function runWorkflow(
  definition: RunDefinition,
  input: RunInput,
  ports: RunPorts,
): Promise<RunResult> {
  const started = ports.now();
  const output: Record<string, NodeOutput> = {};
  const byId = new Map(definition.nodes.map((n) => [n.id, n]));
  // What expressions read: the finished and skipped nodes by id, and the transforms' values.
  const expressions: ExpressionContext = {
    input: input.input,
    nodes: {},
    vars: {},
    run: input.run ?? { id: '', trigger: 'manual', startedAt: new Date(started).toISOString() },
  };
  const settle = (nodeId: string, result: NodeOutput) => {
    output[nodeId] = result;
    const node = byId.get(nodeId);
    if (!node) return;
    expressions.nodes[nodeId] = {
      content: result.content,
      data: result.data ?? null,
      status: result.status ?? 'completed',
    };
    Object.assign(expressions.vars, engineNodeKinds[node.type].sets?.(result));
  };

  /** The step node's executor (its kind's, node-kinds/) and its agent, before the step starts. */
  const prepare = (nodeId: string) => {
    const node = byId.get(nodeId);
    const executor = node && engineNodeKinds[node.type].executor;
    if (!node || !executor) throw new WorkflowRunError(`Node "${nodeId}" is not a step a run can execute`);
    const { agentId = null, agent } = executor.agentOf?.(node, definition.agents) ?? {};
    return { node, executor, agentId, agent };
  };

  /** A step an earlier attempt finished: it counts as it was, and never runs again. */
  const reuse = (nodeId: string) => {
    const reused = ports.completed?.[nodeId];
    if (reused) settle(nodeId, reused);
    return reused;
  };

  /**
   * A step's lifecycle (the run's, for every kind): reused when an earlier attempt finished it;
   * else started, worked and completed (or failed), each reported, timed by the run's one clock.
   */
  async function lifecycle(ref: StepRef, work: () => Promise<StepResult>): Promise<NodeOutput> {
    const reused = reuse(ref.nodeId);
    if (reused) return reused;
    const startedAt = ports.now();
    await ports.onEvent?.({ type: 'node_started', ...ref, startedAt });
    let done: StepResult;
    try {
      done = await work();
    } catch (error) {
      if (error instanceof RunWaiting) {
        // Not a failure: the step goes on in a later attempt.
        await ports.onEvent?.({ type: 'node_waiting', ...ref, startedAt });
        throw error;
      }
      try {
        await ports.onEvent?.({ type: 'node_failed', ...ref, error, startedAt, completedAt: ports.now() });
      } catch {
        // The run fails with the step's own error, not with what went wrong while reporting it.
      }
      throw error;
    }
    const completedAt = ports.now();
    // In the order a step's output has always been written (content, metadata, time, usage), then
    // what kinds added (its kind, its data, its status).
    const result: NodeOutput = {
      content: done.content,
      metadata: done.metadata,
      executionTime: Math.max(0, completedAt - startedAt),
      usage: done.usage,
      kind: ref.kind,
      ...(done.data !== undefined ? { data: done.data } : {}),
      status: 'completed',
    };
    settle(ref.nodeId, result);
    await ports.onEvent?.({
      type: 'node_completed',
      ...ref,
      output: result,
      ...(done.evaluation ? { evaluation: done.evaluation } : {}),
      startedAt,
      completedAt,
    });
    return result;
  }

  /** What every step of this run is offered (node-kinds/types.ts, StepRunner): made once. */
  const runner: StepRunner = {
    agentById: (id) => definition.agents[id],
    mapItems: input.mapItems,
    items: (parent, total) => ports.onEvent?.({ type: 'node_items', ...parent, total }),
    child(parent, childId, childRef, work) {
      const child: StepRef = { nodeId: childId, baseNodeId: parent.baseNodeId, ...childRef };
      return lifecycle(child, () => work(child));
    },
  };

  /**
   * Runs one step: `nodeId` is its id in the output map, `baseNodeId` the node it runs. The step's
   * lifecycle is the run's; the work is its kind's executor, which may run child steps (a map's
   * items, a loop's passes) with the same lifecycle.
   */
  async function step(nodeId: string, baseNodeId: string, ask: StepAsk): Promise<NodeOutput> {
    // A finished step needs nothing of its node (its agent may be gone since).
    const reused = reuse(nodeId);
    if (reused) return reused;
    const { node, executor, agentId, agent } = prepare(baseNodeId);
    const ref: StepRef = { nodeId, baseNodeId, agentId, kind: node.type };
    const task: StepTask = {
      ...ask,
      step: ref,
      node,
      agent,
      expressions,
      inputs: ask.inputs ?? [],
      run: runner,
    };
    return lifecycle(ref, () => executor.execute(task, ports));
  }

  /** A step whose path was not taken: in the output map as skipped, never started. */
  async function skip(nodeId: string): Promise<void> {
    const node = byId.get(nodeId)!;
    settle(nodeId, {
      content: '',
      metadata: { baseNodeId: nodeId },
      executionTime: 0,
      usage: noUsage,
      kind: node.type,
      status: 'skipped',
    });
    await ports.onEvent?.({
      type: 'node_skipped',
      nodeId,
      baseNodeId: nodeId,
      agentId: null,
      kind: node.type,
    });
  }

  const base = {
    input: inputText(input.input),
    instructions: input.instructions,
    parameters: input.parameters,
  };
  // Parallel and hierarchical runs are agents only (validation refuses the other kinds there).
  const agentsInOrder = () =>
    sequentialOrder(definition.nodes, definition.edges).filter((id) => byId.get(id)?.type === 'agent');
  let result: RunResult['result'];

  if (definition.processType === 'parallel') {
    const all = definition.nodes.filter((n) => n.type === 'agent').map((n) => n.id);
    if (agentsInOrder().length === 0) throw new WorkflowRunError(noStep);
    const limit = Math.max(1, ports.concurrency ?? 4);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(limit, all.length) }, async () => {
        while (next < all.length) {
          const nodeId = all[next++];
          await step(nodeId, nodeId, { user: buildUserPrompt(base) });
        }
      }),
    );
    result = Object.fromEntries(all.map((id) => [id, output[id].content]));
  } else if (definition.processType === 'hierarchical') {
    const order = agentsInOrder();
    if (order.length === 0) throw new WorkflowRunError(noStep);
    result = await runHierarchy(order, { base, step, agentOf: (id) => prepare(id).agent! });
  } else {
    result = await runGraph(definition, { base, step, skip, output });
  }

  const steps = Object.values(output).filter((s) => s.status !== 'skipped');
  const usage = steps.reduce((total, s) => addUsage(total, s.usage), noUsage);
  return {
    output,
    result,
    metrics: {
      ...usage,
      durationMs: Math.max(0, ports.now() - started),
      steps: steps.length,
    },
  };
}
