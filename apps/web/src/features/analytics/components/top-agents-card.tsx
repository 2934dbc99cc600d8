import type { AgentAnalytics } from '@crewline/contracts';
import { Minus, TrendingDown, TrendingUp, type LucideIcon } from 'lucide-react';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

import { formatPercent, formatStepTime, runs, successTrend, type Trend } from '../analytics-figures';
import { TREND_TEXT } from './trend-colour';

const trendLook: Record<Trend, { icon: LucideIcon; label: string }> = {
  up: { icon: TrendingUp, label: 'Trending up' },
  neutral: { icon: Minus, label: 'Steady' },
  down: { icon: TrendingDown, label: 'Trending down' },
};

function SuccessRate({ rate }: { rate: number | null }) {
  if (rate === null) return <span className="text-sm text-muted-foreground">—</span>;
  const trend = successTrend(rate);
  const { icon: Icon, label } = trendLook[trend];
  return (
    <span className={cn('flex items-center gap-1 text-sm font-semibold tabular-nums', TREND_TEXT[trend])}>
      <Icon className="size-4" aria-label={label} />
      {formatPercent(rate)}
    </span>
  );
}

/** The 5 agents with the most runs in the range, with their success rate and step time. */
export function TopAgentsCard({ agents }: { agents: AgentAnalytics[] }) {
  const ran = agents.filter((agent) => agent.executions > 0).slice(0, 5);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Top Performing Agents</CardTitle>
        <CardDescription>The busiest agents and how often their steps succeed</CardDescription>
      </CardHeader>
      <CardContent>
        {ran.length === 0 ? (
          <p className="rounded-xl border border-dashed px-6 py-10 text-center text-sm text-muted-foreground">
            No agent ran in this period. Their success rates appear here once a workflow runs.
          </p>
        ) : (
          <ol className="space-y-3" aria-label="Top performing agents">
            {ran.map((agent, index) => (
              <li
                key={agent.agentId}
                className="flex items-center gap-3 rounded-lg border bg-muted/30 px-3 py-2.5"
                data-testid="top-agent-row"
              >
                <span className="grid size-7 shrink-0 place-items-center rounded-full bg-primary/10 text-xs font-semibold text-primary">
                  {index + 1}
                </span>
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{agent.name}</p>
                  <p className="truncate text-xs text-muted-foreground">
                    {runs(agent.executions)}
                    {agent.avgStepTime > 0 && ` · ${formatStepTime(agent.avgStepTime)} per step`}
                  </p>
                </div>
                <SuccessRate rate={agent.successRate} />
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
