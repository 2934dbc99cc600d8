// One of a few options, as radio buttons with a line under each (who decides an approval, its policy,
// how a delay waits); an option's `extra` fields show under it while it is chosen (a quorum's number).
import { useId, type ReactNode } from 'react';

import { cn } from '@/lib/utils';

export function ChoiceGroup<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string; hint?: string; extra?: ReactNode }[];
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <fieldset className="space-y-1.5">
      <legend className="mb-1.5 text-sm leading-none font-medium">{label}</legend>
      {options.map((option) => {
        const checked = option.value === value;
        const id = `${name}-${option.value}`;
        return (
          <div
            key={option.value}
            className={cn(
              'rounded-lg border px-2.5 py-2 transition-colors',
              checked ? 'border-primary/50 bg-primary/5' : 'hover:bg-accent/50',
            )}
          >
            <div className="flex items-start gap-2">
              <input
                id={id}
                type="radio"
                name={name}
                value={option.value}
                checked={checked}
                onChange={() => onChange(option.value)}
                className="mt-0.5 size-4 shrink-0 accent-primary"
                aria-describedby={option.hint ? `${id}-hint` : undefined}
              />
              <div className="min-w-0 flex-1">
                <label htmlFor={id} className="block cursor-pointer text-sm">
                  {option.label}
                </label>
                {option.hint && (
                  <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                    {option.hint}
                  </p>
                )}
              </div>
            </div>
            {checked && option.extra && <div className="mt-2 space-y-2 pl-6">{option.extra}</div>}
          </div>
        );
      })}
    </fieldset>
  );
}
