import type { NodeKind, NodeOutput } from '@crewline/contracts';
import type { AgentCall, RunAgent, RunDefinition, RunPorts, StepRef } from '../run-workflow';
import type { WorkflowDraft } from '../validation';

type DraftNode = WorkflowDraft['nodes'][number];
type RunNode = RunDefinition['nodes'][number];

type NodeValidationContext = {
  /** Whether an agent id belongs to the workflow's organization. */
  agentExists(agentId: string): boolean;
};

/** One step to run: which one, with which agent, asked what. */
type StepTask = {
  step: StepRef;
  agent: RunAgent;
  user: string;
  /** What the process adds to the call (a hierarchical lead's delegation tools and co-workers). */
  extra?: Partial<AgentCall>;
  /** A delegation: the lead's step id. */
  delegatedBy?: string;
};

/**
 * How a run executes a node of a kind as a step. The run owns the step's lifecycle (reuse of a
 * finished step, its events, its times); the executor only does the work, through the ports.
 */
type StepExecutor = {
  /** The node's agent, resolved before the step starts; throws WorkflowRunError when it is gone. */
  agentOf(node: RunNode, agents: RunDefinition['agents']): { agentId: string; agent: RunAgent };
  /** Runs the started step: its output, without its time (the run measures it). */
  execute(task: StepTask, ports: Pick<RunPorts, 'callAgent'>): Promise<Omit<NodeOutput, 'executionTime'>>;
};

/** What the engine knows of one node kind (its data and label are the contracts' node-kinds). */
export type EngineNodeKind<Kind extends NodeKind = NodeKind> = {
  kind: Kind;
  /**
   * The errors a draft's nodes of this kind give (all of them at once, in the draft's order, so a
   * kind can also require that there is one).
   */
  validate(nodes: DraftNode[], context: NodeValidationContext): string[];
  /** Absent for the kinds a run passes through without a step (Start, End). */
  executor?: StepExecutor;
};
