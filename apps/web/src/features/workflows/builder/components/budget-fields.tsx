// The Settings tab's Budget section: what one run may spend, and the workflow's runs in a month
// (the workflow's `config.budget`, workflow-budget.ts). Empty fields are no limit.
import { useBuilderStore } from '../store';
import {
  BUDGET_LIMITS,
  BUDGET_ON_EXCEEDED,
  BUDGET_ON_EXCEEDED_LABEL,
  BUDGET_ON_EXCEEDED_LABELS,
  budgetProblems,
} from '../workflow-budget';
import { SelectField, TextField } from './fields';

const HINTS = {
  maxCostPerRunUsd: 'What one run may spend on model calls. Empty: no limit.',
  maxTokensPerRun: 'The tokens one run may use. Empty: no limit.',
  monthlyCapUsd: "What this workflow's runs may spend together each calendar month (UTC). Empty: no cap.",
} as const;

const ON_EXCEEDED_HINT =
  'Past its per-run budget, a run fails, or waits for someone to approve going on. A monthly cap refuses new runs.';

export function BudgetFields() {
  const budget = useBuilderStore((s) => s.settings.budget);
  const setBudget = useBuilderStore((s) => s.setBudget);
  // The contract's own check, as typed: the server would refuse the same figures with the same words.
  const problems = budgetProblems(budget);

  return (
    <section aria-labelledby="workflow-budget-heading" className="space-y-4 border-t pt-4">
      <div className="space-y-1">
        <h3 id="workflow-budget-heading" className="text-sm font-semibold">
          Budget
        </h3>
        <p className="text-xs text-muted-foreground">Model spend this workflow may not pass.</p>
      </div>
      {BUDGET_LIMITS.map(({ key, label }) => (
        <TextField
          key={key}
          label={label}
          value={budget[key]}
          placeholder="No limit"
          inputMode={key === 'maxTokensPerRun' ? 'numeric' : 'decimal'}
          hint={HINTS[key]}
          error={problems[key]}
          onChange={(value) => setBudget({ [key]: value })}
        />
      ))}
      <SelectField
        label={BUDGET_ON_EXCEEDED_LABEL}
        value={budget.onExceeded || 'fail'}
        options={BUDGET_ON_EXCEEDED}
        labels={BUDGET_ON_EXCEEDED_LABELS}
        hint={ON_EXCEEDED_HINT}
        onChange={(onExceeded) => setBudget({ onExceeded })}
      />
    </section>
  );
}
