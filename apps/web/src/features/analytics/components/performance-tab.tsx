import type { AgentAnalytics, Analytics, DailyExecutions } from '@crewline/contracts';
import { Bot, Coins, Gauge, Timer } from 'lucide-react';

import { StatCard, StatCardGrid } from '@/components/stat-card';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatNumber } from '@/lib/format';

import { dayLabel, formatRunTime, formatStepTime, shareOf, slowestAgents } from '../analytics-figures';

function Hint({ children }: { children: string }) {
  return <p className="text-xs text-muted-foreground">{children}</p>;
}

function NothingYet({ children }: { children: string }) {
  return (
    <p className="rounded-xl border border-dashed px-6 py-10 text-center text-sm text-muted-foreground">
      {children}
    </p>
  );
}

/** One horizontal bar: label, bar sized against the largest value, value. */
function BarRow({ label, value, share }: { label: string; value: string; share: number }) {
  return (
    <li className="grid grid-cols-[6.5rem_1fr_auto] items-center gap-3 text-sm sm:grid-cols-[8rem_1fr_auto]">
      <span className="truncate text-muted-foreground">{label}</span>
      <span className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden="true">
        <span className="block h-full rounded-full bg-primary/70" style={{ width: `${share}%` }} />
      </span>
      <span className="text-right font-medium tabular-nums">{value}</span>
    </li>
  );
}

function TokensPerDayCard({ days }: { days: DailyExecutions[] }) {
  const most = days.reduce((max, day) => Math.max(max, day.totalTokens), 0);
  const total = days.reduce((sum, day) => sum + day.totalTokens, 0);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Tokens per Day</CardTitle>
        <CardDescription>
          {total > 0
            ? `${formatNumber(total)} tokens over the last 7 days`
            : 'Model tokens used over the last 7 days'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {total === 0 ? (
          <NothingYet>No tokens used in the last 7 days.</NothingYet>
        ) : (
          <ol className="space-y-3" aria-label="Tokens per day">
            {days.map((day, index) => (
              <BarRow
                key={day.date}
                label={index === days.length - 1 ? 'Today' : dayLabel(day.date)}
                value={formatNumber(day.totalTokens)}
                share={shareOf(day.totalTokens, most)}
              />
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function SlowestAgentsCard({ agents }: { agents: AgentAnalytics[] }) {
  const slowest = slowestAgents(agents);
  const max = slowest[0]?.avgStepTime ?? 0;
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Slowest Agents</CardTitle>
        <CardDescription>Average time of a completed step, slowest first</CardDescription>
      </CardHeader>
      <CardContent>
        {slowest.length === 0 ? (
          <NothingYet>No agent completed a step in this period.</NothingYet>
        ) : (
          <ol className="space-y-3" aria-label="Slowest agents">
            {slowest.map((agent) => (
              <BarRow
                key={agent.agentId}
                label={agent.name}
                value={formatStepTime(agent.avgStepTime)}
                share={shareOf(agent.avgStepTime, max)}
              />
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/** Performance: run-time percentiles, step time, tokens per run and per day, the slowest agents. */
export function PerformanceTab({ analytics }: { analytics: Analytics }) {
  const { performance, current } = analytics;
  const finished = current.successRate !== null;
  const time = (seconds: number) => (finished ? formatRunTime(seconds) : '—');
  return (
    <div className="space-y-6">
      <StatCardGrid>
        <StatCard
          title="Median Run Time"
          icon={Timer}
          value={time(performance.p50ExecutionTime)}
          accent="bg-sky-500/10 text-sky-600 dark:text-sky-400"
          data-testid="metric-p50"
        >
          <Hint>Half of the runs finish faster (p50)</Hint>
        </StatCard>
        <StatCard
          title="95th Percentile"
          icon={Gauge}
          value={time(performance.p95ExecutionTime)}
          accent="bg-indigo-500/10 text-indigo-600 dark:text-indigo-400"
          data-testid="metric-p95"
        >
          <Hint>95% of the runs finish faster (p95)</Hint>
        </StatCard>
        <StatCard
          title="Avg Agent Step"
          icon={Bot}
          value={performance.avgStepTime > 0 ? formatStepTime(performance.avgStepTime) : '—'}
          accent="bg-violet-500/10 text-violet-600 dark:text-violet-400"
          data-testid="metric-step-time"
        >
          <Hint>Per completed agent step</Hint>
        </StatCard>
        <StatCard
          title="Avg Tokens per Run"
          icon={Coins}
          value={current.executions > 0 ? formatNumber(Math.round(performance.avgTokensPerExecution)) : '—'}
          accent="bg-amber-500/10 text-amber-600 dark:text-amber-400"
          data-testid="metric-tokens"
        >
          <Hint>{`${formatNumber(current.totalTokens)} tokens in this period`}</Hint>
        </StatCard>
      </StatCardGrid>
      <div className="grid gap-6 lg:grid-cols-2">
        <TokensPerDayCard days={analytics.dailyExecutions} />
        <SlowestAgentsCard agents={analytics.agents} />
      </div>
    </div>
  );
}
