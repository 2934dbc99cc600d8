import { updateOrganizationBudgetSchema, type OrganizationBudget } from '@crewline/contracts';
import { Wallet } from 'lucide-react';
import { useId, useState } from 'react';

import { FormBanner } from '@/components/form-dialog-parts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { parseApiError } from '@/lib/api';
import { formatCost } from '@/lib/format';
import { useOrganizationBudget } from '@/lib/queries/organization-budget';
import { cn } from '@/lib/utils';

import { useSetBudget } from '../api/budget';
import {
  BUDGET_HELP,
  BUDGET_READ_ONLY,
  BUDGET_TONE,
  capFigure,
  capPercent,
  capText,
  includedLine,
  spentLine,
} from '../budget';

const SAVE_FAILED = 'The monthly budget could not be saved. Try again.';

/**
 * Settings → Costs: the organization's monthly cap on model spend and what this month has spent of
 * it. Admins and owners set or remove the cap; members read.
 */
export function BudgetCard({ manager }: { manager: boolean }) {
  const budget = useOrganizationBudget();
  return (
    <Card data-testid="budget-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Wallet className="size-4 text-muted-foreground" aria-hidden="true" />
          Monthly budget
        </CardTitle>
        <CardDescription>{BUDGET_HELP}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {budget.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : budget.isError ? (
          <FormBanner message="The monthly budget could not be loaded." />
        ) : (
          <>
            <Spend budget={budget.data} />
            {manager ? (
              <CapForm capUsd={budget.data.monthlyCapUsd} />
            ) : (
              <p className="text-sm text-muted-foreground">{BUDGET_READ_ONLY}</p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** This month's spend against the cap, with a bar when there is one, and the plan's included spend. */
function Spend({ budget }: { budget: OrganizationBudget }) {
  const { monthlyCapUsd: cap, spentThisMonthUsd: spent, state } = budget;
  const line = spentLine(budget);
  const included = includedLine(budget.includedSpend);
  const tone = BUDGET_TONE[cap === null ? 'ok' : state];
  return (
    <div className="grid gap-2" data-budget-state={cap === null ? 'none' : state}>
      <p className={cn('text-sm tabular-nums', tone.text)}>{line}</p>
      {cap !== null && (
        <Progress
          value={capPercent(spent, cap)}
          aria-label={`${line} (${Math.round((spent / cap) * 100)} %)`}
          className={tone.bar}
        />
      )}
      {included && (
        <p className={cn('text-sm tabular-nums', BUDGET_TONE[budget.includedSpend.state].text)}>{included}</p>
      )}
    </div>
  );
}

const CAP_PATH = 'monthlyCapUsd';

function CapForm({ capUsd }: { capUsd: number | null }) {
  const save = useSetBudget();
  const [draft, setDraft] = useState(capText(capUsd));
  // A save, or a change made elsewhere, puts the new cap in the field. (Not by remounting the form:
  // the save's own callbacks, its toast, would be lost with it.)
  const [shownCap, setShownCap] = useState(capUsd);
  if (shownCap !== capUsd) {
    setShownCap(capUsd);
    setDraft(capText(capUsd));
  }
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const id = useId();

  const send = (monthlyCapUsd: number | null) => {
    setBanner(null);
    setFieldError(null);
    save.mutate(
      { monthlyCapUsd },
      {
        onSuccess: (saved) =>
          toast(
            saved.monthlyCapUsd === null
              ? { title: 'Monthly cap removed', description: 'Model spend has no monthly cap now.' }
              : {
                  title: 'Monthly cap saved',
                  description: `Model spend is capped at ${formatCost(saved.monthlyCapUsd)} a month.`,
                },
          ),
        onError: (error) => {
          const parsed = parseApiError(error);
          const onField = parsed.errors.find((e) => e.path === CAP_PATH);
          if (onField) setFieldError(onField.message);
          else setBanner(parsed.message ?? SAVE_FAILED);
        },
      },
    );
  };

  const submit = () => {
    // The contract's own check, so a wrong amount is named before anything is sent.
    const checked = updateOrganizationBudgetSchema.safeParse({ monthlyCapUsd: capFigure(draft) });
    if (!checked.success) {
      setBanner(null);
      setFieldError(checked.error.issues[0]?.message ?? SAVE_FAILED);
      return;
    }
    send(checked.data.monthlyCapUsd);
  };

  return (
    <form
      aria-label="Monthly cap"
      className="grid gap-3 border-t pt-5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <FormBanner message={banner} />
      <div className="grid gap-2 sm:max-w-xs">
        <Label htmlFor={`${id}-cap`}>Monthly cap (USD)</Label>
        <Input
          id={`${id}-cap`}
          type="number"
          inputMode="decimal"
          step="any"
          min="0"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="No cap"
          {...(fieldError && { 'aria-invalid': true, 'aria-describedby': `${id}-cap-error` })}
        />
        {fieldError && (
          <p id={`${id}-cap-error`} className="text-sm text-destructive">
            {fieldError}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
        {capUsd !== null && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={save.isPending}
            onClick={() => send(null)}
          >
            Remove cap
          </Button>
        )}
      </div>
    </form>
  );
}
