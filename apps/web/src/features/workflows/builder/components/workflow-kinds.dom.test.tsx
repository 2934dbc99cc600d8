import type { Workflow } from '@crewline/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { agentFixture, openBuilder as openBuilderOn, workflowFixture } from '@/testing/builder';
import { ORIGIN } from '@/testing/msw-server';

const agent = agentFixture({ id: 'a1', name: 'Classifier', role: 'Sorts messages', goal: 'Sort' });

const workflow = (processType: Workflow['processType'] = 'sequential'): Workflow =>
  workflowFixture({
    name: 'Triage',
    processType,
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
      { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 200, y: 100 }, data: { label: 'Classify' } },
      { id: 'end', type: 'end', position: { x: 900, y: 100 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
  });

/** Opens the builder on the workflow; `sent` collects the bodies of its saves. */
const openBuilder = (processType: Workflow['processType'] = 'sequential') =>
  openBuilderOn({ workflow: workflow(processType), agents: [agent] });

const nodeOf = (container: HTMLElement, type: string) =>
  waitFor(() => {
    const node = container.querySelector<HTMLElement>(`.react-flow__node-${type}`);
    expect(node).not.toBeNull();
    return node as HTMLElement;
  });

const handle = (node: HTMLElement, id: string) => node.querySelector<HTMLElement>(`[data-handleid="${id}"]`);

describe('the builder’s step kinds', () => {
  it('adds a condition from the palette, grows a handle per branch and saves the else path it was given', async () => {
    const { container, sent, user } = await openBuilder();
    await user.click(screen.getByRole('tab', { name: 'Steps' }));
    await user.click(await screen.findByRole('button', { name: 'Add Condition' }));
    const condition = await nodeOf(container, 'condition');
    expect(within(condition).getByText('Branch 1')).toBeTruthy();
    expect(handle(condition, 'branch-1')).not.toBeNull();
    expect(handle(condition, 'else')).not.toBeNull();
    expect(handle(condition, 'branch-2')).toBeNull();

    // Its panel: a second branch is a second handle on the canvas.
    fireEvent.click(condition);
    await user.click(await screen.findByRole('button', { name: 'Add branch' }));
    await waitFor(() => expect(handle(condition, 'branch-2')).not.toBeNull());
    expect(within(condition).getByText('Branch 2')).toBeTruthy();

    // Validate speaks of the empty expressions under their fields, and forgets them once filled in.
    await user.click(screen.getByRole('button', { name: /Validate/ }));
    const when = screen.getAllByLabelText('When');
    await waitFor(() =>
      expect(screen.getAllByTestId('expression-error').map((e) => e.textContent)).toEqual([
        'is empty',
        'is empty',
      ]),
    );
    fireEvent.change(when[0]!, { target: { value: 'input.kind == "billing"' } });
    fireEvent.change(when[1]!, { target: { value: 'input.kind == "sales"' } });
    await waitFor(() => expect(screen.queryAllByTestId('expression-error')).toHaveLength(0));

    // Classify → the condition, then from its else handle to End: clicking a handle, then another, connects them.
    fireEvent.click(container.querySelector('.react-flow__node[data-id="n1"] .react-flow__handle.source')!);
    fireEvent.click(condition.querySelector('.react-flow__handle.target')!);
    fireEvent.click(handle(condition, 'else')!);
    fireEvent.click(container.querySelector('.react-flow__node[data-id="end"] .react-flow__handle.target')!);
    // (The click on End's handle selected End: back to the condition, whose else row now says it is connected.)
    fireEvent.click(condition);
    await screen.findByText('Taken when no branch is.');

    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const saved = sent[0]!;
    const node = saved.nodes?.find((n) => n.type === 'condition');
    expect(node?.data).toMatchObject({
      label: 'Condition',
      branches: [
        { id: 'branch-1', label: 'Branch 1', when: 'input.kind == "billing"' },
        { id: 'branch-2', label: 'Branch 2', when: 'input.kind == "sales"' },
      ],
    });
    expect(saved.edges).toContainEqual({
      id: `e-${node!.id}-else-end`,
      source: node!.id,
      target: 'end',
      sourceHandle: 'else',
    });
  });

  it('disables the kinds a parallel workflow cannot use, saying why, and still adds a note', async () => {
    const { container, user } = await openBuilder('parallel');
    await user.click(screen.getByRole('tab', { name: 'Steps' }));
    const conditionButton = await screen.findByRole('button', { name: 'Add Condition' });
    expect(conditionButton.getAttribute('aria-disabled')).toBe('true');
    expect(
      screen.getByText(
        'Condition steps work only in sequential workflows; this one is Parallel. Change it in Settings.',
      ),
    ).toBeTruthy();
    await user.click(conditionButton);
    expect(container.querySelector('.react-flow__node-condition')).toBeNull();

    expect(screen.getByRole('button', { name: 'Add Note' }).getAttribute('aria-disabled')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add Note' }));
    const note = await nodeOf(container, 'note');
    expect(note.querySelector('.react-flow__handle')).toBeNull();
  });

  it('writes an agent step’s output fields as a JSON Schema, and never saves JSON that does not parse', async () => {
    const { container, sent, user } = await openBuilder();
    fireEvent.click(await nodeOf(container, 'agent'));
    await user.click(await screen.findByRole('button', { name: 'Add field' }));
    await user.type(screen.getByLabelText('Field name'), 'category');
    await user.type(screen.getByLabelText('Allowed values'), 'billing, other');
    await user.type(screen.getByLabelText('Field description'), 'Which team answers');

    await user.click(screen.getByRole('button', { name: 'JSON' }));
    const json = screen.getByLabelText('Output schema as JSON');
    expect(JSON.parse((json as HTMLTextAreaElement).value)).toMatchObject({ required: ['category'] });
    fireEvent.change(json, { target: { value: '{"type": "object",' } });
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Not valid JSON: .* It is not saved\.$/);

    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.nodes?.find((n) => n.id === 'n1')?.data?.outputSchema).toEqual({
      type: 'object',
      properties: {
        category: { type: 'string', enum: ['billing', 'other'], description: 'Which team answers' },
      },
      required: ['category'],
      additionalProperties: false,
    });
  });

  it('marks a run on the canvas: the condition done, the step on the path it did not take greyed as skipped', async () => {
    const deciding: Workflow = {
      ...workflow(),
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
        {
          id: 'route',
          type: 'condition',
          position: { x: 200, y: 100 },
          data: { label: 'Route', branches: [{ id: 'billing', label: 'Billing', when: 'true' }] },
        },
        {
          id: 'n1',
          type: 'agent',
          agentId: 'a1',
          position: { x: 500, y: 0 },
          data: { label: 'Billing desk' },
        },
        {
          id: 'n2',
          type: 'agent',
          agentId: 'a1',
          position: { x: 500, y: 200 },
          data: { label: 'Front desk' },
        },
        { id: 'end', type: 'end', position: { x: 800, y: 100 }, data: { label: 'End' } },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'route' },
        { id: 'e2', source: 'route', target: 'n1', sourceHandle: 'billing' },
        { id: 'e3', source: 'route', target: 'n2', sourceHandle: 'else' },
        { id: 'e4', source: 'n1', target: 'end' },
        { id: 'e5', source: 'n2', target: 'end' },
      ],
    };
    const { container, hub } = await openBuilderOn({
      workflow: deciding,
      agents: [agent],
      handlers: [http.get(`${ORIGIN}/api/executions/run-1`, () => HttpResponse.json({}, { status: 404 }))],
    });
    const ids = { organizationId: 'org-1', workflowId: 'wf-1', executionId: 'run-1' };
    act(() => {
      hub.emit({ type: 'workflow_execution_started', ...ids });
      hub.emit({ type: 'execution_node_started', ...ids, nodeId: 'route', baseNodeId: 'route' });
      hub.emit({
        type: 'execution_node_completed',
        ...ids,
        nodeId: 'route',
        baseNodeId: 'route',
        executionTime: 3,
        totalTokens: 0,
        branch: 'billing',
      });
      hub.emit({ type: 'execution_node_skipped', ...ids, nodeId: 'n2', baseNodeId: 'n2' });
      hub.emit({
        type: 'execution_node_started',
        ...ids,
        nodeId: 'n1',
        baseNodeId: 'n1',
        agentName: 'Classifier',
      });
    });
    const mark = (id: string) =>
      container.querySelector(`.react-flow__node[data-id="${id}"] [data-run-status]`);
    await waitFor(() => expect(mark('n2')?.getAttribute('data-run-status')).toBe('skipped'));
    expect(within(mark('n2') as HTMLElement).getByText('Skipped')).toBeTruthy();
    expect(mark('route')?.getAttribute('data-run-status')).toBe('completed');
    expect(mark('n1')?.getAttribute('data-run-status')).toBe('running');
  });
});
