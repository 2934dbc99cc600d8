import type { Analytics, DailyExecutions } from '@crewline/contracts';
import { BarChart3, Workflow } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

import {
  barDescription,
  barHeight,
  chartTotals,
  daySuccessRate,
  formatPercent,
  formatRunTime,
  rangeLabel,
  successTrend,
  weekdayLabel,
  type Trend,
} from '../analytics-figures';

const barColour: Record<Trend, string> = {
  up: 'bg-emerald-500 dark:bg-emerald-500/90',
  neutral: 'bg-amber-500 dark:bg-amber-500/90',
  down: 'bg-red-500 dark:bg-red-500/90',
};

function Bar({ day, isToday }: { day: DailyExecutions; isToday: boolean }) {
  const rate = daySuccessRate(day);
  const ran = day.executions > 0;
  const description = barDescription(day);
  return (
    <li className="flex min-w-0 flex-1 flex-col items-center gap-2">
      <span
        className={cn('text-xs font-medium tabular-nums', ran ? 'text-foreground' : 'text-muted-foreground')}
        aria-hidden="true"
      >
        {ran ? `${rate}%` : '—'}
      </span>
      <div
        role="img"
        aria-label={description}
        title={description}
        data-testid="success-bar"
        data-date={day.date}
        className="relative h-36 w-full max-w-12 overflow-hidden rounded-md bg-muted/70 sm:h-44 dark:bg-muted/60"
      >
        <div
          className={cn(
            'absolute inset-x-0 bottom-0 rounded-md transition-[height] duration-500',
            ran ? barColour[successTrend(rate)] : 'bg-muted-foreground/25',
          )}
          style={{ height: `${barHeight(rate)}%` }}
        />
      </div>
      <span
        className={cn('text-xs', isToday ? 'font-medium text-foreground' : 'text-muted-foreground')}
        aria-hidden="true"
      >
        {isToday ? 'Today' : weekdayLabel(day.date)}
      </span>
    </li>
  );
}

function Figure({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <dt className="text-xs text-muted-foreground sm:text-sm">{label}</dt>
      <dd className="text-lg font-semibold tracking-tight tabular-nums sm:text-xl">{value}</dd>
      <dd className="truncate text-xs text-muted-foreground">{hint}</dd>
    </div>
  );
}

/** The Overview's 7-day bar chart of the daily success rate, with its summary figures below. */
export function SuccessRateChart({ analytics }: { analytics: Analytics }) {
  const days = analytics.dailyExecutions;
  const totals = chartTotals(days);
  const { current } = analytics;
  const range = rangeLabel(analytics.range.days);

  return (
    <Card className="gap-5">
      <CardHeader>
        <CardTitle>Daily Success Rate</CardTitle>
        <CardDescription>Share of each day&apos;s runs that completed, over the last 7 days</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {totals.executions === 0 ? (
          <EmptyState
            icon={BarChart3}
            title="No runs in the last 7 days"
            description="Execute a workflow and its daily success rate shows up here."
            action={
              <Button asChild variant="outline" size="sm">
                <Link to="/workflows">
                  <Workflow aria-hidden="true" />
                  Go to Workflows
                </Link>
              </Button>
            }
          />
        ) : (
          <ol className="flex items-end gap-2 sm:gap-4" aria-label="Daily success rate, last 7 days">
            {days.map((day, index) => (
              <Bar key={day.date} day={day} isToday={index === days.length - 1} />
            ))}
          </ol>
        )}
        {/* The chart is always the last 7 days; the figures below are the selected range's. */}
        {(totals.executions > 0 || current.executions > 0) && (
          <dl className="grid grid-cols-3 gap-3 border-t pt-4 sm:gap-6">
            <Figure label="Avg Success Rate" value={formatPercent(current.successRate)} hint={range} />
            <Figure label="Total Executions" value={formatNumber(current.executions)} hint={range} />
            <Figure
              label="Avg Execution Time"
              value={current.successRate === null ? '—' : formatRunTime(current.avgExecutionTime)}
              hint={range}
            />
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
