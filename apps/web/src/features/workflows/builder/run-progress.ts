// Live progress of a run on the builder canvas: which agent node is running, done or failed in the
// newest run of the open workflow, from the realtime events (lib/realtime.tsx). Kept apart from the
// editor store on purpose: the marks never touch the nodes, so they cannot make the workflow dirty
// and are never saved or exported with it.
// The hook that feeds it is in use-run-progress.ts; this module stays pure (zustand only) for tests.
import {
  stepNodeId,
  type Execution,
  type NodeOutput,
  type RealtimeEvent,
  type RealtimeEventType,
} from '@crewline/contracts';
import { create } from 'zustand';

export type NodeRunStatus = 'running' | 'completed' | 'failed';

export interface NodeRunState {
  status: NodeRunStatus;
  /** Milliseconds the agent took (completed nodes). */
  executionTime?: number;
  totalTokens?: number;
}

export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';

export interface RunProgress {
  /** The workflow whose runs are followed (the one open in the builder); null follows nothing. */
  workflowId: string | null;
  /** The run shown; null before any run of this workflow was seen. */
  executionId: string | null;
  status: RunStatus | null;
  error: string | null;
  nodes: Record<string, NodeRunState>;
}

export const RUN_PROGRESS_EVENTS = [
  'workflow_execution_started',
  'workflow_execution_completed',
  'workflow_execution_failed',
  'workflow_execution_cancelled',
  'execution_node_started',
  'execution_node_completed',
  'execution_node_failed',
] as const satisfies readonly RealtimeEventType[];

export function emptyRunProgress(workflowId: string | null = null): RunProgress {
  return { workflowId, executionId: null, status: null, error: null, nodes: {} };
}

function startRun(state: RunProgress, executionId: string): RunProgress {
  return { ...emptyRunProgress(state.workflowId), executionId, status: 'running' };
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

/**
 * The next progress after an event. Only events of the followed workflow count. A run that starts
 * replaces the one shown (its marks are cleared); node events of a run not seen starting (the page
 * opened mid-run) adopt it when nothing else is in progress. Events of an older run are ignored.
 */
export function reduceRunProgress(state: RunProgress, event: RealtimeEvent): RunProgress {
  if (!state.workflowId || !('executionId' in event) || event.workflowId !== state.workflowId) return state;
  const current = event.executionId === state.executionId;
  const inProgress = state.status === 'running';

  switch (event.type) {
    case 'workflow_execution_started':
      return current ? { ...state, status: 'running' } : startRun(state, event.executionId);

    case 'execution_node_started':
    case 'execution_node_completed':
    case 'execution_node_failed': {
      if (!current && inProgress) return state;
      const base = current ? state : startRun(state, event.executionId);
      const node: NodeRunState =
        event.type === 'execution_node_started'
          ? { status: 'running' }
          : event.type === 'execution_node_failed'
            ? { status: 'failed' }
            : { status: 'completed', executionTime: event.executionTime, totalTokens: event.totalTokens };
      // A canvas marks workflow nodes: a delegation's step marks its co-worker's node.
      return { ...base, nodes: { ...base.nodes, [event.baseNodeId]: node } };
    }

    case 'workflow_execution_completed':
      if (!current) return state;
      return { ...state, status: 'completed' };

    case 'workflow_execution_failed':
      if (!current) return state;
      // A step that failed said so (execution_node_failed); one still running failed with the run
      // (its output could not be delivered, or its failure event was missed).
      return {
        ...state,
        status: 'failed',
        error: event.error,
        nodes: mapRunningNodes(state.nodes, () => ({ status: 'failed' })),
      };

    case 'workflow_execution_cancelled':
      if (!current) return state;
      // A cancelled node neither finished nor failed: its mark goes.
      return { ...state, status: 'cancelled', nodes: mapRunningNodes(state.nodes, () => null) };

    default:
      return state;
  }
}

/** The parts of an execution (GET /api/executions) a seed reads. */
export type ExecutionLike = Pick<Execution, 'id' | 'workflowId' | 'status' | 'output' | 'createdAt'>;

function finishedStep(step: NodeOutput): NodeRunState {
  return { status: 'completed', executionTime: step.executionTime, totalTokens: step.usage.totalTokens };
}

/** The newest run of the workflow that is still in progress (pending or running), if any. */
export function newestRunInProgress<T extends ExecutionLike>(
  executions: readonly T[],
  workflowId: string,
): T | null {
  let newest: T | null = null;
  for (const execution of executions) {
    if (execution.workflowId !== workflowId) continue;
    if (execution.status !== 'running' && execution.status !== 'pending') continue;
    if (!newest || Date.parse(execution.createdAt) > Date.parse(newest.createdAt)) newest = execution;
  }
  return newest;
}

/**
 * Seeds the progress from a run read from the server (the builder opened mid-run): its finished
 * steps are stored in its output. Events stay the authority: a run already seen finished is not
 * revived by an older read, another run in progress is not replaced, and marks set by events win.
 */
export function seedRunProgress(state: RunProgress, execution: ExecutionLike): RunProgress {
  if (!state.workflowId || execution.workflowId !== state.workflowId) return state;
  if (execution.status !== 'running' && execution.status !== 'pending') return state;
  const same = execution.id === state.executionId;
  if (same && state.status !== 'running') return state;
  if (!same && state.status === 'running') return state;
  const base = same ? state : startRun(state, execution.id);
  let nodes = base.nodes;
  for (const [stepId, step] of Object.entries(execution.output)) {
    const nodeId = stepNodeId(stepId, step);
    if (nodes[nodeId]) continue;
    nodes = { ...nodes, [nodeId]: finishedStep(step) };
  }
  return nodes === base.nodes && same ? state : { ...base, nodes };
}

/** Counts for the run summary: agents done out of the agents the run touched. */
export function summarizeRun(progress: Pick<RunProgress, 'nodes'>): {
  running: number;
  completed: number;
  failed: number;
} {
  const counts = { running: 0, completed: 0, failed: 0 };
  for (const node of Object.values(progress.nodes)) counts[node.status] += 1;
  return counts;
}

interface RunProgressStore extends RunProgress {
  /** Follow the runs of this workflow (null: none), forgetting what was shown. */
  follow: (workflowId: string | null) => void;
  apply: (event: RealtimeEvent) => void;
  /** Seed from a run read from the server (see seedRunProgress). */
  seed: (execution: ExecutionLike) => void;
  /** Hide the marks of the run shown (until the next run starts). */
  clear: () => void;
  /** Whether the run panel shows the run's steps (opened by a run started from the builder). */
  panelOpen: boolean;
  setPanelOpen: (open: boolean) => void;
}

export const useRunProgressStore = create<RunProgressStore>()((set, get) => ({
  ...emptyRunProgress(),
  panelOpen: false,
  setPanelOpen: (panelOpen) => set({ panelOpen }),
  follow: (workflowId) => {
    if (get().workflowId === workflowId && workflowId !== null) return;
    set({ ...emptyRunProgress(workflowId), panelOpen: false });
  },
  apply: (event) =>
    set((state) => {
      const next = reduceRunProgress(state, event);
      return next === state ? state : next;
    }),
  seed: (execution) =>
    set((state) => {
      const next = seedRunProgress(state, execution);
      return next === state ? state : next;
    }),
  clear: () => set((state) => ({ ...emptyRunProgress(state.workflowId) })),
}));

/** The mark of one node (re-renders only that node when it changes). */
export function useNodeRunState(nodeId: string): NodeRunState | undefined {
  return useRunProgressStore((s) => s.nodes[nodeId]);
}
