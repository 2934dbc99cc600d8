import type { ReactNode } from 'react';

import { CopyButton } from '@/components/copy-button';

/** One label/value row of a details list (`<dl>`). */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-[10rem_minmax(0,1fr)] sm:items-center sm:gap-4">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1 text-sm font-medium">{children}</dd>
    </div>
  );
}

export function IdValue({ value, label }: { value: string; label: string }) {
  return (
    <>
      <code className="truncate rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{value}</code>
      <CopyButton value={value} label={label} />
    </>
  );
}
