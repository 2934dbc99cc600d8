import type { Execution, RealtimeEvent } from '@crewline/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { anExecution } from '@/testing/executions';
import { agentFixture, findCanvasNode, openBuilder, workflowFixture } from '@/testing/builder';
import { ORIGIN } from '@/testing/msw-server';

const agent = (id: string, name: string) =>
  agentFixture({ id, name, role: `${name} role`, goal: `${name} goal` });

const workflow = workflowFixture({
  name: 'Weekly report',
  description: 'Gathers and writes',
  nodes: [
    { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
    { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 100, y: 250 }, data: { label: 'Researcher' } },
    { id: 'end', type: 'end', position: { x: 100, y: 400 }, data: { label: 'End' } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'end' },
  ],
});

describe('the workflow builder', () => {
  it('shows a saved workflow, adds an agent node, and saves the canvas as it is', async () => {
    const { container, router, sent, user } = await openBuilder({
      workflow,
      agents: [agent('a1', 'Researcher'), agent('a2', 'Writer')],
    });

    // The header's estimate: whole minutes (one sequential agent, 30 s, rounds to one).
    expect(screen.getByTitle('1 agent').textContent).toBe('~1 min');
    // The saved steps are on the canvas; selecting one shows its properties.
    const researcher = await findCanvasNode(container, 'n1');
    expect(within(researcher).getByText('Researcher')).toBeTruthy();
    expect(screen.queryByDisplayValue('Researcher')).toBeNull();
    // A click without the press before it: d3-drag reads the press's window, which the DOM here leaves out.
    fireEvent.click(researcher);
    expect(await screen.findByDisplayValue('Researcher')).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: /Agents/ }));
    await user.click(await screen.findByRole('button', { name: 'Add Writer' }));
    expect(screen.getByTitle('2 agents').textContent).toBe('~1 min');
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));

    await waitFor(() => expect(sent).toHaveLength(1));
    const body = sent[0];
    expect(body).toMatchObject({ name: 'Weekly report', processType: 'sequential', triggerType: 'manual' });
    expect(body.nodes?.map((node) => [node.type, node.agentId ?? null])).toEqual([
      ['start', null],
      ['agent', 'a1'],
      ['end', null],
      ['agent', 'a2'],
    ]);
    expect(body.edges).toEqual(workflow.edges);
    // A saved draft goes back to the list.
    await waitFor(() => expect(router.state.location.pathname).toBe('/workflows'));
  });
});

describe('the builder’s run panel', () => {
  it('marks the canvas and sums up the run from its realtime events', async () => {
    const { container, hub } = await openBuilder({
      workflow: { ...workflow, status: 'active' },
      agents: [agent('a1', 'Researcher')],
      handlers: [http.get(`${ORIGIN}/api/executions/run-1`, () => HttpResponse.json({}, { status: 404 }))],
    });
    expect(screen.queryByTestId('run-panel')).toBeNull();

    const ids = { organizationId: 'org-1', workflowId: 'wf-1', executionId: 'run-1' };
    const events: RealtimeEvent[] = [
      { type: 'workflow_execution_started', ...ids },
      { type: 'execution_node_started', ...ids, nodeId: 'n1', baseNodeId: 'n1', agentName: 'Researcher' },
    ];
    act(() => events.forEach((event) => hub.emit(event)));

    const progress = await screen.findByTestId('run-progress');
    expect(progress.getAttribute('data-run-status')).toBe('running');
    expect(within(progress).getByRole('status').textContent).toBe(
      'Run in progress · 0 steps done, 1 running',
    );
    const mark = () =>
      container.querySelector('.react-flow__node[data-id="n1"] [data-testid="node-run-status"]');
    await waitFor(() => expect(mark()?.textContent).toBe('Running'));

    act(() => {
      hub.emit({
        type: 'execution_node_completed',
        ...ids,
        nodeId: 'n1',
        baseNodeId: 'n1',
        executionTime: 1500,
        totalTokens: 42,
      });
      hub.emit({ type: 'workflow_execution_completed', ...ids });
    });
    await waitFor(() =>
      expect(within(progress).getByRole('status').textContent).toBe('Last run completed · 1 step done'),
    );
    expect(mark()?.textContent).toBe('Done · 1.5 s');
  });
});

describe('what a run cost, in the builder', () => {
  const ids = { organizationId: 'org-1', workflowId: 'wf-1', executionId: 'run-2' };
  const usage = { promptTokens: 30, completionTokens: 12, totalTokens: 42 };
  const ended = (costs: Pick<Execution['metrics'], 'costUsd' | 'unpricedModels'>): Execution =>
    anExecution({
      id: 'run-2',
      workflowName: 'Weekly report',
      status: 'completed',
      output: {
        n1: {
          content: 'The facts.',
          kind: 'agent',
          status: 'completed',
          metadata: { agentName: 'Researcher', model: 'gpt-4o' },
          executionTime: 1500,
          usage: { ...usage, ...costs },
        },
      },
      metrics: { ...usage, ...costs, durationMs: 1500, steps: 1 },
      result: 'The facts.',
      completedAt: '2026-01-01T10:00:02.000Z',
    });

  const runAndShowSteps = async (execution: Execution) => {
    const { container, hub, user } = await openBuilder({
      workflow: { ...workflow, status: 'active' },
      agents: [agent('a1', 'Researcher')],
      handlers: [http.get(`${ORIGIN}/api/executions/run-2`, () => HttpResponse.json(execution))],
    });
    act(() => {
      hub.emit({ type: 'workflow_execution_started', ...ids });
      hub.emit({
        type: 'execution_node_started',
        ...ids,
        nodeId: 'n1',
        baseNodeId: 'n1',
        agentName: 'Researcher',
      });
      hub.emit({
        type: 'execution_node_completed',
        ...ids,
        nodeId: 'n1',
        baseNodeId: 'n1',
        executionTime: 1500,
        totalTokens: 42,
      });
      hub.emit({ type: 'workflow_execution_completed', ...ids });
    });
    await user.click(await screen.findByRole('button', { name: 'Show the run’s steps' }));
    const panel = screen.getByTestId('run-panel');
    const mark = () =>
      container.querySelector('.react-flow__node[data-id="n1"] [data-testid="node-run-status"]');
    return { panel, mark };
  };

  it('shows the run’s cost in the panel, each step’s after its tokens, and the node’s on its mark', async () => {
    const { panel, mark } = await runAndShowSteps(ended({ costUsd: 0.0042 }));
    expect((await within(panel).findByTestId('run-panel-cost')).textContent).toBe('$0.0042');
    const step = within(panel).getByTestId('run-panel-step');
    expect(within(step).getByText(/tokens/).textContent).toBe('42 tokens · $0.0042');
    await waitFor(() => expect(mark()?.textContent).toBe('Done · 1.5 s · $0.0042'));
    expect(mark()?.getAttribute('title')).toBe('Finished in 1.5 s, 42 tokens, $0.0042');
  });

  it('says the cost is unknown when a model had no price', async () => {
    const { panel, mark } = await runAndShowSteps(ended({ costUsd: null, unpricedModels: ['my-fine-tune'] }));
    const cost = await within(panel).findByTestId('run-panel-cost');
    expect(cost.textContent).toBe('Cost unknown');
    expect(cost.getAttribute('title')).toBe('No price for my-fine-tune');
    expect(within(panel).getByText(/tokens/).textContent).toBe('42 tokens · cost unknown');
    await waitFor(() => expect(mark()?.textContent).toBe('Done · 1.5 s · cost unknown'));
  });

  it('shows no cost for a run without one', async () => {
    const { panel, mark } = await runAndShowSteps(ended({}));
    expect((await within(panel).findByTestId('run-panel-step-text')).textContent).toBe('The facts.');
    expect(within(panel).queryByTestId('run-panel-cost')).toBeNull();
    expect(within(panel).getByText(/tokens/).textContent).toBe('42 tokens');
    expect(mark()?.textContent).toBe('Done · 1.5 s');
  });
});
