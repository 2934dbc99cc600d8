// clsx rather than cn: none of these classes overrides another, and the first screen is drawn without
// tailwind-merge (first-screen-classes.ts).
import { clsx } from 'clsx';
import { CircleCheck, Circle, Hash, LoaderCircle, Workflow } from 'lucide-react';

import { HERO_PROGRESS, heroSteps, type StepState } from '../content/hero-content';
import { firstScreenClasses } from '../first-screen-classes';
import { useDriftingValue } from '../hooks/use-drifting-value';

function StepIcon({ state }: { state: StepState }) {
  if (state === 'done') {
    return <CircleCheck className="size-5 text-emerald-600 dark:text-emerald-400" aria-label="Completed" />;
  }
  if (state === 'running') {
    return (
      <LoaderCircle
        className="size-5 animate-spin text-violet-600 motion-reduce:animate-none dark:text-violet-400"
        aria-label="Running"
      />
    );
  }
  return <Circle className="size-5 text-muted-foreground/60" aria-label="Queued" />;
}

/**
 * The run card's progress bar: the markup and ARIA attributes of the shared <Progress> (a Radix
 * progress bar), written out because this screen is drawn without Radix and tailwind-merge. The value
 * stays within HERO_PROGRESS's bounds, below 100, so the bar is always "loading".
 */
function HeroProgress({ value }: { value: number }) {
  const state = { 'data-state': 'loading', 'data-value': value, 'data-max': 100 };
  return (
    <div
      role="progressbar"
      aria-label="Workflow progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={`${Math.round(value)}%`}
      data-slot="progress"
      className="relative mt-3 h-2 w-full overflow-hidden rounded-full bg-primary/20"
      {...state}
    >
      <div
        data-slot="progress-indicator"
        className="h-full w-full flex-1 bg-primary transition-all"
        style={{ transform: `translateX(-${100 - value}%)` }}
        {...state}
      />
    </div>
  );
}

/** The hero's "live" run card: a mock workflow whose progress drifts every few seconds. */
export function HeroWorkflowCard() {
  const progress = useDriftingValue(HERO_PROGRESS);

  return (
    <div className="relative mx-auto w-full max-w-lg lg:mx-0 lg:justify-self-end">
      <div
        aria-hidden="true"
        className="absolute -inset-4 -z-10 rounded-[2rem] bg-linear-to-br from-violet-500/20 via-indigo-500/10 to-sky-500/20 blur-2xl"
      />
      <div className="rounded-2xl border border-border bg-card/90 p-5 text-card-foreground shadow-2xl shadow-indigo-500/10 backdrop-blur sm:p-6">
        <div className="flex items-start justify-between gap-4">
          <div className="flex items-center gap-3">
            <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-violet-100 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300">
              <Workflow className="size-5" aria-hidden="true" />
            </span>
            <div className="text-left">
              <p className="font-semibold text-foreground">Competitor pricing brief</p>
              <p className="text-sm text-muted-foreground">Sequential · 3 agents</p>
            </div>
          </div>
          <span data-slot="badge" className={firstScreenClasses.liveBadge}>
            <span className="relative flex size-2" aria-hidden="true">
              <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-500 opacity-60 motion-reduce:animate-none" />
              <span className="relative inline-flex size-2 rounded-full bg-emerald-500" />
            </span>
            Live
          </span>
        </div>

        <div className="mt-6">
          <div className="flex items-end justify-between">
            <p className="text-sm font-medium text-muted-foreground">Workflow progress</p>
            <p className="text-3xl font-semibold tracking-tight text-foreground tabular-nums">
              <span data-testid="hero-progress">{progress}</span>
              <span className="text-lg text-muted-foreground">%</span>
            </p>
          </div>
          <HeroProgress value={progress} />
        </div>

        <ol className="mt-6 space-y-1">
          {heroSteps.map((step) => (
            <li
              key={step.agent}
              className={clsx(
                'flex items-start gap-3 rounded-lg px-2 py-2.5 text-left',
                step.state === 'running' && 'bg-muted/70',
              )}
            >
              <span className="mt-0.5 shrink-0">
                <StepIcon state={step.state} />
              </span>
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium text-foreground">{step.agent}</p>
                <p className="truncate text-sm text-muted-foreground">{step.task}</p>
              </div>
              <span className="shrink-0 pt-0.5 text-xs text-muted-foreground tabular-nums">{step.meta}</span>
            </li>
          ))}
        </ol>

        <div className="mt-5 flex items-center justify-between border-t border-border pt-4 text-xs text-muted-foreground">
          <span>Started 2m ago</span>
          <span className="inline-flex items-center gap-1.5">
            <Hash className="size-3.5" aria-hidden="true" />
            Posts to #growth when done
          </span>
        </div>
      </div>
    </div>
  );
}
