// The canvas summary of the run shown on the nodes: in progress with a count, or how the last run
// ended, with a button to hide the marks.
import { CircleCheck, CircleSlash, CircleX, X } from 'lucide-react';

import { cn } from '@/lib/utils';

import { summarizeRun, useRunProgressStore } from '../run-progress';

export function RunProgressPanel() {
  const status = useRunProgressStore((s) => s.status);
  const error = useRunProgressStore((s) => s.error);
  const nodes = useRunProgressStore((s) => s.nodes);
  const executionId = useRunProgressStore((s) => s.executionId);
  const clear = useRunProgressStore((s) => s.clear);
  if (!status) return null;

  const { running, completed, failed } = summarizeRun({ nodes });
  const done = `${completed} agent${completed === 1 ? '' : 's'} done`;
  let text: string;
  switch (status) {
    case 'running':
      text = running > 0 ? `Run in progress · ${done}, ${running} running` : `Run in progress · ${done}`;
      break;
    case 'completed':
      text = `Last run completed · ${done}`;
      break;
    case 'failed':
      text = `Last run failed${failed > 0 ? ' at the marked agent' : ''}${error ? `: ${error}` : ''}`;
      break;
    case 'cancelled':
      text = `Last run cancelled · ${done}`;
      break;
  }

  return (
    <div
      data-testid="run-progress"
      data-run-status={status}
      className={cn(
        'flex max-w-[min(34rem,calc(100vw-2rem))] items-center gap-2 rounded-full border bg-card py-1.5 pr-1.5 pl-3 text-xs shadow-md',
        status === 'failed' && 'border-red-500/30',
      )}
    >
      {status === 'running' && (
        <span className="relative flex size-2 shrink-0" aria-hidden="true">
          <span className="absolute inline-flex size-full rounded-full bg-blue-500 opacity-75 motion-safe:animate-ping" />
          <span className="relative inline-flex size-2 rounded-full bg-blue-500" />
        </span>
      )}
      {status === 'completed' && (
        <CircleCheck className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      )}
      {status === 'failed' && (
        <CircleX className="size-4 shrink-0 text-red-600 dark:text-red-400" aria-hidden="true" />
      )}
      {status === 'cancelled' && (
        <CircleSlash className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      )}
      <span role="status" className="min-w-0 truncate" title={text}>
        {text}
      </span>
      {executionId && (
        <span
          className="hidden shrink-0 font-mono text-muted-foreground sm:inline"
          title={`Execution ${executionId}`}
        >
          {executionId.slice(0, 8)}
        </span>
      )}
      <button
        type="button"
        onClick={clear}
        aria-label="Hide run progress"
        title="Hide run progress"
        className="grid size-6 shrink-0 place-items-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground"
      >
        <X className="size-3.5" aria-hidden="true" />
      </button>
    </div>
  );
}
