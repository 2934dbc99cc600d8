import type { ExecutionStatus, NodeOutput, RealtimeEvent } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { emptyRun, GAP, reduceRun, seedRun, summarizeRun, type RunState } from './run-state';

const ids = { organizationId: 'o1', executionId: 'e1', workflowId: 'w1' };
const started = (nodeId: string, agentName?: string): RealtimeEvent => ({
  type: 'execution_node_started',
  ...ids,
  nodeId,
  baseNodeId: nodeId.split('#')[0],
  agentName,
});
const delta = (nodeId: string, offset: number, text: string, executionId = 'e1'): RealtimeEvent => ({
  type: 'execution_node_delta',
  ...ids,
  executionId,
  nodeId,
  baseNodeId: nodeId.split('#')[0],
  offset,
  text,
});
const completed = (nodeId: string): RealtimeEvent => ({
  type: 'execution_node_completed',
  ...ids,
  nodeId,
  baseNodeId: nodeId,
  executionTime: 900,
  totalTokens: 42,
});

const run = (...events: RealtimeEvent[]): RunState => events.reduce(reduceRun, emptyRun('e1'));

describe('the steps of a run as they happen', () => {
  it('follows a step from started through its streamed answer to completed', () => {
    const state = run(
      started('n1', 'Writer'),
      delta('n1', 0, 'Hello '),
      delta('n1', 6, 'world'),
      completed('n1'),
    );
    expect(state.steps).toEqual([
      expect.objectContaining({
        stepId: 'n1',
        agentName: 'Writer',
        status: 'completed',
        text: 'Hello world',
        missed: false,
        executionTime: 900,
        totalTokens: 42,
      }),
    ]);
  });

  it('keeps steps in the order they started, delegations under their own id', () => {
    const state = run(started('lead', 'Lead'), started('coder#1', 'Coder'), delta('coder#1', 0, 'x'));
    expect(state.steps.map((s) => [s.stepId, s.baseNodeId, s.text])).toEqual([
      ['lead', 'lead', ''],
      ['coder#1', 'coder', 'x'],
    ]);
  });

  it('ignores an update heard twice and keeps only the new part of an overlapping one', () => {
    const state = run(started('n1'), delta('n1', 0, 'abc'), delta('n1', 0, 'abc'), delta('n1', 1, 'bcde'));
    expect(state.steps[0]).toMatchObject({ text: 'abcde', end: 5, missed: false });
  });

  it('marks what it did not hear: the start of a step opened mid-way, and a lost update', () => {
    const midway = run(delta('n1', 120, 'later words'));
    expect(midway.steps[0]).toMatchObject({ text: `${GAP}later words`, missed: true, status: 'running' });
    const lost = run(started('n1'), delta('n1', 0, 'one '), delta('n1', 10, 'three'));
    expect(lost.steps[0]).toMatchObject({ text: `one ${GAP}three`, end: 15, missed: true });
  });

  it('ignores other runs, and updates after the step ended', () => {
    const state = run(started('n1'), delta('n1', 0, 'mine'), delta('n1', 0, 'theirs', 'e2'), completed('n1'));
    expect(reduceRun(state, delta('n1', 4, ' late'))).toBe(state);
    expect(state.steps[0].text).toBe('mine');
    expect(reduceRun(emptyRun('e2'), started('n1')).steps).toEqual([]);
  });

  it('keeps a failed step’s reason', () => {
    const state = run(started('n1'), {
      type: 'execution_node_failed',
      ...ids,
      nodeId: 'n1',
      baseNodeId: 'n1',
      error: 'OpenAI answered 429',
    });
    expect(state.steps[0]).toMatchObject({ status: 'failed', error: 'OpenAI answered 429' });
  });
});

describe('a run’s marks and status', () => {
  const W = 'w1';
  const e = (type: string, fields: Record<string, unknown> = {}) =>
    ({ type, organizationId: 'o1', workflowId: W, executionId: 'e1', ...fields }) as RealtimeEvent;
  const nodeStarted = (nodeId: string, baseNodeId = nodeId) =>
    e('execution_node_started', { nodeId, baseNodeId });
  const nodeDone = (nodeId: string, executionTime = 1200, baseNodeId = nodeId) =>
    e('execution_node_completed', { nodeId, baseNodeId, executionTime, totalTokens: 42 });
  const nodeFailed = (nodeId: string) =>
    e('execution_node_failed', { nodeId, baseNodeId: nodeId, error: 'OpenAI answered 500: overloaded' });
  const fold = (events: RealtimeEvent[], from: RunState = emptyRun('e1')) => events.reduce(reduceRun, from);

  it('marks nodes running, then done with their time, through a whole run', () => {
    const mid = fold([
      e('workflow_execution_started'),
      nodeStarted('a'),
      nodeDone('a', 850),
      nodeStarted('b'),
    ]);
    expect(mid).toMatchObject({ executionId: 'e1', workflowId: W, status: 'running' });
    expect(mid.nodes).toEqual({
      a: { status: 'completed', executionTime: 850, totalTokens: 42 },
      b: { status: 'running' },
    });
    expect(summarizeRun(mid)).toEqual({ running: 1, completed: 1, failed: 0 });
    const done = fold([nodeDone('b'), e('workflow_execution_completed')], mid);
    expect(done.status).toBe('completed');
    expect(summarizeRun(done)).toEqual({ running: 0, completed: 2, failed: 0 });
  });

  it("marks a hierarchical delegation's steps on its co-worker's node, and records the steps heard", () => {
    const state = fold([
      e('workflow_execution_started'),
      nodeStarted('lead'),
      nodeStarted('analyst#1', 'analyst'),
      nodeDone('analyst#1', 300, 'analyst'),
      nodeStarted('analyst#2', 'analyst'),
    ]);
    expect(state.nodes).toEqual({ lead: { status: 'running' }, analyst: { status: 'running' } });
    expect(state.heard).toEqual({ started: ['lead', 'analyst'], ended: [] });
    expect(state.steps.map((s) => s.stepId)).toEqual(['lead', 'analyst#1', 'analyst#2']);
  });

  it('marks the node running at the failure as failed and keeps the error', () => {
    const state = fold([
      e('workflow_execution_started'),
      nodeStarted('a'),
      nodeDone('a'),
      nodeStarted('b'),
      e('workflow_execution_failed', { error: 'LLM timed out' }),
    ]);
    expect(state).toMatchObject({ status: 'failed', error: 'LLM timed out' });
    expect(state.nodes).toEqual({
      a: { status: 'completed', executionTime: 1200, totalTokens: 42 },
      b: { status: 'failed' },
    });
  });

  it('marks a node failed as soon as its step fails; a run heard only by its steps is running', () => {
    const state = fold([nodeStarted('a'), nodeStarted('b'), nodeFailed('b')]);
    expect(state.status).toBe('running');
    expect(state.nodes).toEqual({ a: { status: 'running' }, b: { status: 'failed' } });
    expect(summarizeRun(state)).toEqual({ running: 1, completed: 0, failed: 1 });
    expect(state.heard).toEqual({ started: ['a', 'b'], ended: ['b'] });
  });

  it('drops the marks of nodes still running when the run is cancelled', () => {
    const state = fold([
      nodeStarted('a'),
      nodeDone('a'),
      nodeStarted('b'),
      e('workflow_execution_cancelled'),
    ]);
    expect(state.status).toBe('cancelled');
    expect(Object.keys(state.nodes)).toEqual(['a']);
  });

  it('ignores other runs and events without a run', () => {
    const state = fold([e('workflow_execution_started'), nodeStarted('a')]);
    expect(reduceRun(state, { ...nodeStarted('z'), executionId: 'e2' } as RealtimeEvent)).toBe(state);
    expect(reduceRun(state, { type: 'agent_updated', organizationId: 'o1', agentId: 'a' })).toBe(state);
  });
});

describe('a run read from the server', () => {
  const step = (executionTime: number): NodeOutput => ({
    content: 'x',
    metadata: { agentName: 'Writer', role: 'Writes', model: 'gpt-4o' },
    executionTime,
    usage: { promptTokens: 4, completionTokens: 3, totalTokens: 7 },
  });
  const read = (status: ExecutionStatus, output: Record<string, NodeOutput> = {}) => ({
    id: 'e1',
    workflowId: 'w1',
    status,
    output,
  });

  it('marks the finished steps of a run in progress as done; a pending run counts as running', () => {
    const seeded = seedRun(emptyRun('e1'), read('pending', { a: step(900) }));
    expect(seeded).toMatchObject({ executionId: 'e1', workflowId: 'w1', status: 'running' });
    expect(seeded.nodes).toEqual({ a: { status: 'completed', executionTime: 900, totalTokens: 7 } });
    expect(seedRun(emptyRun('e1'), read('completed')).status).toBe('completed');
  });

  it('never overrides what the events said', () => {
    const live = reduceRun(emptyRun('e1'), {
      type: 'execution_node_started',
      organizationId: 'o1',
      workflowId: 'w1',
      executionId: 'e1',
      nodeId: 'a',
      baseNodeId: 'a',
    });
    const merged = seedRun(live, read('running', { a: step(1), c: step(2) }));
    expect(merged.nodes.a).toEqual({ status: 'running' });
    expect(merged.nodes.c.status).toBe('completed');
    expect(seedRun(merged, read('running', { c: step(2) }))).toBe(merged);
    // A stale read does not revive a run heard ending; another run's read changes nothing.
    const finished = reduceRun(merged, {
      type: 'workflow_execution_completed',
      organizationId: 'o1',
      workflowId: 'w1',
      executionId: 'e1',
    });
    expect(seedRun(finished, read('running'))).toBe(finished);
    expect(seedRun(live, { ...read('running'), id: 'e2' })).toBe(live);
  });
});
