// A workflow's budget in the builder (issue 37, docs/product-rules.md, Costs): the Settings tab's
// fields as typed, the `config.budget` they make (an empty field is no limit, its key left out), and
// the contract's messages about them. The server checks the budget again and names what it refuses.
import { budgetOnExceededValues, workflowBudgetSchema, type WorkflowBudget } from '@crewline/contracts';

export type BudgetOnExceeded = (typeof budgetOnExceededValues)[number];
export const BUDGET_ON_EXCEEDED = budgetOnExceededValues;

export const BUDGET_ON_EXCEEDED_LABELS: Record<BudgetOnExceeded, string> = {
  fail: 'Fail the run',
  approval: 'Ask for approval to go on',
};

/** The budget's limits with the Settings tab's labels, in its order. */
export const BUDGET_LIMITS = [
  { key: 'maxCostPerRunUsd', label: 'Max cost per run (USD)' },
  { key: 'maxTokensPerRun', label: 'Max tokens per run' },
  { key: 'monthlyCapUsd', label: 'Monthly cap (USD)' },
] as const;
type BudgetLimit = (typeof BUDGET_LIMITS)[number]['key'];

export const BUDGET_ON_EXCEEDED_LABEL = 'When a run reaches its budget';

/** The fields as typed: figures are text until saved; '' is no limit (and, for onExceeded, not chosen). */
export type BudgetDraft = Record<BudgetLimit, string> & { onExceeded: BudgetOnExceeded | '' };

export const EMPTY_BUDGET_DRAFT: BudgetDraft = {
  maxCostPerRunUsd: '',
  maxTokensPerRun: '',
  monthlyCapUsd: '',
  onExceeded: '',
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** A workflow's `config` in two: its budget as the fields show it, and every other key, kept as it is. */
export function splitConfig(config: Record<string, unknown> | undefined): {
  budget: BudgetDraft;
  otherConfig: Record<string, unknown>;
} {
  const { budget, ...otherConfig } = config ?? {};
  const saved = isRecord(budget) ? budget : {};
  const figure = (value: unknown) =>
    typeof value === 'number' || typeof value === 'string' ? String(value) : '';
  return {
    budget: {
      maxCostPerRunUsd: figure(saved.maxCostPerRunUsd),
      maxTokensPerRun: figure(saved.maxTokensPerRun),
      monthlyCapUsd: figure(saved.monthlyCapUsd),
      onExceeded: BUDGET_ON_EXCEEDED.find((value) => value === saved.onExceeded) ?? '',
    },
    otherConfig,
  };
}

/** A typed figure as a number; what is not one stays text, so the check names the problem. */
function figureOf(text: string): number | string {
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}

/**
 * The `config.budget` of the fields: only the filled ones, figures as numbers; undefined when none is
 * filled (no budget at all). A figure that is not a number stays text: `budgetProblems` names it.
 */
export function budgetOf(draft: BudgetDraft): WorkflowBudget | undefined {
  const budget: Record<string, unknown> = {};
  for (const { key } of BUDGET_LIMITS) {
    const text = draft[key].trim();
    if (text !== '') budget[key] = figureOf(text);
  }
  if (draft.onExceeded) budget.onExceeded = draft.onExceeded;
  return Object.keys(budget).length > 0 ? (budget as WorkflowBudget) : undefined;
}

/** The workflow's `config` to save: its other keys as they were, with the budget of the fields. */
export function configOf(otherConfig: Record<string, unknown>, draft: BudgetDraft): Record<string, unknown> {
  const budget = budgetOf(draft);
  return budget ? { ...otherConfig, budget } : { ...otherConfig };
}

/** The contract's message for each field it refuses (the first one per field); empty when all is well. */
export function budgetProblems(draft: BudgetDraft): Partial<Record<keyof BudgetDraft, string>> {
  const checked = workflowBudgetSchema.safeParse(budgetOf(draft) ?? {});
  if (checked.success) return {};
  const problems: Partial<Record<keyof BudgetDraft, string>> = {};
  for (const issue of checked.error.issues) {
    const field = issue.path[0] as keyof BudgetDraft;
    problems[field] ??= issue.message;
  }
  return problems;
}
