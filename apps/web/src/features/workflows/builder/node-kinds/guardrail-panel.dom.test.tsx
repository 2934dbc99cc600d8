import type { Workflow } from '@crewline/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { agentFixture, findCanvasNode, openBuilder, workflowFixture } from '@/testing/builder';

const agent = agentFixture({ id: 'a1', name: 'Writer', role: 'Writes', goal: 'Write' });

const workflow = (guardrail?: Workflow['nodes'][number]): Workflow =>
  workflowFixture({
    name: 'Screened',
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
      { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 200, y: 100 }, data: { label: 'Draft' } },
      ...(guardrail ? [guardrail] : []),
      { id: 'end', type: 'end', position: { x: 900, y: 100 }, data: { label: 'End' } },
    ],
    edges: guardrail
      ? [
          { id: 'e1', source: 'start', target: 'n1' },
          { id: 'e2', source: 'n1', target: guardrail.id },
          { id: 'e3', source: guardrail.id, target: 'end', sourceHandle: 'pass' },
        ]
      : [
          { id: 'e1', source: 'start', target: 'n1' },
          { id: 'e2', source: 'n1', target: 'end' },
        ],
  });

const handle = (node: HTMLElement, id: string) =>
  node.querySelector<HTMLElement>(`.react-flow__handle.source[data-handleid="${id}"]`);

describe('the Guardrail step in the builder', () => {
  it('comes from the palette with one PII check that redacts, and its Pass and Fail paths save as its edges', async () => {
    const { container, sent, user } = await openBuilder({ workflow: workflow(), agents: [agent] });
    await user.click(screen.getByRole('tab', { name: 'Steps' }));
    await user.click(await screen.findByRole('button', { name: 'Add Guardrail' }));
    const node = await waitFor(() => {
      const found = container.querySelector<HTMLElement>('.react-flow__node-guardrail');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(within(node).getByText('PII')).toBeTruthy();
    expect(within(node).getByText('redacts')).toBeTruthy();
    expect(within(node).getByTestId('path-pass').textContent).toBe('Pass');
    expect(within(node).getByTestId('path-fail').textContent).toBe('Fail');

    fireEvent.click(node);
    const checks = await screen.findByRole('region', { name: 'Checks' });
    expect(within(checks).getByRole('listitem', { name: 'Check 1: PII' })).toBeTruthy();
    expect(screen.getByText(/Connect Pass and Fail from the node’s handles/)).toBeTruthy();

    // Draft → the guardrail, Pass → End, Fail → End (a click on a handle, then on another, connects them).
    const end = () => container.querySelector('.react-flow__node[data-id="end"] .react-flow__handle.target')!;
    fireEvent.click(container.querySelector('.react-flow__node[data-id="n1"] .react-flow__handle.source')!);
    fireEvent.click(node.querySelector('.react-flow__handle.target')!);
    fireEvent.click(handle(node, 'pass')!);
    fireEvent.click(end());
    fireEvent.click(handle(node, 'fail')!);
    fireEvent.click(end());
    fireEvent.click(node);
    await screen.findByText('Passed text goes on by Pass, blocked text by Fail.');

    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const saved = sent[0]!;
    const guardrail = saved.nodes!.find((n) => n.type === 'guardrail')!;
    expect(guardrail.data).toEqual({
      label: 'Guardrail',
      description: '',
      lastUpdated: expect.any(String),
      checks: [{ type: 'pii', enabled: true, action: 'redact' }],
    });
    for (const path of ['pass', 'fail'])
      expect(saved.edges).toContainEqual({
        id: `e-${guardrail.id}-${path}-end`,
        source: guardrail.id,
        target: 'end',
        sourceHandle: path,
      });
  });

  it('its panel: a target expression and a second check save in the wire format', async () => {
    const { container, sent, user } = await openBuilder({
      workflow: workflow({
        id: 'screen',
        type: 'guardrail',
        position: { x: 500, y: 100 },
        data: {
          label: 'Screen',
          checks: [{ type: 'pii', enabled: true, entities: ['email'], action: 'redact' }],
        },
      }),
      agents: [agent],
    });
    const node = await findCanvasNode(container, 'screen');
    fireEvent.click(node);
    expect(await screen.findByText("The previous step's text when empty.")).toBeTruthy();
    // Only Fail is left to connect (a save is refused without it).
    expect(screen.getByText(/Connect Fail from the node’s handles/)).toBeTruthy();
    fireEvent.click(handle(node, 'fail')!);
    fireEvent.click(container.querySelector('.react-flow__node[data-id="end"] .react-flow__handle.target')!);
    fireEvent.click(node);
    await screen.findByText('Passed text goes on by Pass, blocked text by Fail.');
    fireEvent.change(screen.getByLabelText('Target'), { target: { value: 'nodes.n1.content' } });

    await user.click(screen.getByRole('button', { name: /^Add check/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Secrets' }));
    const secrets = screen.getByRole('listitem', { name: 'Check 2: Secrets' });
    await user.click(within(secrets).getByLabelText('Action'));
    await user.click(await screen.findByRole('option', { name: 'Redact' }));

    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.nodes!.find((n) => n.id === 'screen')!.data).toMatchObject({
      target: 'nodes.n1.content',
      checks: [
        { type: 'pii', enabled: true, entities: ['email'], action: 'redact' },
        { type: 'secrets', enabled: true, action: 'redact' },
      ],
    });
  });

  it('asks for the classifier model only when a check needs one, and saves it', async () => {
    const { container, sent, user } = await openBuilder({
      workflow: workflow({
        id: 'screen',
        type: 'guardrail',
        position: { x: 500, y: 100 },
        data: { label: 'Screen', checks: [{ type: 'secrets', enabled: true, action: 'block' }] },
      }),
      agents: [agent],
    });
    const node = await findCanvasNode(container, 'screen');
    // Fail → End too: a save is refused without it.
    fireEvent.click(handle(node, 'fail')!);
    fireEvent.click(container.querySelector('.react-flow__node[data-id="end"] .react-flow__handle.target')!);
    fireEvent.click(node);
    await screen.findByRole('region', { name: 'Checks' });
    expect(screen.queryByRole('region', { name: 'Classifier model' })).toBeNull();

    await user.click(screen.getByRole('button', { name: /^Add check/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Prompt injection' }));
    const model = await screen.findByRole('region', { name: 'Classifier model' });
    expect(within(model).getByLabelText('Model').getAttribute('placeholder')).toBe('gpt-4o-mini');
    await user.click(within(model).getByLabelText('Provider'));
    await user.click(await screen.findByRole('option', { name: 'Anthropic' }));
    fireEvent.change(within(model).getByLabelText('Model'), { target: { value: 'claude-haiku-4-5' } });

    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.nodes!.find((n) => n.id === 'screen')!.data).toMatchObject({
      classifier: { provider: 'anthropic', model: 'claude-haiku-4-5' },
    });
  });
});
