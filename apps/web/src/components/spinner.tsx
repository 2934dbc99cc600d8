import { LoaderCircle } from 'lucide-react';

import { cn } from '@/lib/utils';

/** An animated busy indicator. Decorative by default; give it a `label` to announce it. */
export function Spinner({ className, label }: { className?: string; label?: string }) {
  return (
    <LoaderCircle
      className={cn('size-4 animate-spin', className)}
      aria-hidden={label ? undefined : true}
      aria-label={label}
      role={label ? 'img' : undefined}
    />
  );
}
