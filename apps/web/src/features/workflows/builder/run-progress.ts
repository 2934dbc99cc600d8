// Which run the builder shows on its canvas and in its run panel: the newest run of the open
// workflow, chosen from the realtime events. What that run did (its marks, steps and status) is its
// state in lib/runs (useRun). Kept apart from the editor store on purpose: the marks never touch
// the nodes, so they cannot make the workflow dirty and are never saved or exported with it.
// The hook that feeds it is in use-run-progress.ts; this module stays pure (zustand only) for tests.
// A node whose path was not taken is skipped (useNodeSkipped: greyed, never a step), and the edges the
// run went along or not come from useRunPathMarks (lib/runs/run-paths.ts). A map's or a loop's
// progress (its items done, its pass) is useNodeItems.
import type { Execution, RealtimeEvent, RealtimeEventType } from '@crewline/contracts';
import { isRunActive } from '@crewline/contracts/vocabulary';
import { useMemo } from 'react';
import { create } from 'zustand';

import { edgePathMarks, type EdgePathMark, type PathNodeMark } from '@/lib/runs/run-paths';
import { seedRunRead, useRunStore } from '@/lib/runs/run-store';
import type { NodeItems, NodeRunState, NodeStatus, RunRead, RunState, RunStatus } from '@/lib/runs/run-state';

/** A node's mark on the canvas: its run's state (lib/runs). */
export type { NodeRunState };
export type NodeRunStatus = NodeStatus;

export interface ShownRun {
  /** The workflow whose runs are followed (the one open in the builder); null follows nothing. */
  workflowId: string | null;
  /** The run shown; null before any run of this workflow was seen (or once hidden). */
  executionId: string | null;
  /** Whether the run shown is still in progress, as its events said (a newer run then waits). */
  status: RunStatus | null;
}

export const SHOWN_RUN_EVENTS = [
  'workflow_execution_started',
  'workflow_execution_completed',
  'workflow_execution_failed',
  'workflow_execution_cancelled',
  'workflow_execution_waiting',
  'execution_node_started',
  'execution_node_completed',
  'execution_node_failed',
  'execution_node_skipped',
] as const satisfies readonly RealtimeEventType[];

export function noRunShown(workflowId: string | null = null): ShownRun {
  return { workflowId, executionId: null, status: null };
}

const show = (state: ShownRun, executionId: string): ShownRun => ({
  workflowId: state.workflowId,
  executionId,
  status: 'running',
});

/**
 * The run shown after an event. Only events of the followed workflow count. A run that starts
 * replaces the one shown; node events of a run not seen starting (the page opened mid-run) adopt it
 * when nothing else is in progress. Events of an older run are ignored.
 */
export function reduceShownRun(state: ShownRun, event: RealtimeEvent): ShownRun {
  if (!state.workflowId || !('executionId' in event) || event.workflowId !== state.workflowId) return state;
  const current = event.executionId === state.executionId;
  switch (event.type) {
    case 'workflow_execution_started':
      return current && state.status === 'running' ? state : show(state, event.executionId);
    case 'execution_node_started':
    case 'execution_node_completed':
    case 'execution_node_failed':
    case 'execution_node_skipped':
      if (current || state.status === 'running') return state;
      return show(state, event.executionId);
    case 'workflow_execution_completed':
    case 'workflow_execution_failed':
    case 'workflow_execution_cancelled':
    case 'workflow_execution_waiting': {
      // A waiting run stays shown (with its waiting step marked) until another run starts.
      if (!current) return state;
      const status = event.type.slice('workflow_execution_'.length) as RunStatus;
      return { ...state, status };
    }
    default:
      return state;
  }
}

/** The parts of an execution (GET /api/executions) the choice reads. */
export type ExecutionLike = RunRead & Pick<Execution, 'createdAt'>;

/** The newest run of the workflow that is still in progress (pending, running or waiting), if any. */
export function newestRunInProgress<T extends ExecutionLike>(
  executions: readonly T[],
  workflowId: string,
): T | null {
  let newest: T | null = null;
  for (const execution of executions) {
    if (execution.workflowId !== workflowId) continue;
    if (!isRunActive(execution.status)) continue;
    if (!newest || Date.parse(execution.createdAt) > Date.parse(newest.createdAt)) newest = execution;
  }
  return newest;
}

/**
 * The run shown once a run in progress was read from the server (the builder opened mid-run, or a
 * run started from it): a run already seen finished is not revived by an older read, and another
 * run in progress is not replaced.
 */
export function seedShownRun(state: ShownRun, execution: RunRead): ShownRun {
  if (!state.workflowId || execution.workflowId !== state.workflowId) return state;
  if (!isRunActive(execution.status)) return state;
  const same = execution.id === state.executionId;
  if (same || state.status === 'running') return state;
  return show(state, execution.id);
}

interface RunProgressStore extends ShownRun {
  /** Follow the runs of this workflow (null: none), forgetting what was shown. */
  follow: (workflowId: string | null) => void;
  apply: (event: RealtimeEvent) => void;
  /** A run read from the server: folded into its state (lib/runs), and shown (see seedShownRun). */
  seed: (execution: RunRead) => void;
  /** Hide the run shown (until the next run starts). */
  clear: () => void;
  /** Whether the run panel shows the run's steps (opened by a run started from the builder). */
  panelOpen: boolean;
  setPanelOpen: (open: boolean) => void;
}

export const useRunProgressStore = create<RunProgressStore>()((set, get) => ({
  ...noRunShown(),
  panelOpen: false,
  setPanelOpen: (panelOpen) => set({ panelOpen }),
  follow: (workflowId) => {
    if (get().workflowId === workflowId && workflowId !== null) return;
    set({ ...noRunShown(workflowId), panelOpen: false });
  },
  apply: (event) =>
    set((state) => {
      const next = reduceShownRun(state, event);
      return next === state ? state : next;
    }),
  seed: (execution) => {
    // Only a run of the followed workflow in progress; the state's events stay the authority.
    const next = seedShownRun(get(), execution);
    if (execution.id === next.executionId) seedRunRead(execution);
    if (next !== get()) set(next);
  },
  clear: () => set((state) => noRunShown(state.workflowId)),
}));

/** The mark of one node in the run shown (re-renders only that node when it changes). */
export function useNodeRunState(nodeId: string): NodeRunState | undefined {
  const executionId = useRunProgressStore((s) => s.executionId);
  return useRunStore((s) => (executionId ? s.runs[executionId]?.nodes[nodeId] : undefined));
}

/** A map's items or a loop's passes in the run shown (its child steps' progress), if it has any. */
export function useNodeItems(nodeId: string): NodeItems | undefined {
  const executionId = useRunProgressStore((s) => s.executionId);
  return useRunStore((s) => (executionId ? s.runs[executionId]?.items[nodeId] : undefined));
}

/** Whether the run shown skipped this node (its path was not taken): the canvas greys it. */
export function useNodeSkipped(nodeId: string): boolean {
  const executionId = useRunProgressStore((s) => s.executionId);
  return useRunStore((s) => (executionId ? !!s.runs[executionId]?.skipped[nodeId] : false));
}

/** Every node's mark for the paths: the steps that ran, and the skipped ones. */
export function pathNodeMarks(run: Pick<RunState, 'nodes' | 'skipped'>): Record<string, PathNodeMark> {
  const marks: Record<string, PathNodeMark> = { ...run.nodes };
  for (const id of Object.keys(run.skipped)) marks[id] = { status: 'skipped' };
  return marks;
}

const NO_MARKS: Record<string, EdgePathMark> = {};

/**
 * Whether the run shown went along each edge of the canvas (taken), or not (into a skipped node, or
 * from a condition's other branch), by edge id; edges it has not reached are left out.
 */
export function useRunPathMarks(
  edges: readonly { id: string; source: string; target: string; sourceHandle?: string | null }[],
  nodes: readonly { id: string; type?: string }[],
): Record<string, EdgePathMark> {
  const executionId = useRunProgressStore((s) => s.executionId);
  const ran = useRunStore((s) => (executionId ? s.runs[executionId]?.nodes : undefined));
  const skipped = useRunStore((s) => (executionId ? s.runs[executionId]?.skipped : undefined));
  return useMemo(() => {
    if (!ran || !skipped) return NO_MARKS;
    const typed = nodes.map((node) => ({ id: node.id, type: node.type ?? '' }));
    return edgePathMarks(edges, typed, pathNodeMarks({ nodes: ran, skipped }));
  }, [edges, nodes, ran, skipped]);
}
