import { budgetMessages } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';

import { agentFixture, openBuilder, workflowFixture } from '@/testing/builder';

const workflow = (config: Record<string, unknown>) =>
  workflowFixture({
    name: 'Weekly report',
    nodes: [
      { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
      { id: 'n1', type: 'agent', agentId: 'a1', position: { x: 100, y: 250 }, data: { label: 'Researcher' } },
      { id: 'end', type: 'end', position: { x: 100, y: 400 }, data: { label: 'End' } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'end' },
    ],
    config,
  });
const agents = [agentFixture({ id: 'a1', name: 'Researcher', role: 'Researches', goal: 'Facts' })];

beforeAll(() => {
  // Radix's Select reaches for pointer capture and scrolling, which the DOM here lacks.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

async function openBudget(config: Record<string, unknown>) {
  const opened = await openBuilder({ workflow: workflow(config), agents });
  await opened.user.click(screen.getByRole('tab', { name: 'Settings' }));
  const section = await screen.findByRole('region', { name: 'Budget' });
  const field = (label: string) => within(section).getByLabelText(label) as HTMLInputElement;
  return { ...opened, section, field };
}

describe("the builder's Budget section (Settings tab)", () => {
  it('shows the saved budget, names a wrong figure and saves nothing until it is right, then keeps the other config keys', async () => {
    const { sent, user, section, field } = await openBudget({
      budget: { monthlyCapUsd: 20 },
      retries: 2,
    });
    expect(field('Monthly cap (USD)').value).toBe('20');
    expect(field('Max cost per run (USD)').value).toBe('');
    expect(field('Max tokens per run').value).toBe('');

    // Wrong figures: the contract's words under each field, as typed.
    await user.type(field('Max cost per run (USD)'), '0');
    await user.type(field('Max tokens per run'), '1.5');
    expect(await within(section).findByText(budgetMessages.positive)).toBeTruthy();
    expect(within(section).getByText(budgetMessages.tokens)).toBeTruthy();
    expect(field('Max cost per run (USD)').getAttribute('aria-invalid')).toBe('true');
    expect(field('Monthly cap (USD)').getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));

    // Put right (the per-run cost emptied: no limit), the run asks for approval past its budget.
    await user.clear(field('Max cost per run (USD)'));
    await user.clear(field('Max tokens per run'));
    await user.type(field('Max tokens per run'), '5000');
    expect(within(section).queryByText(budgetMessages.positive)).toBeNull();
    await user.click(within(section).getByLabelText('When a run reaches its budget'));
    await user.click(await screen.findByRole('option', { name: 'Ask for approval to go on' }));
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.config).toEqual({
      retries: 2,
      budget: { maxTokensPerRun: 5000, monthlyCapUsd: 20, onExceeded: 'approval' },
    });
  });

  it('saves no budget at all when every field is emptied', async () => {
    const { sent, user, field } = await openBudget({ budget: { maxCostPerRunUsd: 0.5 }, retries: 2 });
    expect(field('Max cost per run (USD)').value).toBe('0.5');
    await user.clear(field('Max cost per run (USD)'));
    await user.click(screen.getByRole('button', { name: /Save Draft/ }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.config).toEqual({ retries: 2 });
  });
});
