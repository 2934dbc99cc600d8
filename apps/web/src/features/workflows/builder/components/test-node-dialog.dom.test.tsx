import type { ExecutionSummary, NodeTestResult, TestNodeInput, WorkflowNode } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { toBuilderEdge, toBuilderNode } from '../builder-nodes';
import { useBuilderStore } from '../store';
import { TestNodeButton } from './test-node-dialog';

const at = { x: 0, y: 0 };
const nodes: WorkflowNode[] = [
  { id: 'start', type: 'start', position: at, data: { label: 'Start' } },
  { id: 'classify', type: 'agent', agentId: 'a1', position: at, data: { label: 'Classify' } },
  {
    id: 'route',
    type: 'condition',
    position: at,
    data: {
      label: 'Route',
      branches: [{ id: 'bug', label: 'Bug', when: 'nodes.classify.data.category == "bug"' }],
    },
  },
  { id: 'lookup', type: 'tool', position: at, data: { label: 'Look up', toolId: 't1', arguments: {} } },
  {
    id: 'sum',
    type: 'code',
    position: at,
    data: { label: 'Sum', language: 'javascript', source: 'return { total: 6 }' },
  },
];
const edges = [
  { id: 'e1', source: 'start', target: 'classify' },
  { id: 'e2', source: 'classify', target: 'route' },
  { id: 'e3', source: 'route', target: 'lookup', sourceHandle: 'bug' },
  { id: 'e4', source: 'start', target: 'sum' },
];

const completed: NodeTestResult = {
  status: 'completed',
  content: '',
  data: { branch: 'bug' },
  evaluation: {
    kind: 'condition',
    evaluated: [{ name: 'Bug', expression: 'nodes.classify.data.category == "bug"', value: true }],
    result: { branch: 'bug' },
  },
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  durationMs: 4,
  runId: 'run-1',
};

const lastRun = { id: 'run-1', workflowId: 'wf-1', status: 'completed' } as ExecutionSummary;

/** The builder holds the saved workflow; `runs` is what the newest-run read answers. */
function open(nodeId: string, runs: ExecutionSummary[], answer: () => Response) {
  const sent: TestNodeInput[] = [];
  server.use(
    http.get(`${ORIGIN}/api/executions`, () => HttpResponse.json(runs)),
    http.post(`${ORIGIN}/api/workflows/wf-1/nodes/${nodeId}/test`, async ({ request }) => {
      sent.push((await request.json()) as TestNodeInput);
      return answer();
    }),
  );
  renderWithApp(<TestNodeButton nodeId={nodeId} />);
  return { sent, user: userEvent.setup() };
}

beforeEach(() => {
  useBuilderStore.setState({
    workflowId: 'wf-1',
    nodes: nodes.map(toBuilderNode),
    edges: edges.map(toBuilderEdge),
  });
});

describe('Test this node', () => {
  it('tests with the last run’s data when there is a run, and shows the branch values and the data', async () => {
    const { sent, user } = open('route', [lastRun], () => HttpResponse.json(completed));
    await user.click(screen.getByRole('button', { name: 'Test this node' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() =>
      expect(
        within(dialog).getByRole('tab', { name: 'Use the last run’s data' }).getAttribute('aria-selected'),
      ).toBe('true'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Run test' }));

    const result = await within(dialog).findByTestId('test-node-result');
    expect(within(result).getByText('Completed')).toBeTruthy();
    expect(within(result).getByText('0 tokens · 4 ms')).toBeTruthy();
    expect(within(result).getByText('with the last run’s data')).toBeTruthy();
    expect(within(result).getByTestId('test-node-evaluated').textContent).toContain('Bug = true');
    expect(within(result).getByRole('group', { name: 'Test data' }).textContent).toContain('"bug"');
    // The builder's copy of the node goes along; no sample data, so the server reads the last run.
    expect(sent).toEqual([{ node: expect.objectContaining({ id: 'route', type: 'condition' }) }]);
  });

  it('starts on sample data when the workflow never ran, refuses JSON that is not, and shows a failure inline', async () => {
    const { sent, user } = open('route', [], () =>
      HttpResponse.json({
        status: 'failed',
        error: 'Condition "Route": no such key: category',
        durationMs: 2,
        runId: null,
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Test this node' }));
    const dialog = await screen.findByRole('dialog');
    const editor = await within(dialog).findByLabelText('What the step reads');
    // Prefilled with the steps upstream of the condition.
    expect(JSON.parse((editor as HTMLTextAreaElement).value)).toEqual({
      input: {},
      nodes: { classify: { content: '', data: null } },
      vars: {},
    });

    await user.clear(editor);
    await user.type(editor, '{{"input": ');
    await user.click(within(dialog).getByRole('button', { name: 'Run test' }));
    expect(await within(dialog).findByText(/^Not valid JSON/)).toBeTruthy();
    expect(sent).toHaveLength(0);

    await user.clear(editor);
    await user.type(editor, '{{"nodes": {{"classify": {{"content": "hi"}}}');
    await user.click(within(dialog).getByRole('button', { name: 'Run test' }));
    const result = await within(dialog).findByTestId('test-node-result');
    expect(within(result).getByText('Failed')).toBeTruthy();
    expect(within(result).getByText('Condition "Route": no such key: category')).toBeTruthy();
    expect(sent[0]?.context).toEqual({ nodes: { classify: { content: 'hi' } } });
  });

  it('shows why the server refused, and says a tool is called for real', async () => {
    const { user } = open('lookup', [lastRun], () =>
      HttpResponse.json({ message: 'No run yet: this workflow has not run' }, { status: 409 }),
    );
    await user.click(screen.getByRole('button', { name: 'Test this node' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Test calls the tool for real/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Run test' }));
    expect(await within(dialog).findByText('No run yet: this workflow has not run')).toBeTruthy();
  });

  it('tests a Code step on sample data: its returned value and its console lines, or why it stopped', async () => {
    let answer: NodeTestResult = {
      status: 'completed',
      content: '{"total":6}',
      data: { total: 6 },
      evaluation: { kind: 'code', evaluated: [], result: { total: 6 }, logs: ['items 3', 'done'] },
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: 12,
      runId: null,
    };
    const { sent, user } = open('sum', [], () => HttpResponse.json(answer));
    await user.click(screen.getByRole('button', { name: 'Test this node' }));
    const dialog = await screen.findByRole('dialog');
    const editor = await within(dialog).findByLabelText('What the step reads');
    await user.clear(editor);
    await user.type(editor, '{{"input": {{"items": [[1, 2, 3]}}');
    await user.click(within(dialog).getByRole('button', { name: 'Run test' }));

    const result = await within(dialog).findByTestId('test-node-result');
    expect(within(result).getByText('Completed')).toBeTruthy();
    const lines = within(result).getByRole('list', { name: 'Console lines' });
    expect(
      within(lines)
        .getAllByRole('listitem')
        .map((line) => line.textContent),
    ).toEqual(['items 3', 'done']);
    expect(within(result).getByRole('group', { name: 'Test data' }).textContent).toContain('total');
    expect(within(result).getByRole('group', { name: 'Test data' }).textContent).toContain('6');
    // The returned value is the data: not shown a second time as text.
    expect(within(result).queryByText('{"total":6}')).toBeNull();
    expect(sent[0]).toMatchObject({
      node: { id: 'sum', type: 'code', data: { source: 'return { total: 6 }' } },
      context: { input: { items: [1, 2, 3] } },
    });

    answer = {
      status: 'failed',
      error: 'Code step stopped: it ran longer than 2 s',
      durationMs: 2003,
      runId: null,
    };
    await user.click(within(dialog).getByRole('button', { name: 'Run test' }));
    expect(await within(dialog).findByText('Code step stopped: it ran longer than 2 s')).toBeTruthy();
    expect(within(dialog).getByText('Failed')).toBeTruthy();
    expect(within(dialog).queryByRole('list', { name: 'Console lines' })).toBeNull();
  });

  it('is not offered for nodes that are not steps, nor before the workflow is saved', () => {
    renderWithApp(<TestNodeButton nodeId="start" />);
    expect(screen.queryByRole('button', { name: 'Test this node' })).toBeNull();
  });

  it('asks to save a workflow that was never saved', () => {
    useBuilderStore.setState({ workflowId: null });
    renderWithApp(<TestNodeButton nodeId="route" />);
    expect((screen.getByRole('button', { name: 'Test this node' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Save the workflow to test its steps.')).toBeTruthy();
  });
});
