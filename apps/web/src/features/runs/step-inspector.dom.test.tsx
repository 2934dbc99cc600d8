import type { EvaluationRecord, StepRecord } from '@crewline/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { StepInspector } from './step-inspector';

const condition: EvaluationRecord = {
  kind: 'condition',
  evaluated: [
    { name: 'Billing', expression: 'nodes.classify.data.category == "billing"', value: false },
    { name: 'Urgent', expression: 'nodes.classify.data.urgent', value: true },
  ],
  result: { branch: 'urgent' },
};

const modelCall: StepRecord = {
  agentName: 'Writer',
  messages: [{ role: 'user', content: 'Summarize the refund.' }],
  answer: 'Refunded 40 €.',
  toolCalls: [],
  retries: 0,
  provider: 'openai',
  model: 'my-fine-tune',
  promptTokens: 1200,
  completionTokens: 80,
};

describe("the step inspector's figures of a model call", () => {
  /** The figures of the inspected model call, as label → value, with the Cost's title. */
  async function figures(usage?: Parameters<typeof StepInspector>[0]['usage']) {
    const user = userEvent.setup();
    const { unmount } = render(<StepInspector record={modelCall} usage={usage} />);
    await user.click(screen.getByRole('button', { name: /Inspect step/ }));
    const facts = Object.fromEntries(
      screen.getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    const title = screen.queryByText(/^Cost$/)?.nextElementSibling?.getAttribute('title') ?? null;
    unmount();
    return { facts, title };
  }

  it('shows what the call cost beside its tokens', async () => {
    const { facts, title } = await figures({ costUsd: 0.0042 });
    expect(facts).toEqual({
      Model: 'OpenAI · my-fine-tune',
      Retries: 'No retries',
      'Prompt tokens': (1200).toLocaleString(),
      'Completion tokens': '80',
      Cost: '$0.0042',
    });
    expect(title).toBeNull();
  });

  it('says the cost is unknown, naming the model without a price', async () => {
    const { facts, title } = await figures({ costUsd: null, unpricedModels: ['my-fine-tune'] });
    expect(facts.Cost).toBe('UnknownNo price for my-fine-tune');
    expect(title).toBe('No price for my-fine-tune');
  });

  it('leaves the cost out for a step without a cost figure (older runs)', async () => {
    expect((await figures({})).facts).not.toHaveProperty('Cost');
    expect((await figures()).facts).not.toHaveProperty('Cost');
  });
});

describe('the step inspector', () => {
  it("shows a condition's branches, each expression's value, and the branch taken", async () => {
    const user = userEvent.setup();
    render(
      <StepInspector
        evaluation={condition}
        data={{ branch: 'urgent' }}
        branches={[
          { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
          { id: 'urgent', label: 'Urgent', when: 'nodes.classify.data.urgent' },
          { id: 'refund', label: 'Refund', when: 'input.refund' },
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: /Inspect step/ }));
    const rows = screen.getAllByTestId('step-branch');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Billingfalsenodes.classify.data.category == "billing"',
      'UrgenttrueTakennodes.classify.data.urgent',
      'Refundnot evaluatedinput.refund',
      'ElseWhen no branch above is true.',
    ]);
    expect(rows[1]?.dataset.taken).toBe('true');
    expect(screen.getByTestId('step-branch-taken').textContent).toBe('Branch taken: Urgent');
    // A condition calls no model: no model, messages or answer.
    expect(screen.queryByText('Messages')).toBeNull();
  });

  it("shows a step's data as a tree that folds open and shut from the keyboard", async () => {
    const user = userEvent.setup();
    const data = {
      category: 'billing',
      urgent: true,
      score: 0.92,
      customer: { name: 'Ada', orders: [{ id: 7, total: 12.5 }] },
      tags: [],
      note: null,
    };
    render(<StepInspector data={data} />);
    await user.click(screen.getByRole('button', { name: /Inspect step/ }));
    const tree = screen.getByRole('group', { name: 'Step data' });
    // The top two levels are open: values by type, lists and objects with their size.
    expect(within(tree).getByText('"billing"')).toBeTruthy();
    expect(within(tree).getByText('true')).toBeTruthy();
    expect(within(tree).getByText('0.92')).toBeTruthy();
    expect(within(tree).getByText('null')).toBeTruthy();
    expect(within(tree).getByText('empty list')).toBeTruthy();
    expect(within(tree).getByText('"Ada"')).toBeTruthy();
    const orders = within(tree).getByRole('button', { name: /orders:/ });
    expect(orders.getAttribute('aria-expanded')).toBe('true');
    const order = within(tree).getByRole('button', { name: /0:/ });
    // The third level starts folded.
    expect(order.getAttribute('aria-expanded')).toBe('false');
    expect(within(tree).queryByText('12.5')).toBeNull();
    order.focus();
    await user.keyboard('{Enter}');
    expect(order.getAttribute('aria-expanded')).toBe('true');
    expect(within(tree).getByText('12.5')).toBeTruthy();
    // Folding a level hides what is under it.
    orders.focus();
    await user.keyboard(' ');
    expect(orders.getAttribute('aria-expanded')).toBe('false');
    expect(within(tree).queryByText('12.5')).toBeNull();
  });

  it('shows a long list a page at a time', async () => {
    const user = userEvent.setup();
    render(<StepInspector data={Array.from({ length: 120 }, (_, index) => index * 10)} />);
    await user.click(screen.getByRole('button', { name: /Inspect step/ }));
    const tree = screen.getByRole('group', { name: 'Step data' });
    expect(within(tree).getAllByTestId('data-tree-value')).toHaveLength(50);
    await user.click(within(tree).getByRole('button', { name: 'Show 50 more of 120' }));
    expect(within(tree).getAllByTestId('data-tree-value')).toHaveLength(100);
    await user.click(within(tree).getByRole('button', { name: 'Show 20 more of 120' }));
    expect(within(tree).getAllByTestId('data-tree-value')).toHaveLength(120);
    expect(within(tree).getByText('1190')).toBeTruthy();
  });

  it("lists a transform's values as name = value, and shows nothing for a step with nothing to inspect", async () => {
    const user = userEvent.setup();
    const { container, rerender } = render(
      <StepInspector
        evaluation={{
          kind: 'transform',
          evaluated: [{ name: 'total', expression: 'nodes.cart.data.sum * 2', value: 24 }],
          result: { total: 24 },
        }}
      />,
    );
    await user.click(screen.getByRole('button', { name: /Inspect step/ }));
    expect(screen.getByTestId('step-assignment').textContent).toBe('total = 24nodes.cart.data.sum * 2');
    rerender(<StepInspector />);
    expect(container.textContent).toBe('');
  });

  it("shows a Code step's console lines, the first 20 until asked for all, and its result", async () => {
    const user = userEvent.setup();
    const logs = ['items 3', ...Array.from({ length: 24 }, (_, i) => `line ${i + 2}`)];
    const { rerender } = render(
      <StepInspector
        kind="code"
        evaluation={{ kind: 'code', evaluated: [], result: { total: 6 }, logs }}
        data={{ total: 6 }}
      />,
    );
    await user.click(screen.getByRole('button', { name: /Inspect step/ }));
    expect(screen.getByRole('heading', { name: 'Console' })).toBeTruthy();
    const lines = screen.getByRole('list', { name: 'Console lines' });
    expect(within(lines).getAllByRole('listitem')).toHaveLength(20);
    expect(within(lines).getAllByRole('listitem')[0]!.textContent).toBe('items 3');
    await user.click(screen.getByRole('button', { name: 'Show all 25 lines' }));
    expect(within(lines).getAllByRole('listitem')).toHaveLength(25);
    // No 'Evaluated' list for code: its result is the data.
    expect(screen.queryByText('Nothing was evaluated.')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Result' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Step data' }).textContent).toContain('6');

    rerender(
      <StepInspector
        kind="code"
        evaluation={{ kind: 'code', evaluated: [], result: null, logs: [] }}
        data={null}
      />,
    );
    expect(screen.getByText('Nothing was logged.')).toBeTruthy();
  });
});
