// A step still running, in a run view: its agent and the answer as the model writes it. The stored
// answer replaces it when the step ends (the view re-reads the run then).
import { Bot } from 'lucide-react';

import { Spinner } from '@/components/spinner';

import type { RunStep } from '@/lib/runs/run-state';

/** `name`: the step's agent (the run view knows it when the step's started event was not heard). */
export function LiveStepCard({ step, name }: { step: RunStep; name: string }) {
  return (
    <li className="overflow-hidden rounded-lg border border-blue-500/30" data-testid="live-step">
      <div className="flex flex-wrap items-center gap-2 bg-blue-500/5 px-3 py-2 text-xs">
        <span className="grid size-6 shrink-0 place-items-center rounded-md bg-blue-500/10 text-blue-700 dark:text-blue-300">
          <Bot className="size-3.5" aria-hidden="true" />
        </span>
        <span className="truncate text-sm font-medium" data-testid="live-step-name">
          {name}
        </span>
        <span className="inline-flex items-center gap-1.5 text-blue-700 dark:text-blue-300">
          <Spinner className="size-3" />
          {step.text ? 'Writing…' : 'Thinking…'}
        </span>
      </div>
      {/* Not a live region: ten updates a second would drown a screen reader; the stored answer is announced with the run. */}
      <div
        className="max-h-80 overflow-y-auto px-3 py-2.5 text-sm leading-relaxed break-words whitespace-pre-wrap"
        aria-busy="true"
        data-testid="live-step-text"
      >
        {step.text || <span className="text-muted-foreground">Waiting for the model’s first words…</span>}
        {step.text && (
          <span
            className="ml-0.5 inline-block h-[1em] w-1.5 translate-y-0.5 bg-foreground/60 motion-safe:animate-pulse"
            aria-hidden="true"
          />
        )}
      </div>
    </li>
  );
}
