// One run's state as the web knows it, folded from its realtime events and its read from the server
// (GET /api/executions/:id). One state per execution serves every view of a run: the builder's canvas
// marks (`nodes`), the run panel and the run details (`steps`, their answers as the model streams
// them), and the executions cards' step line (`heard`). The store that keeps one per run and the hook
// that reads it are in run-store.ts; this module stays pure.
import {
  stepNodeId,
  type Execution,
  type NodeOutput,
  type RealtimeEvent,
  type RealtimeEventType,
} from '@crewline/contracts';

export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';
export type StepStatus = 'running' | 'completed' | 'failed';

/** A workflow node's mark on the canvas (a delegation's step marks its co-worker's node). */
export interface NodeRunState {
  status: StepStatus;
  /** Milliseconds the agent took (completed nodes). */
  executionTime?: number;
  totalTokens?: number;
}

/** One step as it happens. */
export interface RunStep {
  /** The step's id: its node id, or `${baseNodeId}#n` for a hierarchical delegation. */
  stepId: string;
  /** The workflow node it runs. */
  baseNodeId: string;
  agentName: string | null;
  status: StepStatus;
  /** The answer streamed so far. */
  text: string;
  /** How far into the answer `text` reaches (updates say where they start). */
  end: number;
  /** Some of the answer was not heard (the view opened mid-step, or an update was lost). */
  missed: boolean;
  executionTime?: number;
  totalTokens?: number;
  error?: string;
}

/** The step events heard, by workflow node (a delegation counts as its co-worker's node). */
export interface StepsHeard {
  /** Nodes whose step started, in the order they started (a node started again moves to the end). */
  started: string[];
  /** Nodes whose latest step ended (completed or failed). */
  ended: string[];
}

export const NOTHING_HEARD: StepsHeard = { started: [], ended: [] };

export interface RunState {
  executionId: string;
  workflowId: string | null;
  /** Null until the run is heard starting or read (a pending run counts as running). */
  status: RunStatus | null;
  error: string | null;
  nodes: Record<string, NodeRunState>;
  /** In the order they started. */
  steps: RunStep[];
  /** Step events only: what the stored outputs say is merged by the card (see heardFromOutput). */
  heard: StepsHeard;
}

export const RUN_EVENTS = [
  'workflow_execution_started',
  'workflow_execution_completed',
  'workflow_execution_failed',
  'workflow_execution_cancelled',
  'execution_node_started',
  'execution_node_delta',
  'execution_node_completed',
  'execution_node_failed',
] as const satisfies readonly RealtimeEventType[];

/** Marks a gap in a streamed answer (at its start when the view opened mid-step). */
export const GAP = ' … ';

export function emptyRun(executionId: string, workflowId: string | null = null): RunState {
  return { executionId, workflowId, status: null, error: null, nodes: {}, steps: [], heard: NOTHING_HEARD };
}

function newStep(stepId: string, baseNodeId: string): RunStep {
  return { stepId, baseNodeId, agentName: null, status: 'running', text: '', end: 0, missed: false };
}

/** `text` continuing the answer at `offset`: appended, its overlap dropped, a gap marked. */
function withUpdate(step: RunStep, offset: number, text: string): RunStep {
  const end = offset + text.length;
  if (end <= step.end) return step; // heard already
  if (offset <= step.end) return { ...step, text: step.text + text.slice(step.end - offset), end };
  return { ...step, text: `${step.text}${GAP}${text}`, end, missed: true };
}

/** The record of steps heard after one step event. */
export function heardStep(heard: StepsHeard, event: { type: string; baseNodeId: string }): StepsHeard {
  const node = event.baseNodeId;
  if (event.type === 'execution_node_started') {
    return {
      started: [...heard.started.filter((id) => id !== node), node],
      ended: heard.ended.filter((id) => id !== node),
    };
  }
  return heard.ended.includes(node) ? heard : { ...heard, ended: [...heard.ended, node] };
}

function mapRunningNodes(
  nodes: Record<string, NodeRunState>,
  change: (node: NodeRunState) => NodeRunState | null,
): Record<string, NodeRunState> {
  const next: Record<string, NodeRunState> = {};
  for (const [id, node] of Object.entries(nodes)) {
    const changed = node.status === 'running' ? change(node) : node;
    if (changed) next[id] = changed;
  }
  return next;
}

type StepEvent = Extract<RealtimeEvent, { nodeId: string; baseNodeId: string }>;

function reduceStep(state: RunState, event: StepEvent): RunState {
  const index = state.steps.findIndex((step) => step.stepId === event.nodeId);
  const current = index >= 0 ? state.steps[index] : newStep(event.nodeId, event.baseNodeId);
  let step: RunStep;
  let node: NodeRunState | null = null;
  switch (event.type) {
    case 'execution_node_started':
      step = { ...current, agentName: event.agentName ?? current.agentName };
      node = { status: 'running' };
      break;
    case 'execution_node_delta':
      // The answer streams; the run's marks and record of steps do not change.
      if (current.status !== 'running') return state;
      step = withUpdate(current, event.offset, event.text);
      if (step === current) return state;
      break;
    case 'execution_node_completed':
      step = {
        ...current,
        status: 'completed',
        executionTime: event.executionTime,
        totalTokens: event.totalTokens,
      };
      node = { status: 'completed', executionTime: event.executionTime, totalTokens: event.totalTokens };
      break;
    case 'execution_node_failed':
      step = { ...current, status: 'failed', error: event.error };
      node = { status: 'failed' };
      break;
    default:
      return state;
  }
  const steps = index >= 0 ? state.steps.map((was, i) => (i === index ? step : was)) : [...state.steps, step];
  if (!node) return { ...state, steps };
  return {
    ...state,
    // A run heard only by its steps (the view opened mid-run) is running.
    status: state.status ?? 'running',
    steps,
    nodes: { ...state.nodes, [event.baseNodeId]: node },
    heard: heardStep(state.heard, event),
  };
}

/** The run after one of its realtime events; events of other runs change nothing. */
export function reduceRun(state: RunState, event: RealtimeEvent): RunState {
  if (!('executionId' in event) || event.executionId !== state.executionId) return state;
  const workflowId = state.workflowId ?? event.workflowId;
  const base = workflowId === state.workflowId ? state : { ...state, workflowId };
  switch (event.type) {
    case 'workflow_execution_started':
      return base.status === 'running' ? base : { ...base, status: 'running' };
    case 'execution_node_started':
    case 'execution_node_delta':
    case 'execution_node_completed':
    case 'execution_node_failed': {
      const next = reduceStep(base, event);
      return next === base ? state : next;
    }
    case 'workflow_execution_completed':
      return { ...base, status: 'completed' };
    case 'workflow_execution_failed':
      // A step that failed said so (execution_node_failed); one still running failed with the run
      // (its output could not be delivered, or its failure event was missed).
      return {
        ...base,
        status: 'failed',
        error: event.error,
        nodes: mapRunningNodes(base.nodes, () => ({ status: 'failed' })),
      };
    case 'workflow_execution_cancelled':
      // A cancelled node neither finished nor failed: its mark goes.
      return { ...base, status: 'cancelled', nodes: mapRunningNodes(base.nodes, () => null) };
    default:
      return state;
  }
}

/** The parts of a run read from the server (GET /api/executions/:id, or a list's summary) a seed reads. */
export type RunRead = Pick<Execution, 'id' | 'workflowId' | 'status' | 'output'>;

function finishedStep(step: NodeOutput): NodeRunState {
  return { status: 'completed', executionTime: step.executionTime, totalTokens: step.usage.totalTokens };
}

/**
 * The run with what its read says: its status, and its finished steps (stored in its output) marked
 * done. Events stay the authority: a run already heard ending is not revived by an older read, and
 * marks set by events win.
 */
export function seedRun(state: RunState, read: RunRead): RunState {
  if (read.id !== state.executionId) return state;
  if (state.status !== null && state.status !== 'running') return state;
  const status: RunStatus = read.status === 'pending' ? 'running' : read.status;
  let nodes = state.nodes;
  for (const [stepId, step] of Object.entries(read.output)) {
    const nodeId = stepNodeId(stepId, step);
    if (nodes[nodeId]) continue;
    nodes = { ...nodes, [nodeId]: finishedStep(step) };
  }
  if (nodes === state.nodes && status === state.status && state.workflowId === read.workflowId) return state;
  return { ...state, workflowId: read.workflowId, status, nodes };
}

/** Counts for the run summary: agents done out of the agents the run touched. */
export function summarizeRun(run: Pick<RunState, 'nodes'>): {
  running: number;
  completed: number;
  failed: number;
} {
  const counts = { running: 0, completed: 0, failed: 0 };
  for (const node of Object.values(run.nodes)) counts[node.status] += 1;
  return counts;
}
