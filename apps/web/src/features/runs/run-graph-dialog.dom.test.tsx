import type { Execution, NodeOutput, WorkflowVersion } from '@crewline/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { RunGraphDialog } from './run-graph-dialog';

const none = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
const agentStep = (agentName: string): NodeOutput => ({
  content: `${agentName} answered.`,
  kind: 'agent',
  status: 'completed',
  metadata: { agentName, role: 'Support', model: 'gpt-4o', baseNodeId: agentName.toLowerCase() },
  executionTime: 900,
  usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
});

// Start → Route (Billing, else) → billing | general → End: the run took Billing.
const version: WorkflowVersion = {
  workflowId: 'wf-1',
  version: 2,
  note: null,
  createdAt: '2026-01-01T09:00:00.000Z',
  createdBy: null,
  createdByName: null,
  processType: 'sequential',
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
    {
      id: 'route',
      type: 'condition',
      position: { x: 200, y: 0 },
      data: { label: 'Route', branches: [{ id: 'billing', label: 'Billing', when: 'input.billing' }] },
    },
    { id: 'billing', type: 'agent', position: { x: 450, y: -100 }, data: { name: 'Billing' } },
    { id: 'general', type: 'agent', position: { x: 450, y: 100 }, data: { name: 'General' } },
    { id: 'end', type: 'end', position: { x: 700, y: 0 }, data: { label: 'End' } },
  ],
  edges: [
    { id: 'e0', source: 'start', target: 'route' },
    { id: 'e1', source: 'route', target: 'billing', sourceHandle: 'billing' },
    { id: 'e2', source: 'route', target: 'general', sourceHandle: 'else' },
    { id: 'e3', source: 'billing', target: 'end' },
    { id: 'e4', source: 'general', target: 'end' },
  ],
} as unknown as WorkflowVersion;

const run = {
  id: 'run-1',
  workflowId: 'wf-1',
  workflowVersion: 2,
  processType: 'sequential',
  status: 'completed',
  logs: [],
  output: {
    route: {
      content: '',
      kind: 'condition',
      status: 'completed',
      data: { branch: 'billing' },
      metadata: { baseNodeId: 'route' },
      executionTime: 2,
      usage: none,
    },
    billing: agentStep('Billing'),
    general: {
      content: '',
      kind: 'agent',
      status: 'skipped',
      metadata: { baseNodeId: 'general' },
      executionTime: 0,
      usage: none,
    },
  },
} as unknown as Execution;

describe('the run graph', () => {
  it('greys a skipped step, says so, and shows the branch its condition took', async () => {
    server.use(
      answerGet<WorkflowVersion>('/api/workflows/wf-1/versions/2', version),
      answerGet('/api/agents', []),
    );
    renderWithApp(<RunGraphDialog execution={run} workflowName="Triage" open onOpenChange={() => {}} />);

    const skipped = await screen.findByTestId('graph-node-general');
    expect(skipped.dataset.status).toBe('skipped');
    expect(skipped.className).toContain('grayscale');
    expect(within(skipped).getByTestId('graph-node-status').textContent).toBe('Skipped');
    expect(skipped.getAttribute('aria-label')).toBe('General: Skipped');

    const billing = screen.getByTestId('graph-node-billing');
    expect(billing.dataset.status).toBe('completed');
    const route = screen.getByTestId('graph-node-route');
    expect(route.getAttribute('aria-label')).toBe('Route: Done: took Billing');
    const taken = within(route)
      .getAllByTestId('graph-node-branch')
      .filter((branch) => branch.dataset.taken === 'true');
    expect(taken.map((branch) => branch.textContent)).toEqual(['Billing']);
    // The legend explains the greyed node.
    expect(within(screen.getByRole('list', { name: 'Step statuses' })).getByText('Skipped')).toBeTruthy();
  });

  it("shows a running map's items done, live as they finish, its total heard from the run", async () => {
    const mapVersion = {
      ...version,
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
        {
          id: 'each',
          type: 'map',
          position: { x: 200, y: 0 },
          data: { label: 'Enrich leads', items: 'input.leads', run: { workflowId: 'wf-2' } },
        },
        { id: 'end', type: 'end', position: { x: 500, y: 0 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e0', source: 'start', target: 'each' },
        { id: 'e1', source: 'each', target: 'end' },
      ],
    } as unknown as WorkflowVersion;
    const item = { ...agentStep('Enricher'), metadata: { agentName: 'Enricher', baseNodeId: 'each' } };
    const running = {
      ...run,
      id: 'run-map',
      status: 'running',
      output: { 'each[0]': item, 'each[1]': item },
    } as unknown as Execution;
    server.use(
      answerGet<WorkflowVersion>('/api/workflows/wf-1/versions/2', mapVersion),
      answerGet('/api/agents', []),
    );
    const { hub } = renderWithApp(
      <RunGraphDialog execution={running} workflowName="Leads" open onOpenChange={() => {}} />,
    );

    // Read mid-run: its items stored so far, the total not stored yet.
    const map = await screen.findByTestId('graph-node-each');
    expect(map.dataset.status).toBe('running');
    expect(within(map).getByTestId('item-progress').textContent).toContain('2items');
    expect(map.getAttribute('aria-label')).toBe('Enrich leads: Running: 2 items done');

    const ids = { organizationId: 'org-1', workflowId: 'wf-1', executionId: 'run-map' };
    act(() => {
      hub.emit({ type: 'execution_node_items', ...ids, nodeId: 'each', baseNodeId: 'each', total: 5 });
      hub.emit({
        type: 'execution_node_completed',
        ...ids,
        nodeId: 'each[2]',
        baseNodeId: 'each',
        executionTime: 5,
        totalTokens: 10,
      });
    });
    await waitFor(() => expect(within(map).getByTestId('item-progress').textContent).toContain('3/5'));
    expect(map.getAttribute('aria-label')).toBe('Enrich leads: Running: 3 of 5 items done');
  });
});
