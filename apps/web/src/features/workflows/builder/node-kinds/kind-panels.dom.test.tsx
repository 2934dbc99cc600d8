import type { Agent, Tool, Workflow, WorkflowNode } from '@crewline/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { at, findCanvasNode, openBuilder, workflowFixture } from '@/testing/builder';
import { answerGet } from '@/testing/msw-server';

const agent = { id: 'a1', name: 'Writer', role: 'Writes', status: 'active' } as Agent;
const tool = {
  id: 't1',
  name: 'Orders API',
  description: null,
  category: 'api',
  provider: null,
  config: {},
  isActive: true,
  organizationId: 'org-1',
  createdBy: 'u1',
  createdAt: at,
  updatedAt: at,
} as Tool;

/** Start → the node → End. */
const workflowWith = (node: WorkflowNode): Workflow =>
  workflowFixture({
    name: 'Kinds',
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
      node,
      { id: 'end', type: 'end', position: { x: 700, y: 100 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: node.id },
      { id: 'e2', source: node.id, target: 'end' },
    ],
  });

/** Opens the builder on Start → node → End with the node's panel open; `sent` collects the saves. */
async function openPanel(node: WorkflowNode) {
  const workflow = workflowWith(node);
  const { container, sent, user } = await openBuilder({
    workflow,
    agents: [agent],
    handlers: [answerGet<Tool[]>('/api/tools', [tool]), answerGet<Workflow[]>('/api/workflows', [workflow])],
  });
  fireEvent.click(await findCanvasNode(container, node.id));
  const save = async () => {
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    return sent[0]!.nodes!.find((n) => n.id === node.id)!.data;
  };
  return { user, save };
}

describe('the tool, map, loop and transform panels', () => {
  it('a tool step: choosing a tool and filling argument templates saves { toolId, arguments }', async () => {
    const { user, save } = await openPanel({
      id: 'call',
      type: 'tool',
      position: { x: 300, y: 100 },
      data: { label: 'Look up', arguments: {} },
    });
    await user.click(await screen.findByLabelText('Tool'));
    await user.click(await screen.findByRole('option', { name: 'Orders API' }));
    await waitFor(() => expect(screen.getByLabelText('Tool').textContent).toContain('Orders API'));

    await user.click(screen.getByRole('button', { name: 'Add argument' }));
    const row = screen.getByRole('listitem', { name: 'Argument 1' });
    await user.type(within(row).getByLabelText('Argument name'), 'order');
    const value = within(row).getByLabelText('Value');
    // The value completes the paths it may read (Start's input, the run).
    await user.type(value, '{{{{ inp');
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]!.textContent).toContain('input');
    await user.keyboard('{Tab}');
    await user.type(value, '.orderId }}');
    expect((value as HTMLInputElement).value).toBe('{{ input.orderId }}');

    // A second row with the same name is not sent, and says so.
    await user.click(screen.getByRole('button', { name: 'Add argument' }));
    const second = screen.getByRole('listitem', { name: 'Argument 2' });
    await user.type(within(second).getByLabelText('Argument name'), 'order');
    expect(within(second).getByText('Another argument has this name; this one is not sent.')).toBeTruthy();

    expect(await save()).toMatchObject({ toolId: 't1', arguments: { order: '{{ input.orderId }}' } });
  });

  it('a map: its concurrency outside 1–20 is flagged at the field and by Validate', async () => {
    const { user, save } = await openPanel({
      id: 'each',
      type: 'map',
      position: { x: 300, y: 100 },
      data: {
        label: 'Each lead',
        items: 'input.leads',
        run: { agentId: 'a1', prompt: '{{ item }}' },
        concurrency: 5,
        onItemError: 'fail',
      },
    });
    const concurrency = await screen.findByLabelText('At a time');
    expect(concurrency.getAttribute('aria-invalid')).toBeNull();
    fireEvent.change(concurrency, { target: { value: '25' } });
    await waitFor(() => expect(concurrency.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('From 1 to 20 items run at the same time.').className).toContain(
      'text-destructive',
    );
    await user.click(screen.getByRole('button', { name: /Validate/ }));
    expect(
      (await screen.findAllByText(/Map "Each lead" runs 1 to 20 items at a time/)).length,
    ).toBeGreaterThan(0);

    // item is the body's: the items expression cannot read it; the prompt can.
    const items = screen.getByLabelText('Items');
    fireEvent.change(items, { target: { value: 'item.leads' } });
    await waitFor(() =>
      expect(screen.getByTestId('expression-error').textContent).toBe(
        'item is only available inside a map or loop',
      ),
    );
    fireEvent.change(items, { target: { value: 'input.leads' } });
    fireEvent.change(concurrency, { target: { value: '20' } });
    await waitFor(() => expect(concurrency.getAttribute('aria-invalid')).toBeNull());
    expect(await save()).toMatchObject({ items: 'input.leads', concurrency: 20 });
  });

  it('a loop: its until field completes last, checks a condition over it, and is saved', async () => {
    const { user, save } = await openPanel({
      id: 'draft',
      type: 'loop',
      position: { x: 300, y: 100 },
      data: { label: 'Redraft', run: { agentId: 'a1', prompt: '{{ item }}' }, until: '', maxIterations: 3 },
    });
    const until = await screen.findByLabelText('Until');
    await user.type(until, 'la');
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]!.textContent).toContain('last');
    await user.keyboard('{Enter}');
    expect((until as HTMLInputElement).value).toBe('last');
    // A pass's number is no condition.
    fireEvent.change(until, { target: { value: 'index + 1' } });
    await waitFor(() =>
      expect(screen.getByTestId('expression-error').textContent).toBe('gives an int, not true or false'),
    );
    fireEvent.change(until, { target: { value: 'last.data.approved == true' } });
    await waitFor(() => expect(screen.queryByTestId('expression-error')).toBeNull());

    const most = screen.getByLabelText('At most');
    fireEvent.change(most, { target: { value: '60' } });
    await waitFor(() => expect(most.getAttribute('aria-invalid')).toBe('true'));
    fireEvent.change(most, { target: { value: '4' } });
    expect(await save()).toMatchObject({ until: 'last.data.approved == true', maxIterations: 4 });
  });

  it('a transform: a later value may read an earlier one as vars.<name>, as the validation allows', async () => {
    await openPanel({
      id: 'prep',
      type: 'transform',
      position: { x: 300, y: 100 },
      data: {
        label: 'Prepare',
        assignments: [
          { name: 'total', value: '2' },
          { name: 'double', value: '' },
        ],
      },
    });
    const second = await screen.findByRole('listitem', { name: 'Value 2' });
    const value = within(second).getByLabelText('Value');
    fireEvent.change(value, { target: { value: 'vars.total * 2' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.queryByTestId('expression-error')).toBeNull();
    // The first value may not read the second.
    const first = within(screen.getByRole('listitem', { name: 'Value 1' })).getByLabelText('Value');
    fireEvent.change(first, { target: { value: 'vars.double' } });
    await waitFor(() =>
      expect(screen.getByTestId('expression-error').textContent).toBe(
        '"double" is not set by a transform before this one',
      ),
    );
  });
});
