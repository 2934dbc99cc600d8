import type { RealtimeEvent } from '@crewline/contracts';
import { beforeEach, describe, expect, it } from 'vitest';

import { applyRunEvent, REMEMBERED_RUNS, seedRunRead, useRunStore } from './run-store';

const ids = (executionId: string) => ({ organizationId: 'o1', workflowId: 'w1', executionId });
const started = (executionId: string): RealtimeEvent => ({
  type: 'workflow_execution_started',
  ...ids(executionId),
});
const delta = (offset: number, text: string): RealtimeEvent => ({
  type: 'execution_node_delta',
  ...ids('e1'),
  nodeId: 'n1',
  baseNodeId: 'n1',
  offset,
  text,
});

beforeEach(() => useRunStore.setState({ runs: {} }));

describe('the runs’ states', () => {
  it('folds each event once, however many screens hand it in', () => {
    const first = delta(0, 'Hello ');
    applyRunEvent(first);
    applyRunEvent(first);
    applyRunEvent(delta(6, 'world'));
    expect(useRunStore.getState().runs.e1.steps.map((step) => step.text)).toEqual(['Hello world']);
  });

  it('keeps the runs changed last, and leaves the store alone for an event that changes nothing', () => {
    for (let i = 0; i <= REMEMBERED_RUNS; i += 1) applyRunEvent(started(`e${i}`));
    const runs = useRunStore.getState().runs;
    expect(Object.keys(runs)).toHaveLength(REMEMBERED_RUNS);
    expect(runs.e0).toBeUndefined();
    expect(runs[`e${REMEMBERED_RUNS}`].status).toBe('running');
    applyRunEvent(started('e1'));
    expect(useRunStore.getState().runs).toBe(runs);
    applyRunEvent({ type: 'agent_updated', organizationId: 'o1', agentId: 'a1' });
    expect(useRunStore.getState().runs).toBe(runs);
  });

  it('folds a run read from the server, under the events', () => {
    seedRunRead({ id: 'e1', workflowId: 'w1', status: 'pending', output: {} });
    expect(useRunStore.getState().runs.e1).toMatchObject({ status: 'running', workflowId: 'w1' });
    applyRunEvent({ type: 'workflow_execution_cancelled', ...ids('e1') });
    seedRunRead({ id: 'e1', workflowId: 'w1', status: 'running', output: {} });
    expect(useRunStore.getState().runs.e1.status).toBe('cancelled');
  });
});
