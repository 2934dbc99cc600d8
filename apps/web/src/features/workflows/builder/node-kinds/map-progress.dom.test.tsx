import type { RealtimeEvent } from '@crewline/contracts';
import { act, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { agentFixture, openBuilder, workflowFixture } from '@/testing/builder';
import { ORIGIN } from '@/testing/msw-server';

const agent = agentFixture({ id: 'a1', name: 'Enricher', role: 'Enriches leads', goal: 'Enrich' });

const workflow = workflowFixture({
  name: 'Leads',
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
    {
      id: 'each',
      type: 'map',
      position: { x: 200, y: 100 },
      data: {
        label: 'Enrich leads',
        items: 'input.leads',
        run: { agentId: 'a1', prompt: '{{ item }}' },
        concurrency: 2,
        onItemError: 'continue',
      },
    },
    { id: 'end', type: 'end', position: { x: 600, y: 100 }, data: { label: 'End' } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'each' },
    { id: 'e2', source: 'each', target: 'end' },
  ],
});

const ids = { organizationId: 'org-1', workflowId: 'wf-1', executionId: 'run-1' };
const step = (nodeId: string) => ({ ...ids, nodeId, baseNodeId: 'each' });
const itemDone = (index: number): RealtimeEvent => ({
  type: 'execution_node_completed',
  ...step(`each[${index}]`),
  executionTime: 5,
  totalTokens: 10,
});

describe('a running map on the canvas', () => {
  it('shows its items done out of its total, the failed ones, and stays running until it ends', async () => {
    const { container, hub } = await openBuilder({
      workflow,
      agents: [agent],
      handlers: [http.get(`${ORIGIN}/api/executions/run-1`, () => HttpResponse.json({}, { status: 404 }))],
    });
    const node = () => container.querySelector<HTMLElement>('.react-flow__node[data-id="each"]');
    await waitFor(() => expect(node()).not.toBeNull());
    // Before any run the node shows no progress.
    expect(within(node()!).queryByTestId('item-progress')).toBeNull();

    act(() => {
      hub.emit({ type: 'workflow_execution_started', ...ids });
      hub.emit({ type: 'execution_node_started', ...step('each') });
      hub.emit({ type: 'execution_node_items', ...step('each'), total: 5 });
      for (const index of [0, 1, 2]) hub.emit({ type: 'execution_node_started', ...step(`each[${index}]`) });
      // Out of order: the second item answers first.
      hub.emit(itemDone(1));
      hub.emit(itemDone(0));
    });
    const progress = await within(node()!).findByTestId('item-progress');
    expect(progress.textContent).toContain('2/5');
    expect(within(progress).getByText('2 of 5 items done')).toBeTruthy();
    expect(node()!.querySelector('[data-run-status]')?.getAttribute('data-run-status')).toBe('running');

    act(() => {
      hub.emit({ type: 'execution_node_failed', ...step('each[2]'), error: 'Model timed out' });
      hub.emit(itemDone(3));
      hub.emit(itemDone(4));
      hub.emit({
        type: 'execution_node_completed',
        ...step('each'),
        executionTime: 40,
        totalTokens: 40,
      });
    });
    await waitFor(() => expect(within(node()!).getByTestId('item-progress').textContent).toContain('4/5'));
    expect(within(node()!).getByText('1 failed')).toBeTruthy();
    expect(within(node()!).getByText('4 of 5 items done, 1 failed')).toBeTruthy();
    expect(node()!.querySelector('[data-run-status]')?.getAttribute('data-run-status')).toBe('completed');
  });
});
