import type { RealtimeEvent } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { emptyLiveRun, GAP, reduceLiveRun, type LiveRun } from './live-steps-logic';

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

const run = (...events: RealtimeEvent[]): LiveRun => events.reduce(reduceLiveRun, emptyLiveRun('e1'));

describe('live steps of a run', () => {
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
    expect(reduceLiveRun(state, delta('n1', 4, ' late'))).toBe(state);
    expect(state.steps[0].text).toBe('mine');
    expect(reduceLiveRun(emptyLiveRun(null), started('n1')).steps).toEqual([]);
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
