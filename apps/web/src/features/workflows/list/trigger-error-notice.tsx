import type { Workflow } from '@crewline/contracts';
import { TriangleAlert } from 'lucide-react';

import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';

/**
 * Why the workflow's schedule, webhook or email last failed to start a run (kept until a trigger
 * starts one again), on its card and in the builder. Nothing when there is no such failure.
 */
export function TriggerErrorNotice({
  error,
  className,
}: {
  error: Workflow['lastTriggerError'];
  className?: string;
}) {
  if (!error) return null;
  return (
    <div
      role="alert"
      data-testid="trigger-error"
      className={cn(
        'flex items-start gap-2 rounded-lg border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm',
        className,
      )}
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
      <div className="min-w-0 space-y-0.5">
        <p className="font-medium text-destructive">Trigger failed to start a run</p>
        <p className="break-words text-foreground/80">{error.message}</p>
        <p className="text-xs text-muted-foreground">{formatDateTime(error.at)}</p>
      </div>
    </div>
  );
}
