// What Settings → Costs says of the organization's monthly budget, and how its field becomes a
// PUT /api/organization/budget body. The server checks the amount again and names what it refuses.
import type { BudgetState, OrganizationBudget } from '@crewline/contracts';

import { formatCost } from '@/lib/format';

export const BUDGET_HELP =
  'Cap what your organization spends on models each calendar month (UTC). Owners and admins are alerted at 80 %; at 100 % new runs and model calls are refused until next month or until the cap is raised.';
export const BUDGET_READ_ONLY = 'Only owners and admins can change the monthly budget.';

/** 'Spent this month: $12.40 of $50.00', or '… — no cap' without one. */
export function spentLine(budget: Pick<OrganizationBudget, 'spentThisMonthUsd' | 'monthlyCapUsd'>): string {
  const spent = formatCost(budget.spentThisMonthUsd);
  return budget.monthlyCapUsd === null
    ? `Spent this month: ${spent} — no cap`
    : `Spent this month: ${spent} of ${formatCost(budget.monthlyCapUsd)}`;
}

/** The plan's included spend on Crewline's keys; null when the server has no key of its own. */
export function includedLine(included: OrganizationBudget['includedSpend']): string | null {
  if (included.capUsd === null) return null;
  return `Included with your plan on Crewline's model keys: ${formatCost(included.spentUsd)} of ${formatCost(included.capUsd)} used this month.`;
}

/** How full a cap is, 0–100 (a bar's value). */
export function capPercent(spentUsd: number, capUsd: number): number {
  return capUsd > 0 ? Math.min(100, (spentUsd / capUsd) * 100) : 100;
}

/** The bar's and the figure's colour for each state: amber from 80 %, red at 100 %. */
export const BUDGET_TONE: Record<BudgetState, { bar: string; text: string }> = {
  ok: { bar: '', text: 'text-muted-foreground' },
  warning: {
    bar: '[&_[data-slot=progress-indicator]]:bg-amber-500',
    text: 'font-medium text-amber-700 dark:text-amber-400',
  },
  exceeded: {
    bar: '[&_[data-slot=progress-indicator]]:bg-destructive',
    text: 'font-medium text-destructive',
  },
};

/** The cap as typed: a number, or the text itself when it is none, so the check names the problem. */
export function capFigure(text: string): number | string {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed !== '' && Number.isFinite(value) ? value : trimmed;
}

/** The field's text for a cap: '' for none. */
export const capText = (capUsd: number | null): string => (capUsd === null ? '' : String(capUsd));
