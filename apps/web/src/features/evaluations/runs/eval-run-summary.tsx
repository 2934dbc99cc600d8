// An eval run's figures: its pass rate, each grader's mean score, what it cost and how long its items
// took (p50 / p95).
import type { EvalRunSummary } from '@crewline/contracts';
import { CircleCheck, Clock, DollarSign, Scale } from 'lucide-react';

import { StatCard, StatCardGrid } from '@/components/stat-card';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCost } from '@/lib/format';

import { formatLatency, formatShare } from './eval-run-figures';

export function EvalRunSummaryCards({ run }: { run: EvalRunSummary }) {
  return (
    <StatCardGrid>
      <StatCard
        title="Pass rate"
        icon={CircleCheck}
        value={<span className="whitespace-nowrap">{formatShare(run.passRate)}</span>}
        accent="bg-emerald-500/10 text-emerald-600 dark:text-emerald-400"
        data-testid="eval-pass-rate"
      >
        <p className="text-xs text-muted-foreground">
          {run.progress.done} of {run.progress.total} items run
        </p>
      </StatCard>
      <Card className="gap-3 py-4 sm:py-5">
        <CardHeader className="flex flex-row items-center justify-between gap-2 px-4 sm:px-5">
          <CardTitle className="text-sm leading-tight font-medium text-muted-foreground">
            Mean score per grader
          </CardTitle>
          <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-violet-500/10 text-violet-600 dark:text-violet-400">
            <Scale className="size-4" aria-hidden="true" />
          </span>
        </CardHeader>
        <CardContent className="px-4 sm:px-5">
          {run.scores.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nothing graded yet</p>
          ) : (
            <ul className="space-y-1 text-sm" aria-label="Mean score per grader">
              {run.scores.map((score, index) => (
                <li key={`${index}:${score.name}`} className="flex items-baseline justify-between gap-2">
                  <span className="min-w-0 truncate text-muted-foreground">{score.name}</span>
                  <span className="shrink-0 font-semibold whitespace-nowrap tabular-nums">
                    {formatShare(score.mean)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <StatCard
        title="Total cost"
        icon={DollarSign}
        value={formatCost(run.costUsd)}
        accent="bg-sky-500/10 text-sky-600 dark:text-sky-400"
      />
      <StatCard
        title="Latency p50 / p95"
        data-testid="eval-latency"
        icon={Clock}
        value={
          <span className="text-lg sm:text-2xl">
            <span className="whitespace-nowrap">{formatLatency(run.latencyMs.p50)} /</span>{' '}
            <span className="whitespace-nowrap">{formatLatency(run.latencyMs.p95)}</span>
          </span>
        }
        accent="bg-amber-500/10 text-amber-600 dark:text-amber-400"
      />
    </StatCardGrid>
  );
}
