import type { BillingInterval } from '@crewline/contracts';

import { cn } from '@/lib/utils';

const OPTIONS: { value: BillingInterval; label: string }[] = [
  { value: 'month', label: 'Monthly' },
  { value: 'year', label: 'Yearly' },
];

/** Monthly or Yearly (20 % off): two radio buttons in a pill. */
export function IntervalSwitch({
  value,
  onChange,
  disabled,
  className,
}: {
  value: BillingInterval;
  onChange: (interval: BillingInterval) => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <div
      role="radiogroup"
      aria-label="Billing interval"
      className={cn('inline-flex items-center gap-1 rounded-full border bg-muted/50 p-1', className)}
    >
      {OPTIONS.map((option) => {
        const checked = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            role="radio"
            aria-checked={checked}
            disabled={disabled}
            onClick={() => onChange(option.value)}
            className={cn(
              'flex items-center gap-1.5 rounded-full px-3.5 py-1.5 text-sm font-medium text-muted-foreground transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-60',
              checked && 'bg-background text-foreground shadow-sm',
            )}
          >
            {option.label}
            {option.value === 'year' && (
              <span className="rounded-full bg-emerald-500/15 px-1.5 py-0.5 text-[11px] font-semibold text-emerald-700 dark:text-emerald-400">
                −20 %
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
