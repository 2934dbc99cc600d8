import type { ExecutionStatus, NodeOutput, RealtimeEvent } from '@crewline/contracts';
import { beforeEach, describe, expect, it } from 'vitest';

import { edgePathMarks } from '@/lib/runs/run-paths';
import { emptyRun, reduceRun, seedRun, summarizeRun, type RunState } from '@/lib/runs/run-state';
import { applyRunEvent, useRunStore } from '@/lib/runs/run-store';

import {
  newestRunInProgress,
  noRunShown,
  pathNodeMarks,
  reduceShownRun,
  seedShownRun,
  useRunProgressStore,
  type ShownRun,
} from './run-progress';
import { builderSnapshot, useBuilderStore } from './store';

const W = 'wf-1';
const ids = (executionId: string, workflowId = W) => ({ organizationId: 'org', workflowId, executionId });

const started = (e: string, w = W): RealtimeEvent => ({ type: 'workflow_execution_started', ...ids(e, w) });
const nodeStarted = (e: string, nodeId: string, w = W, baseNodeId = nodeId): RealtimeEvent => ({
  type: 'execution_node_started',
  ...ids(e, w),
  nodeId,
  baseNodeId,
});
const nodeDone = (e: string, nodeId: string, executionTime = 1200, baseNodeId = nodeId): RealtimeEvent => ({
  type: 'execution_node_completed',
  ...ids(e),
  nodeId,
  baseNodeId,
  executionTime,
  totalTokens: 42,
});
const nodeFailed = (e: string, nodeId: string): RealtimeEvent => ({
  type: 'execution_node_failed',
  ...ids(e),
  nodeId,
  baseNodeId: nodeId,
  error: 'OpenAI answered 500: overloaded',
});
const completed = (e: string): RealtimeEvent => ({ type: 'workflow_execution_completed', ...ids(e) });
const failed = (e: string): RealtimeEvent => ({
  type: 'workflow_execution_failed',
  ...ids(e),
  error: 'LLM timed out',
});
const cancelled = (e: string): RealtimeEvent => ({ type: 'workflow_execution_cancelled', ...ids(e) });

/** What the builder shows: the run chosen (run-progress.ts) with its state (lib/runs). */
interface RunProgress extends ShownRun {
  error: string | null;
  nodes: RunState['nodes'];
  /** Every run's state (lib/runs keeps them apart from the choice); not part of what is shown. */
  runs: Record<string, RunState>;
}

const emptyRunProgress = (workflowId: string | null): RunProgress => ({
  ...noRunShown(workflowId),
  error: null,
  nodes: {},
  runs: {},
});

/** What is shown now; the same object when nothing shown changed. */
function view(shown: ShownRun, runs: Record<string, RunState>, was: RunProgress): RunProgress {
  const state = shown.executionId ? runs[shown.executionId] : undefined;
  const next = { ...shown, error: state?.error ?? null, nodes: state?.nodes ?? {}, runs };
  const same =
    shown.workflowId === was.workflowId &&
    shown.executionId === was.executionId &&
    shown.status === was.status &&
    next.error === was.error &&
    (next.nodes === was.nodes || (!state && Object.keys(was.nodes).length === 0));
  return same ? was : next;
}

function reduceRunProgress(state: RunProgress, event: RealtimeEvent): RunProgress {
  let runs = state.runs;
  if ('executionId' in event) {
    const was = runs[event.executionId] ?? emptyRun(event.executionId);
    runs = { ...runs, [event.executionId]: reduceRun(was, event) };
  }
  return view(reduceShownRun(state, event), runs, state);
}

function seedRunProgress(state: RunProgress, execution: Parameters<typeof seedRun>[1]): RunProgress {
  const shown = seedShownRun(state, execution);
  let runs = state.runs;
  if (shown.executionId === execution.id) {
    const was = runs[execution.id] ?? emptyRun(execution.id);
    runs = { ...runs, [execution.id]: seedRun(was, execution) };
  }
  return view(shown, runs, state);
}

function run(events: RealtimeEvent[], from: RunProgress = emptyRunProgress(W)): RunProgress {
  return events.reduce(reduceRunProgress, from);
}

describe('reduceRunProgress', () => {
  it('marks nodes running, then done with their time, through a whole run', () => {
    const mid = run([
      started('e1'),
      nodeStarted('e1', 'a'),
      nodeDone('e1', 'a', 850),
      nodeStarted('e1', 'b'),
    ]);
    expect(mid).toMatchObject({ executionId: 'e1', status: 'running' });
    expect(mid.nodes).toEqual({
      a: { status: 'completed', executionTime: 850, totalTokens: 42 },
      b: { status: 'running' },
    });
    expect(summarizeRun(mid)).toEqual({ running: 1, waiting: 0, completed: 1, failed: 0 });

    const done = run([nodeDone('e1', 'b'), completed('e1')], mid);
    expect(done.status).toBe('completed');
    expect(summarizeRun(done)).toEqual({ running: 0, waiting: 0, completed: 2, failed: 0 });
  });

  it("marks a hierarchical delegation's steps on its co-worker's node", () => {
    const state = run([
      started('e1'),
      nodeStarted('e1', 'lead'),
      nodeStarted('e1', 'analyst#1', W, 'analyst'),
      nodeDone('e1', 'analyst#1', 300, 'analyst'),
      nodeStarted('e1', 'analyst#2', W, 'analyst'),
    ]);
    expect(state.nodes).toEqual({ lead: { status: 'running' }, analyst: { status: 'running' } });
  });

  it('marks the node running at the failure as failed and keeps the error', () => {
    const state = run([
      started('e1'),
      nodeStarted('e1', 'a'),
      nodeDone('e1', 'a'),
      nodeStarted('e1', 'b'),
      failed('e1'),
    ]);
    expect(state.status).toBe('failed');
    expect(state.error).toBe('LLM timed out');
    expect(state.nodes.a.status).toBe('completed');
    expect(state.nodes.b).toEqual({ status: 'failed' });
  });

  it('marks a node failed as soon as its step fails, before the run ends', () => {
    const state = run([started('e1'), nodeStarted('e1', 'a'), nodeStarted('e1', 'b'), nodeFailed('e1', 'b')]);
    expect(state.status).toBe('running');
    expect(state.nodes).toEqual({ a: { status: 'running' }, b: { status: 'failed' } });
    expect(summarizeRun(state)).toEqual({ running: 1, waiting: 0, completed: 0, failed: 1 });
    // A failed step of an older run is ignored; one of a run seen only now is adopted.
    const next = run([started('e2')], run([completed('e1')], state));
    expect(run([nodeFailed('e1', 'a')], next)).toBe(next);
    expect(run([nodeFailed('e3', 'x')], emptyRunProgress(W))).toMatchObject({
      executionId: 'e3',
      nodes: { x: { status: 'failed' } },
    });
  });

  it('drops the marks of nodes still running when the run is cancelled', () => {
    const state = run([
      started('e1'),
      nodeStarted('e1', 'a'),
      nodeDone('e1', 'a'),
      nodeStarted('e1', 'b'),
      cancelled('e1'),
    ]);
    expect(state.status).toBe('cancelled');
    expect(Object.keys(state.nodes)).toEqual(['a']);
  });

  it('clears the marks when a new run starts', () => {
    const first = run([started('e1'), nodeStarted('e1', 'a'), nodeDone('e1', 'a'), completed('e1')]);
    const second = run([started('e2')], first);
    expect(second).toMatchObject({ executionId: 'e2', status: 'running', nodes: {}, error: null });
    // Late events of the old run are ignored.
    expect(run([nodeDone('e1', 'b'), completed('e1'), failed('e1')], second)).toBe(second);
  });

  it('adopts a run seen only by its node events (page opened mid-run) when nothing else runs', () => {
    const state = run([nodeDone('e9', 'a'), nodeStarted('e9', 'b')]);
    expect(state).toMatchObject({ executionId: 'e9', status: 'running' });
    expect(Object.keys(state.nodes).sort()).toEqual(['a', 'b']);
    // …but not while another run is in progress.
    expect(run([nodeStarted('e10', 'x')], state)).toBe(state);
    // A finished run gives way to the next one's node events.
    const finished = run([completed('e9')], state);
    expect(run([nodeStarted('e10', 'x')], finished)).toMatchObject({
      executionId: 'e10',
      nodes: { x: { status: 'running' } },
    });
  });

  it('ignores other workflows, terminal events of unknown runs and agent events', () => {
    const state = run([started('e1'), nodeStarted('e1', 'a')]);
    expect(run([started('e2', 'other'), nodeStarted('e2', 'z', 'other')], state)).toBe(state);
    const empty = emptyRunProgress(W);
    expect(run([completed('e5'), failed('e5'), cancelled('e5')], empty)).toBe(empty);
    expect(reduceRunProgress(state, { type: 'agent_updated', organizationId: 'org', agentId: 'a' })).toBe(
      state,
    );
    // Following nothing (a new, unsaved workflow): nothing counts.
    const none = emptyRunProgress(null);
    expect(run([started('e1'), nodeStarted('e1', 'a')], none)).toBe(none);
  });
});

describe('seeding from the executions list (builder opened mid-run)', () => {
  const step = (executionTime: number): NodeOutput => ({
    content: 'x',
    metadata: { agentName: 'Writer', role: 'Writes', model: 'gpt-4o' },
    executionTime,
    usage: { promptTokens: 4, completionTokens: 3, totalTokens: 7 },
  });
  const execution = (
    id: string,
    status: ExecutionStatus,
    output: Record<string, NodeOutput> = {},
    createdAt = '2026-01-01T00:00:00Z',
  ) => ({
    id,
    workflowId: W,
    status,
    output,
    createdAt,
  });

  it('picks the newest run of this workflow still in progress', () => {
    const list = [
      execution('old', 'running', {}, '2026-01-01T00:00:00Z'),
      execution('new', 'pending', {}, '2026-01-02T00:00:00Z'),
      execution('done', 'completed', {}, '2026-01-03T00:00:00Z'),
      { ...execution('other', 'running', {}, '2026-01-04T00:00:00Z'), workflowId: 'wf-2' },
    ];
    expect(newestRunInProgress(list, W)?.id).toBe('new');
    expect(newestRunInProgress([execution('done', 'failed')], W)).toBeNull();
    // A run waiting for an approval is still in progress: the builder shows where it waits.
    expect(
      newestRunInProgress([...list, execution('waits', 'waiting', {}, '2026-01-03T00:00:00Z')], W)?.id,
    ).toBe('waits');
  });

  it('keeps showing a run that waits, its waiting step marked, until it goes on', () => {
    const waiting = {
      kind: 'approval' as const,
      nodeId: 'b',
      title: 'Refund?',
      since: '2026-01-01T00:00:00Z',
      until: null,
      approvalId: 'ap1',
    };
    const state = run([
      started('e1'),
      nodeStarted('e1', 'a'),
      nodeDone('e1', 'a', 850),
      nodeStarted('e1', 'b'),
      { type: 'execution_node_waiting', ...ids('e1'), nodeId: 'b', baseNodeId: 'b' },
      { type: 'workflow_execution_waiting', ...ids('e1'), waiting },
    ]);
    expect(state).toMatchObject({ executionId: 'e1', status: 'waiting' });
    expect(state.nodes.b).toEqual({ status: 'waiting' });
    const resumed = run([started('e1'), nodeDone('e1', 'b', 10)], state);
    expect(resumed).toMatchObject({ executionId: 'e1', status: 'running' });
    expect(resumed.nodes.b).toMatchObject({ status: 'completed' });
  });

  it('marks the finished steps of a run in progress as done', () => {
    const seeded = seedRunProgress(emptyRunProgress(W), execution('e1', 'running', { a: step(900) }));
    expect(seeded).toMatchObject({ executionId: 'e1', status: 'running' });
    expect(seeded.nodes).toEqual({ a: { status: 'completed', executionTime: 900, totalTokens: 7 } });
    // Then the events carry on.
    expect(run([nodeStarted('e1', 'b')], seeded).nodes.b).toEqual({ status: 'running' });
  });

  it('never overrides what the events said', () => {
    const live = run([started('e1'), nodeStarted('e1', 'a')]);
    // An event-set mark wins over the read; new finished steps are added.
    const merged = seedRunProgress(live, execution('e1', 'running', { a: step(1), c: step(2) }));
    expect(merged.nodes.a).toEqual({ status: 'running' });
    expect(merged.nodes.c.status).toBe('completed');
    // Nothing new: the same state.
    expect(seedRunProgress(merged, execution('e1', 'running', { c: step(2) }))).toBe(merged);
    // A stale read does not revive a run seen finishing, nor replace another run in progress.
    const finished = run([completed('e1')], merged);
    expect(seedRunProgress(finished, execution('e1', 'running'))).toBe(finished);
    expect(seedRunProgress(live, execution('e2', 'running'))).toBe(live);
    // Runs of other workflows or finished runs do not seed.
    const empty = emptyRunProgress(W);
    expect(seedRunProgress(empty, { ...execution('x', 'running'), workflowId: 'wf-2' })).toBe(empty);
    expect(seedRunProgress(empty, execution('x', 'completed', { a: step(1) }))).toBe(empty);
  });
});

describe('run progress store', () => {
  beforeEach(() => useRunProgressStore.getState().follow(null));
  // The builder feeds both: the runs' states (lib/runs) and the choice of the run shown.
  const apply = (event: RealtimeEvent) => {
    applyRunEvent(event);
    useRunProgressStore.getState().apply(event);
  };
  const shownNodes = () => {
    const id = useRunProgressStore.getState().executionId;
    return (id && useRunStore.getState().runs[id]?.nodes) || {};
  };

  it('follows one workflow, forgets on switch, and never touches the editor state', () => {
    useBuilderStore.getState().startNew();
    const before = builderSnapshot();
    const editorUpdates: unknown[] = [];
    const unsubscribe = useBuilderStore.subscribe((s) => editorUpdates.push(s));

    const store = useRunProgressStore.getState();
    store.follow(W);
    apply(started('e1'));
    apply(nodeStarted('e1', 'start'));
    expect(shownNodes()).toEqual({ start: { status: 'running' } });

    // Following the same workflow again keeps the marks (a re-render, StrictMode).
    useRunProgressStore.getState().follow(W);
    expect(useRunProgressStore.getState().executionId).toBe('e1');

    useRunProgressStore.getState().clear();
    expect(useRunProgressStore.getState()).toMatchObject({ workflowId: W, executionId: null });
    expect(shownNodes()).toEqual({});

    apply(started('e2'));
    useRunProgressStore.getState().follow('wf-2');
    expect(useRunProgressStore.getState()).toMatchObject({
      workflowId: 'wf-2',
      executionId: null,
    });
    expect(shownNodes()).toEqual({});

    unsubscribe();
    expect(editorUpdates).toEqual([]);
    expect(builderSnapshot()).toEqual(before);
  });

  it('does not notify subscribers for events that change nothing', () => {
    useRunProgressStore.getState().follow(W);
    let notified = 0;
    const unsubscribe = useRunProgressStore.subscribe(() => (notified += 1));
    useRunProgressStore.getState().apply(started('e1', 'other'));
    expect(notified).toBe(0);
    useRunProgressStore.getState().apply(started('e1'));
    expect(notified).toBe(1);
    unsubscribe();
  });
});

describe('the paths of the run shown on the canvas', () => {
  it('adopts a run heard only by a skipped node, and draws the branch taken and the skipped node', () => {
    const skippedEvent: RealtimeEvent = {
      type: 'execution_node_skipped',
      ...ids('e9'),
      nodeId: 'general',
      baseNodeId: 'general',
    };
    expect(reduceShownRun(noRunShown(W), skippedEvent)).toMatchObject({
      executionId: 'e9',
      status: 'running',
    });

    const state = [
      skippedEvent,
      {
        type: 'execution_node_completed',
        ...ids('e9'),
        nodeId: 'route',
        baseNodeId: 'route',
        executionTime: 2,
        totalTokens: 0,
        branch: 'billing',
      } as RealtimeEvent,
      {
        type: 'execution_node_started',
        ...ids('e9'),
        nodeId: 'billing',
        baseNodeId: 'billing',
      } as RealtimeEvent,
    ].reduce(reduceRun, emptyRun('e9'));
    const marks = pathNodeMarks(state);
    expect(marks).toEqual({
      route: { status: 'completed', executionTime: 2, totalTokens: 0, branch: 'billing' },
      billing: { status: 'running' },
      general: { status: 'skipped' },
    });
    expect(
      edgePathMarks(
        [
          { id: 'e0', source: 'start', target: 'route' },
          { id: 'e1', source: 'route', target: 'billing', sourceHandle: 'billing' },
          { id: 'e2', source: 'route', target: 'general', sourceHandle: 'else' },
          { id: 'e3', source: 'billing', target: 'end' },
        ],
        [
          { id: 'start', type: 'start' },
          { id: 'route', type: 'condition' },
          { id: 'billing', type: 'agent' },
          { id: 'general', type: 'agent' },
          { id: 'end', type: 'end' },
        ],
        marks,
      ),
    ).toEqual({ e0: 'taken', e1: 'taken', e2: 'not-taken' });
  });
});
