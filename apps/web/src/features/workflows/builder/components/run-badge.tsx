// A step's live mark on the canvas in the run in progress (or the last run), and the ring around it.
import { Check, Hourglass, X } from 'lucide-react';

import { formatMilliseconds } from '@/lib/format';
import { stepCostText } from '@/features/runs/execution-facts';
import { cn } from '@/lib/utils';

import type { NodeRunState, NodeRunStatus } from '../run-progress';

export const RUN_RING: Record<NodeRunStatus, string> = {
  running: 'shadow-md shadow-blue-500/20 ring-2 ring-blue-500/70',
  completed: 'ring-2 ring-emerald-500/60',
  failed: 'ring-2 ring-red-500/70',
  // Waiting for a decision or a time: its own colour, no motion (it may wait for days).
  waiting: 'ring-2 ring-violet-500/70',
};

/** A node the run did not take (its path was not chosen): greyed, with this mark instead of a state. */
export const SKIPPED_LOOK = 'opacity-50 grayscale';

export function SkippedBadge() {
  return (
    <span
      data-testid="node-run-status"
      title="Not run: its path was not taken"
      className="absolute -top-2.5 right-3 rounded-full border bg-muted px-2 py-0.5 text-[10px] leading-none font-semibold text-muted-foreground shadow-sm"
    >
      Skipped
    </span>
  );
}

const WAITING_BADGE =
  'border-violet-500/30 bg-violet-50 text-violet-700 dark:bg-violet-950 dark:text-violet-300';

/**
 * The live mark of a node in the run in progress (or the last run): Running, Done with its time (and
 * its cost once the run's details are read: `costUsd`, null when its model had no price), Failed.
 */
export function RunBadge({ run, costUsd }: { run: NodeRunState; costUsd?: number | null }) {
  if (run.status === 'waiting')
    return (
      <span
        data-testid="node-run-status"
        data-status="waiting"
        title="The run waits here: for a decision, or until its time"
        className={cn(
          'absolute -top-2.5 right-3 flex items-center gap-1 rounded-full border px-2 py-0.5 text-[10px] leading-none font-semibold shadow-sm',
          WAITING_BADGE,
        )}
      >
        <Hourglass className="size-3" aria-hidden="true" />
        Waiting
      </span>
    );
  const time = run.status === 'completed' ? formatMilliseconds(run.executionTime) : null;
  const tokens = run.totalTokens ? `, ${run.totalTokens} tokens` : '';
  const cost = run.status === 'completed' ? stepCostText(costUsd) : null;
  return (
    <span
      data-testid="node-run-status"
      title={
        run.status === 'completed'
          ? `Finished${time ? ` in ${time}` : ''}${tokens}${cost ? `, ${cost}` : ''}`
          : run.status === 'running'
            ? 'Running now'
            : 'The run failed at this agent'
      }
      className={cn(
        'absolute -top-2.5 right-3 flex items-center gap-1 rounded-full border px-2 py-0.5 text-[10px] leading-none font-semibold shadow-sm',
        run.status === 'running' &&
          'border-blue-500/30 bg-blue-50 text-blue-700 dark:bg-blue-950 dark:text-blue-300',
        run.status === 'completed' &&
          'border-emerald-500/30 bg-emerald-50 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300',
        run.status === 'failed' &&
          'border-red-500/30 bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300',
      )}
    >
      {run.status === 'running' && (
        <span className="relative flex size-1.5" aria-hidden="true">
          <span className="absolute inline-flex size-full rounded-full bg-blue-500 opacity-75 motion-safe:animate-ping" />
          <span className="relative inline-flex size-1.5 rounded-full bg-blue-500" />
        </span>
      )}
      {run.status === 'completed' && <Check className="size-3" aria-hidden="true" />}
      {run.status === 'failed' && <X className="size-3" aria-hidden="true" />}
      {run.status === 'running'
        ? 'Running'
        : run.status === 'completed'
          ? `Done${time ? ` · ${time}` : ''}${cost ? ` · ${cost}` : ''}`
          : 'Failed'}
    </span>
  );
}
