import { Waypoints } from 'lucide-react';

import { cn } from '@/lib/utils';

export const BRAND_NAME = 'Crewline';

/** The Crewline mark: the waypoints glyph on a violet-to-indigo tile. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'grid size-8 shrink-0 place-items-center rounded-lg bg-linear-to-br from-violet-600 to-indigo-500 text-white shadow-sm shadow-indigo-500/30',
        className,
      )}
    >
      <Waypoints className="size-4.5" />
    </span>
  );
}

/** Mark + wordmark. Wrap it in a Link where it should navigate. */
export function Brand({ className }: { className?: string }) {
  return (
    <span
      className={cn('inline-flex items-center gap-2 font-semibold tracking-tight text-foreground', className)}
    >
      <BrandMark />
      <span className="text-lg">{BRAND_NAME}</span>
    </span>
  );
}
