import {
  nodeKinds,
  type Agent,
  type McpToolList,
  type Member,
  type Tool,
  type Workflow,
  type WorkflowEdge,
  type WorkflowNode,
} from '@crewline/contracts';
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
/** An MCP server connection that allows two of its three tools. */
const mcpConnection = {
  ...tool,
  id: 'm1',
  name: 'Everything',
  category: 'mcp',
  config: { url: 'https://mcp.example.com/mcp', enabledTools: ['echo', 'add'] },
} as Tool;
const serverTool = (name: string, inputSchema: Record<string, unknown>) => ({
  name,
  title: null,
  description: `The ${name} tool`,
  inputSchema,
  readOnly: true,
  destructive: false,
});
const mcpListing: McpToolList = {
  tools: [
    serverTool('echo', {
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    }),
    serverTool('get-env', { type: 'object' }),
    serverTool('add', { type: 'object', properties: { a: {}, b: {} } }),
  ],
  listedAt: at,
  error: null,
};

/** The organization's members (the session-less tests' organization is demo-org-id). */
const member = (userId: string, firstName: string, lastName: string, role = 'member'): Member => ({
  userId,
  username: firstName.toLowerCase(),
  email: `${firstName.toLowerCase()}@example.com`,
  firstName,
  lastName,
  role,
  joinedAt: at,
});
const ada = member('0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8', 'Ada', 'Lovelace', 'admin');
const grace = member('1c2d3e4f-5061-4b72-8c83-a4b5c6d7e8f9', 'Grace', 'Hopper');

/** Start → the node → End (from the node's `outPath` handle when it has named paths). */
const workflowWith = (node: WorkflowNode, outPaths: string[] = []): Workflow =>
  workflowFixture({
    name: 'Kinds',
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
      node,
      { id: 'end', type: 'end', position: { x: 700, y: 100 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: node.id },
      ...(outPaths.length > 0
        ? outPaths.map((sourceHandle): WorkflowEdge => ({
            id: `e-${sourceHandle}`,
            source: node.id,
            target: 'end',
            sourceHandle,
          }))
        : [{ id: 'e2', source: node.id, target: 'end' }]),
    ],
  });

/** Opens the builder on Start → node → End with the node's panel open; `sent` collects the saves. */
async function openPanel(node: WorkflowNode, outPaths: string[] = []) {
  const workflow = workflowWith(node, outPaths);
  const { container, sent, user } = await openBuilder({
    workflow,
    agents: [agent],
    handlers: [
      answerGet<Tool[]>('/api/tools', [tool, mcpConnection]),
      answerGet<McpToolList>('/api/tools/m1/mcp-tools', mcpListing),
      answerGet<Workflow[]>('/api/workflows', [workflow]),
      answerGet<Member[]>('/api/organizations/demo-org-id/members', [ada, grace]),
    ],
  });
  const canvasNode = await findCanvasNode(container, node.id);
  fireEvent.click(canvasNode);
  // The Properties tab and the kind's part of it load on first use (node-kinds/lazy-panel.ts).
  await waitFor(() =>
    expect(within(screen.getByRole('tabpanel')).queryByTestId('builder-part-loading')).toBeNull(),
  );
  const saved = async () => {
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    return sent[0]!;
  };
  const save = async () => (await saved()).nodes!.find((n) => n.id === node.id)!.data;
  return { user, save, saved, canvasNode };
}

/** A source handle of a canvas node, by its id (a path's name). */
const handleOf = (node: HTMLElement, id: string) =>
  node.querySelector<HTMLElement>(`.react-flow__handle.source[data-handleid="${id}"]`);

/** Picks `option` in the select labelled `label` (within `scope`). */
async function choose(
  user: Awaited<ReturnType<typeof openPanel>>['user'],
  label: string,
  option: string,
  scope: HTMLElement = document.body,
) {
  await user.click(within(scope).getByLabelText(label));
  await user.click(await screen.findByRole('option', { name: option }));
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

  it('a tool step on an MCP server: its MCP tool, among those the connection allows, saves { toolId, mcpTool }', async () => {
    const { user, save } = await openPanel({
      id: 'call',
      type: 'tool',
      position: { x: 300, y: 100 },
      data: { label: 'Echo', arguments: {} },
    });
    await user.click(await screen.findByLabelText('Tool'));
    await user.click(await screen.findByRole('option', { name: 'Everything' }));
    await user.click(await screen.findByLabelText('MCP tool'));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['echo', 'add']);
    await user.click(screen.getByRole('option', { name: 'echo' }));
    // The server's schema names the arguments the editor below takes.
    expect((await screen.findByText(/Its arguments:/)).textContent).toBe('Its arguments: message (required)');

    expect(await save()).toMatchObject({ toolId: 'm1', mcpTool: 'echo' });
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

describe('the approval and delay panels', () => {
  it('an approval: title, deciders, a quorum, form fields and a timeout path save in the wire format', async () => {
    const { user, save, canvasNode } = await openPanel(
      {
        id: 'approve',
        type: 'approval',
        position: { x: 300, y: 100 },
        data: {
          label: 'Refund check',
          title: '',
          message: '',
          policy: 'first',
          timeout: { seconds: 600, onTimeout: 'branch' },
        },
      },
      // Its timeout path is connected: a save refuses "take the timeout path" without one.
      ['approved', 'rejected', 'timeout'],
    );
    // The title completes the run's paths inside {{ }}, as every template does.
    const title = await screen.findByLabelText('Title');
    await user.type(title, 'Refund {{{{ inp');
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]!.textContent).toContain('input');
    await user.keyboard('{Tab}');
    await user.type(title, '.amount }} €?');
    expect((title as HTMLInputElement).value).toBe('Refund {{ input.amount }} €?');
    fireEvent.change(screen.getByLabelText('Message'), {
      target: { value: 'Refund {{ input.amount }} € to {{ input.customer }}?' },
    });

    // Named members: the organization's members, as checkboxes.
    await user.click(screen.getByRole('radio', { name: 'Named members' }));
    await user.click(await screen.findByRole('checkbox', { name: /Ada Lovelace/ }));
    await user.click(screen.getByRole('checkbox', { name: /Grace Hopper/ }));

    await user.click(screen.getByRole('radio', { name: /Quorum of/ }));
    expect((screen.getByLabelText('Approvals needed') as HTMLInputElement).value).toBe('2');
    expect(within(canvasNode).getByText('Quorum of 2 · 2 members')).toBeTruthy();

    // Two form fields: a required number, and a choice whose options are typed comma-separated.
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const amount = screen.getByRole('listitem', { name: 'Field 1' });
    await user.type(within(amount).getByLabelText('Field name'), 'amount');
    await user.type(within(amount).getByLabelText('Field label'), 'Amount');
    await choose(user, 'Type', 'Number', amount);
    await user.click(within(amount).getByRole('checkbox', { name: 'Required' }));
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const reason = screen.getByRole('listitem', { name: 'Field 2' });
    await user.type(within(reason).getByLabelText('Field name'), '2nd');
    expect(within(reason).getByText('Letters, digits and _, not starting with a digit.')).toBeTruthy();
    fireEvent.change(within(reason).getByLabelText('Field name'), { target: { value: 'reason' } });
    await choose(user, 'Type', 'Choice', reason);
    const options = within(reason).getByLabelText('Options');
    await user.type(options, 'Duplicate, Fraud,');
    // The comma just typed stays while the next option is typed.
    expect((options as HTMLInputElement).value).toBe('Duplicate, Fraud,');

    // The timeout, 10 minutes on its own path, becomes 2 hours: the node keeps its timeout handle.
    expect(handleOf(canvasNode, 'timeout')).not.toBeNull();
    expect(screen.getByRole('switch', { name: 'Timeout' }).getAttribute('aria-checked')).toBe('true');
    const after = screen.getByLabelText('Time out after');
    fireEvent.change(after, { target: { value: '2' } });
    await choose(user, 'Time out after unit', 'Hours');
    await waitFor(() => expect(within(canvasNode).getByText('Times out after 2 h')).toBeTruthy());
    expect(handleOf(canvasNode, 'timeout')).not.toBeNull();

    expect(await save()).toMatchObject({
      label: 'Refund check',
      title: 'Refund {{ input.amount }} €?',
      message: 'Refund {{ input.amount }} € to {{ input.customer }}?',
      assignees: { userIds: [ada.userId, grace.userId] },
      policy: { quorum: 2 },
      fields: [
        { name: 'amount', label: 'Amount', type: 'number', required: true },
        { name: 'reason', label: '', type: 'choice', options: ['Duplicate', 'Fraud'], required: false },
      ],
      timeout: { seconds: 7200, onTimeout: 'branch' },
    });
  });

  it('an approval: roles and "all must approve"; rejecting on timeout removes the timeout path and its edge', async () => {
    const { user, saved, canvasNode } = await openPanel(
      {
        id: 'approve',
        type: 'approval',
        position: { x: 300, y: 100 },
        data: {
          label: 'Sign-off',
          title: 'Ship it?',
          message: '',
          policy: 'first',
          timeout: { seconds: 86400, onTimeout: 'branch' },
        },
      },
      ['approved', 'rejected', 'timeout'],
    );
    expect(within(canvasNode).getByText('First decision wins · Any member')).toBeTruthy();
    expect(handleOf(canvasNode, 'approved')).not.toBeNull();
    expect(handleOf(canvasNode, 'rejected')).not.toBeNull();
    expect(handleOf(canvasNode, 'timeout')).not.toBeNull();
    expect(within(canvasNode).getByText('Times out after 1 d')).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Any member' })).toHaveProperty('checked', true);
    expect((screen.getByLabelText('Time out after') as HTMLInputElement).value).toBe('1');

    await user.click(screen.getByRole('radio', { name: 'Roles' }));
    await user.click(screen.getByRole('checkbox', { name: 'Admins' }));
    await user.click(screen.getByRole('checkbox', { name: 'Owners' }));
    // "All must approve" needs named members: the panel says so before Validate does.
    await user.click(screen.getByRole('radio', { name: /All named approvers must approve/ }));
    expect(screen.getByText('Needs named members: choose them under Who may decide.')).toBeTruthy();
    expect(within(canvasNode).getByText('All must approve · Owners or admins')).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'First decision wins' }));

    await choose(user, 'On timeout', 'Reject');
    await waitFor(() => expect(handleOf(canvasNode, 'timeout')).toBeNull());
    expect(within(canvasNode).getByText('Rejects after 1 d')).toBeTruthy();

    const body = await saved();
    expect(body.nodes!.find((n) => n.id === 'approve')!.data).toMatchObject({
      assignees: { roles: ['owner', 'admin'] },
      policy: 'first',
      timeout: { seconds: 86400, onTimeout: 'reject' },
    });
    expect(body.edges!.filter((e) => e.source === 'approve').map((e) => e.sourceHandle)).toEqual([
      'approved',
      'rejected',
    ]);
  });

  it('a delay: waits for a duration in a unit, or until an expression, and says which on the canvas', async () => {
    const { user, save, canvasNode } = await openPanel({
      id: 'wait',
      type: 'delay',
      position: { x: 300, y: 100 },
      data: { label: 'Cool down', seconds: 7200 },
    });
    expect(within(canvasNode).getByTestId('delay-summary').textContent).toBe('Waits 2 h');
    expect((screen.getByLabelText('Duration') as HTMLInputElement).value).toBe('2');
    // A new unit keeps the number: 2 minutes.
    await choose(user, 'Duration unit', 'Minutes');
    await waitFor(() =>
      expect(within(canvasNode).getByTestId('delay-summary').textContent).toBe('Waits 2 min'),
    );

    await user.click(screen.getByRole('radio', { name: /Wait until/ }));
    const until = screen.getByLabelText('Until');
    fireEvent.change(until, { target: { value: 'timestamp(input.sendAt)' } });
    await waitFor(() =>
      expect(within(canvasNode).getByTestId('delay-summary').textContent).toBe(
        'Waits until timestamp(input.sendAt)',
      ),
    );
    // A test of a node cannot wait: a delay (as an approval) offers none.
    expect(screen.queryByRole('button', { name: 'Test this node' })).toBeNull();
    const data = await save();
    expect(data).toMatchObject({ until: 'timestamp(input.sendAt)' });
    expect(data).not.toHaveProperty('seconds');
  });

  it('the Steps palette offers both with the contracts’ help, and adds them ready to connect', async () => {
    const { user } = await openPanel({
      id: 'wait',
      type: 'delay',
      position: { x: 300, y: 100 },
      data: { label: 'Cool down', seconds: 60 },
    });
    await user.click(screen.getByRole('tab', { name: 'Steps' }));
    const addApproval = await screen.findByRole('button', { name: 'Add Approval' });
    expect(addApproval.textContent).toContain(nodeKinds.approval.help);
    expect(screen.getByRole('button', { name: 'Add Delay' }).textContent).toContain(nodeKinds.delay.help);
    await user.click(addApproval);
    const approval = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.react-flow__node-approval');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(
      [...approval.querySelectorAll('.react-flow__handle.source')].map((h) =>
        h.getAttribute('data-handleid'),
      ),
    ).toEqual(['approved', 'rejected']);
    expect(within(approval).getByText('First decision wins · Any member')).toBeTruthy();
  });
});
