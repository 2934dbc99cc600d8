// A secret the server shows once (an API key, an invitation link): read-only, selected on focus and
// with a copy button, over a line that says how long it works.
import type { ReactNode } from 'react';

import { CopyButton } from '@/components/copy-button';
import { Input } from '@/components/ui/input';

export function ShownOnceField({
  id,
  label,
  value,
  copyLabel,
  children,
}: {
  id: string;
  label: string;
  value: string;
  /** What the copy button names ('Copy {copyLabel}'). */
  copyLabel: string;
  /** The line under the field. */
  children: ReactNode;
}) {
  return (
    <div className="grid min-w-0 gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex min-w-0 items-center gap-1">
        <Input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
          className="font-mono text-xs"
        />
        <CopyButton value={value} label={copyLabel} size="md" />
      </div>
      <p className="text-xs text-muted-foreground">{children}</p>
    </div>
  );
}
