// A labelled control of a builder section's form, with its hint and what is wrong with it.
import { useId, type ReactNode } from 'react';

import { Label } from '@/components/ui/label';

export type ControlProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A labelled control with its hint and what is wrong with it (named by aria-describedby). */
export function DescribedField({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error: string | undefined;
  children: (props: ControlProps) => ReactNode;
}) {
  const id = useId();
  const described = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        ...(described && { 'aria-describedby': described }),
        ...(error && { 'aria-invalid': true as const }),
      })}
      {error && (
        <p id={`${id}-error`} className="text-xs wrap-anywhere text-destructive">
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
