import type { EvaluationRecord, NodeKind, NodeOutput, WorkflowEdge } from '@crewline/contracts';
import type { ExpressionContext, ExpressionScope } from '../expressions';
import type { AgentCall, RunAgent, RunDefinition, RunPorts, StepRef } from '../run-workflow';
import type { WorkflowDraft } from '../validation';

type DraftNode = WorkflowDraft['nodes'][number];
type RunNode = RunDefinition['nodes'][number];

export type NodeValidationContext = {
  /** Whether an agent id belongs to the workflow's organization. */
  agentExists(agentId: string): boolean;
  /** Whether a tool id belongs to the workflow's organization; unknown (not checked) when absent. */
  toolExists?(toolId: string): boolean;
  /** Whether a workflow id belongs to the organization (a map's or loop's target); unchecked when absent. */
  workflowExists?(workflowId: string): boolean;
  /** The workflow being validated, when it has an id: a map or loop may not run its own workflow. */
  workflowId?: string;
  processType: WorkflowDraft['processType'];
  /** The edges leaving a node (those between existing nodes). */
  outgoing(nodeId: string): Pick<WorkflowEdge, 'source' | 'target' | 'sourceHandle'>[];
  /** What an expression in this node may read: the nodes upstream of it and the vars they set. */
  scopeOf(nodeId: string): ExpressionScope;
};

/** What the run knows when a step starts, besides the node. */
export type StepTask = {
  step: StepRef;
  node: RunNode;
  /** Agent kinds: the node's agent (agentOf). */
  agent?: RunAgent;
  /** Agent kinds: the default user message (input, instructions, parameters, the inputs' answers). */
  user: string;
  /** What the process adds to the call (a hierarchical lead's delegation tools and co-workers). */
  extra?: Partial<AgentCall>;
  /** A delegation: the lead's step id. */
  delegatedBy?: string;
  /** What the step's expressions read (sequential runs). */
  expressions: ExpressionContext;
  /** The finished steps whose paths lead into this one and were taken, in the order they finished. */
  inputs: { nodeId: string; output: NodeOutput }[];
  /** What the run offers every step, made once per run: its agents, child steps, live progress. */
  run: StepRunner;
};

/** What the run offers its steps (one object per run, so a step allocates nothing for it). */
export type StepRunner = {
  /** One of the run's agents (those its nodes name), by id. */
  agentById(agentId: string): RunAgent | undefined;
  /**
   * Runs a child step of `parent` (a map's item `map[3]`, a loop's pass `loop#2`) with the run's step
   * lifecycle: reused when an earlier attempt finished it, else started, worked and recorded on its own.
   */
  child(
    parent: StepRef,
    stepId: string,
    ref: Pick<StepRef, 'agentId' | 'kind'>,
    work: (step: StepRef) => Promise<StepResult>,
  ): Promise<NodeOutput>;
  /** A map reports how many items it has, once, before its first item (live progress). */
  items?(parent: StepRef, total: number): void | Promise<void>;
  /** The longest list a map takes (the plan's; MAP_MAX_ITEMS when absent). */
  mapItems?: number;
  /**
   * A test of the node ("Test this node") runs at most this many of a map's items or a loop's
   * passes; a run has no limit.
   */
  limit?: number;
};

/** What a step produced; the run adds its kind, status and time. */
export type StepResult = Pick<NodeOutput, 'content' | 'metadata' | 'usage'> & {
  data?: unknown;
  /** What a step that is not a model call evaluated, for its record (the step inspector). */
  evaluation?: EvaluationRecord;
};

/**
 * How a run executes a node of a kind as a step. The run owns the step's lifecycle (reuse of a
 * finished step, its events, its times); the executor only does the work, through the ports.
 */
export type StepExecutor = {
  /** Agent kinds: the node's agent, resolved before the step starts; throws WorkflowRunError when it is gone. */
  agentOf?(node: RunNode, agents: RunDefinition['agents']): { agentId: string; agent: RunAgent };
  /** Runs the started step: its output, without its time (the run measures it). */
  execute(
    task: StepTask,
    ports: Pick<
      RunPorts,
      'callAgent' | 'callTool' | 'runCode' | 'guard' | 'runWorkflow' | 'stops' | 'waits'
    > &
      Partial<Pick<RunPorts, 'now'>>,
  ): Promise<StepResult>;
};

/** What the engine knows of one node kind (its data and label are the contracts' node-kinds). */
export type EngineNodeKind<Kind extends NodeKind = NodeKind> = {
  kind: Kind;
  /**
   * The errors a draft's nodes of this kind give (all of them at once, in the draft's order, so a
   * kind can also require that there is one).
   */
  validate(nodes: DraftNode[], context: NodeValidationContext): string[];
  /** Absent for the kinds a run passes through without a step (Start, End, Note). */
  executor?: StepExecutor;
  /** Kinds that choose a path: whether the edge leaving from `handle` was taken, given the step's output. */
  takes?(output: NodeOutput, handle: string | null | undefined): boolean;
  /** Kinds that may go on before all their paths are resolved: a merge in `first` mode. */
  waitsForAll?(node: RunNode): boolean;
  /**
   * Kinds that pass their inputs on (conditions, transforms, merges): the steps whose answers a step
   * after them receives instead of theirs; `incoming` for the steps on their taken paths.
   */
  relays?(output: NodeOutput): string[] | 'incoming';
  /** Kinds whose step data has a known shape: its JSON Schema, so expressions reading it are checked at save. */
  outputSchema?(node: DraftNode): Record<string, unknown> | undefined;
  /**
   * Kinds that screen the run's input (a guardrail with no target and no step before it): the step's
   * text then stands for the input in the default message of every step after it.
   */
  screensInput?(node: RunNode, hasInputs: boolean): boolean;
  /** Kinds that set the run's `vars`: what this step's output sets. */
  sets?(output: NodeOutput): Record<string, unknown>;
};
