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

/** The centered page-level spinner shown while the session or a lazy page loads. */
export function FullPageSpinner({ className }: { className?: string }) {
  return (
    <div
      role="status"
      aria-label="Loading"
      aria-live="polite"
      className={cn('flex min-h-[60svh] w-full items-center justify-center', className)}
    >
      <LoaderCircle className="size-8 animate-spin text-primary" aria-hidden="true" />
    </div>
  );
}
