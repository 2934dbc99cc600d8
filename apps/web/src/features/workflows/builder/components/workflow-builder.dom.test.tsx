import type { Agent, RealtimeEvent, UpdateWorkflowInput, Workflow } from '@crewline/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { answerGet, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { WorkflowEditPage } from '@/features/workflows/pages/workflow-builder-page';

const at = '2026-01-01T10:00:00.000Z';
const agent = (id: string, name: string): Agent => ({
  id,
  name,
  description: null,
  role: `${name} role`,
  goal: `${name} goal`,
  backstory: null,
  llmProvider: 'openai',
  llmModel: 'gpt-4o-mini',
  temperature: 70,
  maxTokens: 2000,
  systemPrompt: null,
  tools: [],
  status: 'active',
  templateCategory: null,
  templateTags: [],
  config: {},
  memory: { enabled: false, connection: 'openai', model: 'text-embedding-3-small' },
  organizationId: 'org-1',
  createdBy: 'u1',
  createdAt: at,
  updatedAt: at,
});

const workflow: Workflow = {
  id: 'wf-1',
  name: 'Weekly report',
  description: 'Gathers and writes',
  processType: 'sequential',
  triggerType: 'manual',
  triggerConfig: {},
  nodes: [
    { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
    { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 100, y: 250 }, data: { label: 'Researcher' } },
    { id: 'end', type: 'end', position: { x: 100, y: 400 }, data: { label: 'End' } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'n1' },
    { id: 'e2', source: 'n1', target: 'end' },
  ],
  config: {},
  status: 'draft',
  templateCategory: null,
  templateTags: [],
  organizationId: 'org-1',
  createdBy: 'u1',
  createdAt: at,
  updatedAt: at,
  nextRunAt: null,
  lastTriggerError: null,
};

describe('the workflow builder', () => {
  it('shows a saved workflow, adds an agent node, and saves the canvas as it is', async () => {
    const sent: UpdateWorkflowInput[] = [];
    server.use(
      answerGet<Workflow>('/api/workflows/wf-1', workflow),
      answerGet<Agent[]>('/api/agents', [agent('a1', 'Researcher'), agent('a2', 'Writer')]),
      http.get(`${ORIGIN}/api/executions`, () => HttpResponse.json([])),
      http.put(`${ORIGIN}/api/workflows/wf-1`, async ({ request }) => {
        sent.push((await request.json()) as UpdateWorkflowInput);
        return HttpResponse.json(workflow);
      }),
    );
    const user = userEvent.setup();
    const { container, router } = renderWithApp(<WorkflowEditPage />, {
      path: '/workflows/edit/:id',
      url: '/workflows/edit/wf-1',
    });

    expect(await screen.findByDisplayValue('Weekly report')).toBeTruthy();
    // The header's estimate: whole minutes (one sequential agent, 30 s, rounds to one).
    expect(screen.getByTitle('1 agent').textContent).toBe('~1 min');
    // The saved steps are on the canvas; selecting one shows its properties.
    const researcher = await waitFor(() => {
      const node = container.querySelector<HTMLElement>('.react-flow__node[data-id="n1"]');
      expect(node).not.toBeNull();
      return node as HTMLElement;
    });
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
    server.use(
      answerGet<Workflow>('/api/workflows/wf-1', { ...workflow, status: 'active' }),
      answerGet<Agent[]>('/api/agents', [agent('a1', 'Researcher')]),
      http.get(`${ORIGIN}/api/executions`, () => HttpResponse.json([])),
      http.get(`${ORIGIN}/api/executions/run-1`, () => HttpResponse.json({}, { status: 404 })),
    );
    const { container, hub } = renderWithApp(<WorkflowEditPage />, {
      path: '/workflows/edit/:id',
      url: '/workflows/edit/wf-1',
    });
    expect(await screen.findByDisplayValue('Weekly report')).toBeTruthy();
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
