import {
  budgetMessages,
  budgetState,
  type OrganizationBudget,
  type UpdateOrganizationBudget,
} from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { BUDGET_HELP, BUDGET_READ_ONLY } from '../budget';
import { BudgetCard } from './budget-card';

const URL = '/api/organization/budget';
const noIncluded = { capUsd: null, spentUsd: 0, state: 'ok' } as const;

/** The server's budget: `spent` this month against the cap PUT sets; each PUT body is pushed onto `sent`. */
function budgetServer(
  start: { capUsd: number | null; spentUsd: number; included?: OrganizationBudget['includedSpend'] },
  sent: UpdateOrganizationBudget[] = [],
) {
  let cap = start.capUsd;
  const budget = (): OrganizationBudget => ({
    month: '2026-12',
    monthlyCapUsd: cap,
    spentThisMonthUsd: start.spentUsd,
    state: budgetState(start.spentUsd, cap),
    includedSpend: start.included ?? noIncluded,
  });
  server.use(
    http.get(`${ORIGIN}${URL}`, () => HttpResponse.json(budget())),
    http.put(`${ORIGIN}${URL}`, async ({ request }) => {
      const body = (await request.json()) as UpdateOrganizationBudget;
      sent.push(body);
      if (body.monthlyCapUsd === 999)
        return HttpResponse.json({ message: 'The budget could not be saved' }, { status: 500 });
      cap = body.monthlyCapUsd;
      return HttpResponse.json(budget());
    }),
  );
}

const card = () => screen.findByTestId('budget-card');
const spend = async () => within(await card()).findByText(/^Spent this month/);

describe('the monthly budget (Settings → Costs)', () => {
  it('shows a member the month’s spend against the cap, coloured by how far in it is, and no way to change it', async () => {
    budgetServer({
      capUsd: 50,
      spentUsd: 42.5,
      included: { capUsd: 10, spentUsd: 3.2, state: 'ok' },
    });
    renderWithApp(<BudgetCard manager={false} />);

    expect((await spend()).textContent).toBe('Spent this month: $42.50 of $50.00');
    expect(screen.getByText('Monthly budget')).toBeTruthy();
    expect(screen.getByText(BUDGET_HELP)).toBeTruthy();
    // 85 %: the warning state, amber.
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-label')).toBe('Spent this month: $42.50 of $50.00 (85 %)');
    expect(bar.closest('[data-budget-state]')?.getAttribute('data-budget-state')).toBe('warning');
    expect(
      screen.getByText("Included with your plan on Crewline's model keys: $3.20 of $10.00 used this month."),
    ).toBeTruthy();
    expect(screen.getByText(BUDGET_READ_ONLY)).toBeTruthy();
    expect(screen.queryByLabelText('Monthly cap (USD)')).toBeNull();
    expect(screen.queryByRole('button', { name: /Save|Remove cap/ })).toBeNull();
  });

  it('says when there is no cap, and nothing of included spend when the server has no key', async () => {
    budgetServer({ capUsd: null, spentUsd: 1.25 });
    renderWithApp(<BudgetCard manager={false} />);
    expect((await spend()).textContent).toBe('Spent this month: $1.25 — no cap');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByText(/Included with your plan/)).toBeNull();
  });

  it('lets an admin set a cap, names a wrong one before sending it, then remove the cap', async () => {
    const sent: UpdateOrganizationBudget[] = [];
    budgetServer({ capUsd: null, spentUsd: 12 }, sent);
    const user = userEvent.setup();
    renderWithApp(
      <>
        <BudgetCard manager />
        <Toaster />
      </>,
    );
    const cap = (await within(await card()).findByLabelText('Monthly cap (USD)')) as HTMLInputElement;
    expect(cap.value).toBe('');
    // No cap yet: nothing to remove.
    expect(screen.queryByRole('button', { name: 'Remove cap' })).toBeNull();

    await user.type(cap, '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(budgetMessages.positive)).toBeTruthy();
    expect(cap.getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);

    await user.clear(cap);
    await user.type(cap, '12.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Monthly cap saved')).toBeTruthy();
    expect(sent).toEqual([{ monthlyCapUsd: 12.5 }]);
    // $12 of $12.50 is 96 %: the warning state; the field holds the saved cap.
    await waitFor(async () => expect((await spend()).textContent).toBe('Spent this month: $12.00 of $12.50'));
    expect(
      screen.getByRole('progressbar').closest('[data-budget-state]')?.getAttribute('data-budget-state'),
    ).toBe('warning');
    expect((screen.getByLabelText('Monthly cap (USD)') as HTMLInputElement).value).toBe('12.5');

    await user.click(screen.getByRole('button', { name: 'Remove cap' }));
    expect(await screen.findByText('Monthly cap removed')).toBeTruthy();
    expect(sent.at(-1)).toEqual({ monthlyCapUsd: null });
    await waitFor(async () => expect((await spend()).textContent).toBe('Spent this month: $12.00 — no cap'));
    expect((screen.getByLabelText('Monthly cap (USD)') as HTMLInputElement).value).toBe('');
  });

  it('shows a spent cap in red, and the server’s refusal in the card', async () => {
    budgetServer({ capUsd: 10, spentUsd: 10.4 });
    const user = userEvent.setup();
    renderWithApp(<BudgetCard manager />);
    expect((await spend()).textContent).toBe('Spent this month: $10.40 of $10.00');
    expect(
      screen.getByRole('progressbar').closest('[data-budget-state]')?.getAttribute('data-budget-state'),
    ).toBe('exceeded');

    const cap = screen.getByLabelText('Monthly cap (USD)') as HTMLInputElement;
    expect(cap.value).toBe('10');
    await user.clear(cap);
    await user.type(cap, '999');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The budget could not be saved');
    expect(cap.value).toBe('999');
  });
});
