import type { Workflow } from '@crewline/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { agentFixture, openBuilder, workflowFixture } from '@/testing/builder';

// An agent node's Blocked path (docs/product-rules.md, Guardrails): offered when its agent has
// guardrails on, and kept in sight while an edge leaves from it.

const plain = agentFixture({ id: 'a1', name: 'Writer', role: 'Writes', goal: 'Write' });
const guarded = agentFixture({
  id: 'a2',
  name: 'Support',
  role: 'Answers',
  goal: 'Help',
  guardrails: { output: [{ type: 'secrets', enabled: true, action: 'block' }] },
});

const workflow = (agentId: string, blockedEdge = false): Workflow =>
  workflowFixture({
    name: 'Guarded',
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
      { id: 'n1', type: 'agent', agentId, position: { x: 200, y: 100 }, data: { label: 'Reply' } },
      { id: 'end', type: 'end', position: { x: 900, y: 100 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
      ...(blockedEdge ? [{ id: 'e3', source: 'n1', target: 'end', sourceHandle: 'fail' }] : []),
    ],
  });

const agentNode = (container: HTMLElement) =>
  waitFor(() => {
    const found = container.querySelector<HTMLElement>('.react-flow__node[data-id="n1"]');
    expect(found).not.toBeNull();
    return found!;
  });

describe("an agent node's Blocked path", () => {
  it('is not offered for an agent without guardrails', async () => {
    const both = workflow('a1');
    both.nodes.push({
      id: 'n2',
      type: 'agent',
      agentId: 'a2',
      position: { x: 500, y: 300 },
      data: { label: 'Check' },
    });
    const { container } = await openBuilder({ workflow: both, agents: [plain, guarded] });
    // Once the guarded agent's node offers it, the agents are known: the plain one's does not.
    const other = container.querySelector<HTMLElement>('.react-flow__node[data-id="n2"]')!;
    await within(other).findByTestId('path-fail');
    expect(within(await agentNode(container)).queryByTestId('path-fail')).toBeNull();
  });

  it('is offered for an agent with guardrails on, and saves as an edge from its fail handle', async () => {
    const { container, sent, user } = await openBuilder({
      workflow: workflow('a2'),
      agents: [plain, guarded],
    });
    const node = await agentNode(container);
    const row = await within(node).findByTestId('path-fail');
    expect(row.textContent).toBe('Blocked by a guardrail');

    fireEvent.click(row.querySelector('.react-flow__handle.source')!);
    fireEvent.click(container.querySelector('.react-flow__node[data-id="end"] .react-flow__handle.target')!);
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.edges).toContainEqual(
      expect.objectContaining({ source: 'n1', target: 'end', sourceHandle: 'fail' }),
    );
  });

  it('stays in sight while an edge leaves from it, even once the agent has no guardrails', async () => {
    const { container } = await openBuilder({ workflow: workflow('a1', true), agents: [plain] });
    const node = await agentNode(container);
    expect((await within(node).findByTestId('path-fail')).textContent).toBe('Blocked by a guardrail');
  });
});
