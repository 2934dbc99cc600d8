import { Bot, TrendingUp } from 'lucide-react';

import { Badge } from '@/components/ui/badge';
import { Progress } from '@/components/ui/progress';
import { cn } from '@/lib/utils';

import { overviewChart, overviewStats, runningAgents, type RunningAgent } from '../content/landing-content';

const statusClass: Record<RunningAgent['status'], string> = {
  Running: 'border-sky-500/30 bg-sky-500/10 text-sky-700 dark:text-sky-300',
  Completed: 'border-emerald-500/30 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300',
  Queued: 'border-amber-500/30 bg-amber-500/10 text-amber-700 dark:text-amber-300',
};

function MiniChart() {
  return (
    <div className="flex flex-col rounded-xl border border-border bg-card p-4 lg:col-span-3">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-foreground">Executions</h3>
        <span className="text-xs text-muted-foreground">Last 12 hours</span>
      </div>
      <div
        role="img"
        aria-label="Bar chart: executions per hour rising steadily over the last 12 hours"
        className="mt-4 flex min-h-40 flex-1 items-end gap-1.5 sm:gap-2"
      >
        {overviewChart.map((height, index) => (
          <div
            key={index}
            className={cn(
              'flex-1 rounded-t-md bg-linear-to-t from-violet-500/70 to-indigo-400/90 dark:from-violet-500/60 dark:to-indigo-400/80',
              index === overviewChart.length - 1 &&
                'from-violet-600 to-sky-400 dark:from-violet-500 dark:to-sky-400',
            )}
            style={{ height: `${height}%` }}
          />
        ))}
      </div>
      <div className="mt-2 flex justify-between text-[11px] text-muted-foreground" aria-hidden="true">
        <span>08:00</span>
        <span>14:00</span>
        <span>Now</span>
      </div>
    </div>
  );
}

function RunningAgentsList() {
  return (
    <div className="rounded-xl border border-border bg-card p-4 lg:col-span-2">
      <h3 className="text-sm font-semibold text-foreground">Running agents</h3>
      <ul className="mt-3 divide-y divide-border">
        {runningAgents.map((agent) => (
          <li key={agent.name} className="py-3 first:pt-1 last:pb-0">
            <div className="flex items-center gap-3">
              <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-muted text-muted-foreground">
                <Bot className="size-4" aria-hidden="true" />
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-foreground">{agent.name}</p>
                <p className="truncate text-xs text-muted-foreground">{agent.workflow}</p>
              </div>
              <Badge variant="outline" className={statusClass[agent.status]}>
                {agent.status}
              </Badge>
            </div>
            <Progress value={agent.progress} aria-label={`${agent.name} progress`} className="mt-2.5 h-1.5" />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Content of the mock dashboard's Overview tab. */
export function PlatformOverview() {
  return (
    <div className="space-y-4">
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4 lg:gap-4">
        {overviewStats.map((stat) => (
          <li key={stat.label} className="rounded-xl border border-border bg-card p-4">
            <p className="text-xs font-medium text-muted-foreground">{stat.label}</p>
            <p className="mt-1.5 text-2xl font-semibold tracking-tight text-foreground tabular-nums">
              {stat.value}
            </p>
            <p className="mt-1 inline-flex items-center gap-1 text-xs text-emerald-600 dark:text-emerald-400">
              <TrendingUp className="size-3" aria-hidden="true" />
              {stat.trend}
            </p>
          </li>
        ))}
      </ul>
      <div className="grid gap-4 lg:grid-cols-5">
        <MiniChart />
        <RunningAgentsList />
      </div>
    </div>
  );
}
