import type { OrganizationBudget, Session } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { clearStoredAuth, setAuthToken } from '@/lib/auth-token';
import { useOrganizationBudget } from '@/lib/queries/organization-budget';
import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';
import { aSession } from '@/testing/session';

import { BudgetBanner } from './budget-banner';

const session = aSession({ id: 'org-1', plan: 'starter' });

const budget = (patch: Partial<OrganizationBudget>): OrganizationBudget => ({
  month: '2026-12',
  monthlyCapUsd: 50,
  spentThisMonthUsd: 10,
  state: 'ok',
  includedSpend: { capUsd: null, spentUsd: 0, state: 'ok' },
  ...patch,
});

/** Says when the budget has been read: the banner has rendered what it read by then. */
function Read() {
  return useOrganizationBudget().data ? <p>read</p> : null;
}

/** The banner of a signed-in member whose organization's budget stands at `answer`, once read. */
async function showBanner(answer: OrganizationBudget) {
  server.use(
    answerGet<Session>('/api/auth/me', session),
    answerGet<OrganizationBudget>('/api/organization/budget', answer),
  );
  renderWithApp(
    <>
      <BudgetBanner />
      <Read />
    </>,
  );
  await screen.findByText('read');
}

beforeEach(() => setAuthToken('token-1'));
afterEach(() => clearStoredAuth());

describe('the budget banner above every page', () => {
  it('says the organization’s budget is spent, and links to where it is raised', async () => {
    await showBanner(budget({ monthlyCapUsd: 50, spentThisMonthUsd: 50.2, state: 'exceeded' }));
    const line = await screen.findByRole('alert');
    expect(line.textContent).toBe(
      "Your organization's monthly budget is spent ($50.20 of $50.00). New runs and model calls are refused until next month or until an owner or admin raises it in Settings → Costs.",
    );
    expect(within(line).getByRole('link', { name: 'Settings → Costs' }).getAttribute('href')).toBe(
      '/settings/profile?tab=costs',
    );
  });

  it('warns from 80 % of the cap', async () => {
    await showBanner(budget({ monthlyCapUsd: 50, spentThisMonthUsd: 41, state: 'warning' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Your organization has spent $41.00 of its $50.00 monthly budget (80 % or more).',
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says when the plan's included spend on Crewline's keys is used up, with the organization's warning", async () => {
    await showBanner(
      budget({
        monthlyCapUsd: 50,
        spentThisMonthUsd: 45,
        state: 'warning',
        includedSpend: { capUsd: 1, spentUsd: 1.0042, state: 'exceeded' },
      }),
    );
    const plan = await screen.findByRole('alert');
    expect(plan.textContent).toBe(
      "Your plan's included model spend on Crewline's keys is used up ($1.00 of $1.00). Add your own API key in Settings → Tools, or upgrade your plan.",
    );
    expect(within(plan).getByRole('link', { name: 'Settings → Tools' }).getAttribute('href')).toBe(
      '/settings/profile?tab=tools',
    );
    expect(within(plan).getByRole('link', { name: 'upgrade your plan' }).getAttribute('href')).toBe(
      '/subscribe',
    );
    expect(screen.getByRole('status').textContent).toMatch(
      /^Your organization has spent \$45\.00 of its \$50\.00/,
    );
  });

  it('shows nothing while all is well', async () => {
    await showBanner(budget({ monthlyCapUsd: 50, spentThisMonthUsd: 10, state: 'ok' }));
    expect(screen.queryByTestId('budget-banner')).toBeNull();
  });

  it('shows nothing without a cap, whatever was spent', async () => {
    await showBanner(budget({ monthlyCapUsd: null, spentThisMonthUsd: 900, state: 'ok' }));
    expect(screen.queryByTestId('budget-banner')).toBeNull();
  });
});
