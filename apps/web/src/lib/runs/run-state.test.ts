import type { ExecutionStatus, NodeOutput, RealtimeEvent } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { emptyRun, GAP, itemProgress, reduceRun, seedRun, summarizeRun, type RunState } from './run-state';

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
    expect(summarizeRun(mid)).toEqual({ running: 1, waiting: 0, completed: 1, failed: 0 });
    const done = fold([nodeDone('b'), e('workflow_execution_completed')], mid);
    expect(done.status).toBe('completed');
    expect(summarizeRun(done)).toEqual({ running: 0, waiting: 0, completed: 2, failed: 0 });
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
    expect(summarizeRun(state)).toEqual({ running: 1, waiting: 0, completed: 0, failed: 1 });
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

describe('a run that decides', () => {
  const ev = (type: string, fields: Record<string, unknown>) =>
    ({ type, ...ids, ...fields }) as unknown as RealtimeEvent;
  const skipped = (nodeId: string) => ev('execution_node_skipped', { nodeId, baseNodeId: nodeId });
  const chose = (nodeId: string, branch: string) =>
    ev('execution_node_completed', { nodeId, baseNodeId: nodeId, executionTime: 3, totalTokens: 0, branch });

  it('marks the branch a condition took and the nodes it skipped, which are never steps or counted', () => {
    const state = run(
      started('route'),
      chose('route', 'billing'),
      skipped('general'),
      started('billing', 'Billing desk'),
      completed('billing'),
    );
    expect(state.nodes.route).toEqual({
      status: 'completed',
      executionTime: 3,
      totalTokens: 0,
      branch: 'billing',
    });
    expect(state.skipped).toEqual({ general: true });
    expect(state.nodes.general).toBeUndefined();
    expect(state.steps.map((step) => step.stepId)).toEqual(['route', 'billing']);
    expect(summarizeRun(state)).toEqual({ running: 0, waiting: 0, completed: 2, failed: 0 });
    // A skipped node ends without starting: the card's step line moves past it.
    expect(state.heard).toEqual({ started: ['route', 'billing'], ended: ['route', 'general', 'billing'] });
    expect(reduceRun(state, skipped('general'))).toBe(state);
  });

  it('reads skipped entries and branches from a stored run, and derives nothing else mid-way', () => {
    const none = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const route: NodeOutput = {
      content: '',
      kind: 'condition',
      status: 'completed',
      data: { branch: 'else' },
      metadata: {},
      executionTime: 2,
      usage: none,
    };
    const midway = seedRun(emptyRun('e1'), {
      id: 'e1',
      workflowId: 'w1',
      status: 'running',
      output: { route },
    });
    expect(midway.nodes).toEqual({
      route: { status: 'completed', executionTime: 2, totalTokens: 0, branch: 'else' },
    });
    // The branch not taken is not marked skipped until the run says so.
    expect(midway.skipped).toEqual({});
    const done = seedRun(midway, {
      id: 'e1',
      workflowId: 'w1',
      status: 'completed',
      output: {
        route,
        billing: { ...route, kind: 'agent', status: 'skipped', data: undefined, executionTime: 0 },
      },
    });
    expect(done.skipped).toEqual({ billing: true });
    expect(done.nodes.billing).toBeUndefined();
    expect(summarizeRun(done)).toEqual({ running: 0, waiting: 0, completed: 1, failed: 0 });
  });
});

describe('a map’s items and a loop’s passes', () => {
  const ev = (type: string, fields: Record<string, unknown>) =>
    ({ type, ...ids, ...fields }) as unknown as RealtimeEvent;
  const child = (type: string, nodeId: string, fields: Record<string, unknown> = {}) =>
    ev(type, { nodeId, baseNodeId: nodeId.replace(/(\[\d+\]|#\d+)$/, ''), ...fields });
  const itemStarted = (nodeId: string) => child('execution_node_started', nodeId, { agentName: 'Enricher' });
  const itemDone = (nodeId: string) =>
    child('execution_node_completed', nodeId, { executionTime: 5, totalTokens: 10 });
  const itemFailed = (nodeId: string) => child('execution_node_failed', nodeId, { error: 'Model timed out' });
  const items = (nodeId: string, total: number) =>
    ev('execution_node_items', { nodeId, baseNodeId: nodeId, total });
  const progressOf = (state: RunState, nodeId: string) => itemProgress(state.items[nodeId]!);

  it('counts a map’s items done out of its total, in whatever order they finish', () => {
    const state = run(
      started('each'),
      items('each', 5),
      itemStarted('each[0]'),
      itemStarted('each[1]'),
      itemStarted('each[2]'),
      itemDone('each[2]'),
      itemDone('each[0]'),
    );
    expect(progressOf(state, 'each')).toEqual({ total: 5, done: 2, failed: 0, pass: null });
    // A completed event heard twice, or a started one heard after its item ended, counts once.
    const again = reduceRun(reduceRun(state, itemDone('each[2]')), itemStarted('each[0]'));
    expect(progressOf(again, 'each')).toEqual({ total: 5, done: 2, failed: 0, pass: null });
    // An item heard ending before it was heard starting counts too.
    expect(progressOf(reduceRun(state, itemDone('each[4]')), 'each').done).toBe(3);
  });

  it('keeps the map’s own mark running while its items finish, and its items out of the marks', () => {
    const state = run(
      started('each'),
      items('each', 3),
      itemStarted('each[0]'),
      itemDone('each[0]'),
      itemStarted('each[1]'),
      itemFailed('each[1]'),
    );
    expect(state.nodes).toEqual({ each: { status: 'running' } });
    expect(state.heard).toEqual({ started: ['each'], ended: [] });
    expect(summarizeRun(state)).toEqual({ running: 1, waiting: 0, completed: 0, failed: 0 });
    // Items are steps of their own (their answers stream), under their own ids.
    expect(state.steps.map((step) => [step.stepId, step.baseNodeId, step.status])).toEqual([
      ['each', 'each', 'running'],
      ['each[0]', 'each', 'completed'],
      ['each[1]', 'each', 'failed'],
    ]);
    expect(progressOf(state, 'each')).toEqual({ total: 3, done: 1, failed: 1, pass: null });
    const done = reduceRun(
      reduceRun(state, itemDone('each[2]')),
      ev('execution_node_completed', {
        nodeId: 'each',
        baseNodeId: 'each',
        executionTime: 80,
        totalTokens: 20,
      }),
    );
    expect(done.nodes.each).toEqual({ status: 'completed', executionTime: 80, totalTokens: 20 });
    expect(done.heard).toEqual({ started: ['each'], ended: ['each'] });
    expect(progressOf(done, 'each')).toEqual({ total: 3, done: 2, failed: 1, pass: null });
  });

  it('marks a map heard only by its items (the view opened mid-run) running, its total unknown', () => {
    const state = run(itemDone('each[7]'), itemStarted('each[8]'));
    expect(state.status).toBe('running');
    expect(state.nodes).toEqual({ each: { status: 'running' } });
    expect(progressOf(state, 'each')).toEqual({ total: null, done: 1, failed: 0, pass: null });
  });

  it('shows a loop’s latest pass from its `#n` steps, and still marks hierarchical delegations', () => {
    const state = run(started('draft'), itemStarted('draft#1'), itemDone('draft#1'), itemStarted('draft#2'));
    expect(state.nodes).toEqual({ draft: { status: 'running' } });
    expect(progressOf(state, 'draft')).toEqual({ total: null, done: 1, failed: 0, pass: 2 });
    // A co-worker never runs under its own id: its `#n` steps are its node's marks, as before.
    const delegated = run(started('lead'), started('coder#1'), itemDone('coder#1'));
    expect(delegated.items).toEqual({});
    expect(delegated.nodes.coder.status).toBe('completed');
  });

  it('reads a map’s progress from a run read mid-way, and its total once the map finished', () => {
    const none = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
    const item = (index: number): NodeOutput => ({
      content: `lead ${index}`,
      metadata: { agentName: 'Enricher', baseNodeId: 'each' },
      executionTime: 5,
      usage: none,
      kind: 'agent',
      status: 'completed',
    });
    const failedItem = {
      status: 'failed' as const,
      nodeId: 'each[3]',
      baseNodeId: 'each',
      agentId: 'a1',
      logs: [],
      startedAt: '2026-01-01T10:00:00.000Z',
      completedAt: '2026-01-01T10:00:01.000Z',
      error: 'Model timed out',
    };
    const midway = {
      id: 'e1',
      workflowId: 'w1',
      status: 'running' as const,
      output: { 'each[0]': item(0), 'each[2]': item(2) },
      steps: [failedItem],
    };
    const seeded = seedRun(emptyRun('e1'), midway);
    expect(progressOf(seeded, 'each')).toEqual({ total: null, done: 2, failed: 1, pass: null });
    // The map itself is not stored yet: it is running, not done with its first item's figures.
    expect(seeded.nodes).toEqual({ each: { status: 'running' } });
    // Events heard since add to it; the same read again changes nothing.
    const later = reduceRun(seeded, itemDone('each[1]'));
    expect(progressOf(later, 'each').done).toBe(3);
    expect(seedRun(later, midway)).toBe(later);

    const map: NodeOutput = {
      content: 'lead 0\n\nlead 1\n\nlead 2\n\nlead 4',
      metadata: { baseNodeId: 'each' },
      executionTime: 40,
      usage: none,
      kind: 'map',
      status: 'completed',
      data: [0, 1, 2, 3, 4].map((index) => ({
        index,
        status: index === 3 ? 'failed' : 'completed',
        content: '',
        data: null,
      })),
    };
    const finished = seedRun(emptyRun('e1'), {
      ...midway,
      status: 'completed',
      output: { 'each[0]': item(0), each: map },
    });
    expect(progressOf(finished, 'each')).toEqual({ total: 5, done: 4, failed: 1, pass: null });
    expect(finished.nodes.each).toEqual({ status: 'completed', executionTime: 40, totalTokens: 0 });
    // A run heard ending still takes its finished map's items from the read (a retry's reused
    // items are never heard), and keeps its own marks.
    const heardEnding = run(started('each'), items('each', 5), itemDone('each[4]'), {
      type: 'workflow_execution_completed',
      ...ids,
    });
    const read = seedRun(heardEnding, { ...midway, status: 'completed', output: { each: map } });
    expect(progressOf(read, 'each')).toEqual({ total: 5, done: 4, failed: 1, pass: null });
    expect(read.nodes).toBe(heardEnding.nodes);
  });
});

describe('a run that waits for people or a time', () => {
  const waiting = {
    kind: 'approval' as const,
    nodeId: 'approve',
    title: 'Refund over 500 €',
    since: '2026-01-01T10:00:00.000Z',
    until: null,
    approvalId: 'ap1',
  };
  const nodeWaiting: RealtimeEvent = {
    type: 'execution_node_waiting',
    ...ids,
    nodeId: 'approve',
    baseNodeId: 'approve',
  };
  const runWaiting: RealtimeEvent = { type: 'workflow_execution_waiting', ...ids, waiting };

  it('marks the step waiting and the run waiting with what it waits for, then goes on when it resumes', () => {
    const state = run(completed('classify'), started('approve', 'Approve refund'), nodeWaiting, runWaiting);
    expect(state.status).toBe('waiting');
    expect(state.waiting).toEqual(waiting);
    expect(state.nodes.approve).toEqual({ status: 'waiting' });
    expect(state.steps.find((step) => step.stepId === 'approve')).toMatchObject({
      status: 'running',
      waiting: true,
    });
    expect(summarizeRun(state)).toEqual({ running: 0, waiting: 1, completed: 1, failed: 0 });

    const resumed = [
      { type: 'workflow_execution_started', ...ids } as RealtimeEvent,
      completed('approve'),
    ].reduce(reduceRun, state);
    expect(resumed.status).toBe('running');
    expect(resumed.waiting).toBeNull();
    expect(resumed.nodes.approve).toMatchObject({ status: 'completed' });
    expect(resumed.steps.find((step) => step.stepId === 'approve')?.waiting).toBeUndefined();
  });

  it('marks the waiting step from the run’s event alone (its own event missed)', () => {
    const state = run(started('approve'), runWaiting);
    expect(state.nodes.approve).toEqual({ status: 'waiting' });
  });

  it('drops the waiting mark when the run is cancelled, and marks it failed when the run fails', () => {
    const waitingRun = run(started('approve'), nodeWaiting, runWaiting);
    const cancelled = reduceRun(waitingRun, { type: 'workflow_execution_cancelled', ...ids });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.nodes.approve).toBeUndefined();
    const failed = reduceRun(waitingRun, { type: 'workflow_execution_failed', ...ids, error: 'Timed out' });
    expect(failed.nodes.approve).toEqual({ status: 'failed' });
  });

  it('reads a waiting run: its status, what it waits for and the waiting step’s mark', () => {
    const seeded = seedRun(emptyRun('e1'), {
      id: 'e1',
      workflowId: 'w1',
      status: 'waiting',
      output: {},
      waiting,
    });
    expect(seeded.status).toBe('waiting');
    expect(seeded.waiting).toEqual(waiting);
    expect(seeded.nodes).toEqual({ approve: { status: 'waiting' } });
    // A waiting run read again after it went on is not held back by what was known.
    const later = seedRun(seeded, { id: 'e1', workflowId: 'w1', status: 'running', output: {} });
    expect(later.status).toBe('running');
    expect(later.waiting).toBeNull();
  });
});
