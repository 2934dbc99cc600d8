import type { Agent, Execution, ExecutionSummary } from '@crewline/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { at, findCanvasNode, openBuilder as openBuilderOn, workflowFixture } from '@/testing/builder';
import { ORIGIN } from '@/testing/msw-server';

const agent = { id: 'a1', name: 'Classifier', role: 'Sorts messages', status: 'active' } as Agent;

/** Start → Classify (an agent with an output schema) → Route (a condition) → Reply → End. */
const workflow = workflowFixture({
  name: 'Triage',
  status: 'active',
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 100 }, data: { label: 'Start' } },
    {
      id: 'classify',
      type: 'agent',
      agentId: 'a1',
      position: { x: 200, y: 100 },
      data: {
        label: 'Classify',
        outputSchema: {
          type: 'object',
          properties: { category: { type: 'string', enum: ['billing', 'bug'] } },
          required: ['category'],
        },
      },
    },
    {
      id: 'route',
      type: 'condition',
      position: { x: 450, y: 100 },
      data: { label: 'Route', branches: [{ id: 'billing', label: 'Billing', when: '' }] },
    },
    { id: 'reply', type: 'agent', agentId: 'a1', position: { x: 700, y: 0 }, data: { label: 'Reply' } },
    { id: 'end', type: 'end', position: { x: 950, y: 100 }, data: { label: 'End' } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'classify' },
    { id: 'e2', source: 'classify', target: 'route' },
    { id: 'e3', source: 'route', target: 'reply', sourceHandle: 'billing' },
    { id: 'e4', source: 'route', target: 'end', sourceHandle: 'else' },
    { id: 'e5', source: 'reply', target: 'end' },
  ],
});

const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
const summary = {
  id: 'run-1',
  workflowId: 'wf-1',
  status: 'completed',
  trigger: 'manual',
  startedAt: at,
  createdAt: at,
} as ExecutionSummary;
const lastRun = {
  ...summary,
  input: { message: 'I was charged twice' },
  output: {
    classify: {
      kind: 'agent',
      content: '{"category":"billing"}',
      data: { category: 'billing' },
      status: 'completed',
      metadata: {},
      executionTime: 5,
      usage,
    },
  },
} as unknown as Execution;

/** Opens the builder; `runs` is what GET /api/executions answers (the last run's details are run-1's). */
async function openBuilder(runs: ExecutionSummary[] = []) {
  const asked: string[] = [];
  const view = await openBuilderOn({
    workflow,
    agents: [agent],
    runs,
    handlers: [
      http.get(`${ORIGIN}/api/executions/run-1`, () => {
        asked.push('run-1');
        return HttpResponse.json(lastRun);
      }),
    ],
  });
  return { ...view, asked };
}

async function openNode(container: HTMLElement, id: string) {
  fireEvent.click(await findCanvasNode(container, id));
}

const optionTexts = () =>
  within(screen.getByRole('listbox'))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('expression fields', () => {
  it('completes the paths upstream of the node, from the output schema too, and inserts the one chosen with Enter', async () => {
    const { container, user } = await openBuilder();
    await openNode(container, 'route');
    const when = await screen.findByLabelText('When');
    expect(when.getAttribute('role')).toBe('combobox');
    expect(when.getAttribute('aria-expanded')).toBe('false');

    await user.type(when, 'nodes.cl');
    expect(when.getAttribute('aria-expanded')).toBe('true');
    const options = optionTexts();
    expect(options).toHaveLength(4);
    expect(options[0]).toContain('nodes.classify.content');
    // Each path says whose it is (the node's label) and what it is.
    expect(options[0]).toContain('Classify');
    expect(options[3]).toContain('nodes.classify.data.category');
    expect(options[3]).toContain('"billing" | "bug"');
    // Nothing downstream (Reply) is offered.
    expect(options.join()).not.toContain('reply');

    // The first is active; Down moves on (aria-activedescendant follows), Up comes back round.
    const active = () => document.getElementById(when.getAttribute('aria-activedescendant')!)?.textContent;
    expect(active()).toContain('nodes.classify.content');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(active()).toContain('nodes.classify.data.category');
    await user.keyboard('{Enter}');
    expect((when as HTMLInputElement).value).toBe('nodes.classify.data.category');
    expect(screen.queryByRole('listbox')).toBeNull();

    // Escape closes the list and leaves the text alone.
    await user.type(when, ' == nodes.');
    expect(screen.getByRole('listbox')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect((when as HTMLInputElement).value).toBe('nodes.classify.data.category == nodes.');
  });

  it('suggests inside the {{ }} of a template only, and a click chooses', async () => {
    const { container, user } = await openBuilder();
    await openNode(container, 'reply');
    const prompt = await screen.findByLabelText('Prompt');
    // ({{ types one "{" in user-event.)
    await user.type(prompt, 'About nod');
    expect(screen.queryByRole('listbox')).toBeNull();
    await user.type(prompt, 'es: {{{{ nodes.cl');
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent).join()).toContain('nodes.classify.data.category');
    await user.click(options.find((o) => o.textContent?.startsWith('nodes.classify.data.category'))!);
    expect((prompt as HTMLTextAreaElement).value).toBe('About nodes: {{ nodes.classify.data.category');
    // The route's branch (a condition) is upstream too.
    await user.type(prompt, ' }} {{{{ nodes.r');
    expect(optionTexts()[0]).toContain('nodes.route.content');
  });

  it('says what is wrong under the field as it is typed, once even when Validate says it too', async () => {
    const { container, user } = await openBuilder();
    await openNode(container, 'route');
    const when = await screen.findByLabelText('When');
    fireEvent.change(when, { target: { value: 'nodes.classify.data.categry == "billing"' } });
    await waitFor(() =>
      expect(screen.getAllByTestId('expression-error').map((e) => e.textContent)).toEqual([
        'nodes.classify.data has no field "categry" (its fields: category)',
      ]),
    );
    expect(when.getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: /Validate/ }));
    // Validate speaks of it (its report), the field says it once.
    expect(
      (await screen.findAllByText(/Node "Route": nodes\.classify\.data\.categry == "billing" — /)).length,
    ).toBeGreaterThan(0);
    expect(screen.getAllByTestId('expression-error')).toHaveLength(1);

    // A node that is not upstream, and a condition that is not true or false.
    fireEvent.change(when, { target: { value: 'nodes.reply.content == "x"' } });
    await waitFor(() =>
      expect(screen.getByTestId('expression-error').textContent).toBe(
        '"reply" is not a node before this one',
      ),
    );
    fireEvent.change(when, { target: { value: 'nodes.classify.content' } });
    await waitFor(() =>
      expect(screen.getByTestId('expression-error').textContent).toBe('gives a string, not true or false'),
    );
    fireEvent.change(when, { target: { value: 'nodes.classify.data.category == "billing"' } });
    await waitFor(() => expect(screen.queryByTestId('expression-error')).toBeNull());
  });

  it('shows what the expression gave in the last run, read once', async () => {
    const { container, asked } = await openBuilder([summary]);
    await openNode(container, 'route');
    const when = await screen.findByLabelText('When');
    fireEvent.change(when, { target: { value: 'nodes.classify.data.category == "billing"' } });
    await waitFor(() => expect(screen.getByTestId('expression-last-run').textContent).toBe('Last run: true'));
    fireEvent.change(when, { target: { value: 'input.message.size() > 100' } });
    await waitFor(() =>
      expect(screen.getByTestId('expression-last-run').textContent).toBe('Last run: false'),
    );

    await openNode(container, 'reply');
    const prompt = await screen.findByLabelText('Prompt');
    fireEvent.change(prompt, { target: { value: 'A {{ nodes.classify.data.category }} question' } });
    await waitFor(() =>
      expect(screen.getByTestId('expression-last-run').textContent).toBe('Last run: A billing question'),
    );
    // A value the run did not have: the evaluation's reason, muted.
    fireEvent.change(prompt, { target: { value: '{{ input.customer }}' } });
    await waitFor(() =>
      expect(screen.getByTestId('expression-last-run').textContent).toMatch(/^Last run: .*customer/),
    );
    expect(asked).toEqual(['run-1']);
  });

  it('shows no last run for a workflow that never ran', async () => {
    const { container } = await openBuilder([]);
    await openNode(container, 'route');
    const when = await screen.findByLabelText('When');
    fireEvent.change(when, { target: { value: 'nodes.classify.data.category == "billing"' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(screen.queryByTestId('expression-last-run')).toBeNull();
  });
});
