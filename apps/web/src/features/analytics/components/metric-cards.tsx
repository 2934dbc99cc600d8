import type { Analytics, OrganizationStats } from '@crewline/contracts';
import {
  Bot,
  Clock3,
  Hourglass,
  Minus,
  TrendingDown,
  TrendingUp,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

import { StatCard, StatCardGrid, StatCardGridSkeleton } from '@/components/stat-card';
import { Badge } from '@/components/ui/badge';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

import {
  createdChange,
  executionTimeChange,
  formatPercent,
  formatRunTime,
  successRateChange,
  successTrend,
  waitTimeChange,
  type Change,
  type ChangeTone,
  type Trend,
} from '../analytics-figures';

const changeColour: Record<ChangeTone, string> = {
  positive: 'text-emerald-700 dark:text-emerald-400',
  negative: 'text-red-700 dark:text-red-400',
  neutral: 'text-muted-foreground',
};

const trendLook: Record<Trend | 'none', { icon: LucideIcon; accent: string }> = {
  up: { icon: TrendingUp, accent: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-400' },
  neutral: { icon: Minus, accent: 'bg-amber-500/10 text-amber-600 dark:text-amber-400' },
  down: { icon: TrendingDown, accent: 'bg-red-500/10 text-red-600 dark:text-red-400' },
  none: { icon: Minus, accent: 'bg-muted text-muted-foreground' },
};

function Detail({ label, change }: { label: string; change: Change }) {
  return (
    <div className="space-y-1.5">
      <Badge variant="secondary">{label}</Badge>
      <p className={cn('text-xs leading-snug', changeColour[change.tone])} data-testid="metric-change">
        {change.text}
      </p>
    </div>
  );
}

export function MetricCardsSkeleton() {
  return <StatCardGridSkeleton aria-label="Loading figures" count={5} className="lg:grid-cols-5" />;
}

/**
 * Total Agents, Active Workflows, Success Rate, Avg Execution Time (working time) and Avg. Waiting Time
 * beside it (for approvals and delays), each against the last period.
 */
export function MetricCards({ stats, analytics }: { stats: OrganizationStats; analytics: Analytics }) {
  const { current, previous } = analytics;
  const trend = trendLook[current.successRate === null ? 'none' : successTrend(current.successRate)];
  const finished = current.successRate !== null;

  return (
    <StatCardGrid className="lg:grid-cols-5">
      <StatCard
        title="Total Agents"
        data-testid="metric-total-agents"
        icon={Bot}
        value={formatNumber(stats.totalAgents)}
        accent="bg-violet-500/10 text-violet-600 dark:text-violet-400"
      >
        <Detail
          label={`${formatNumber(stats.activeAgents)} active`}
          change={createdChange(current.agentsCreated)}
        />
      </StatCard>
      <StatCard
        title="Active Workflows"
        data-testid="metric-active-workflows"
        icon={Workflow}
        value={formatNumber(stats.activeWorkflows)}
        accent="bg-indigo-500/10 text-indigo-600 dark:text-indigo-400"
      >
        <Detail
          label={`${formatNumber(stats.totalWorkflows)} total`}
          change={createdChange(current.workflowsCreated)}
        />
      </StatCard>
      <StatCard
        title="Success Rate"
        data-testid="metric-success-rate"
        icon={trend.icon}
        value={formatPercent(current.successRate)}
        accent={trend.accent}
      >
        <Detail
          label={`${formatNumber(current.failed)} failed`}
          change={successRateChange(current, previous)}
        />
      </StatCard>
      <StatCard
        title="Avg Execution Time"
        data-testid="metric-avg-execution-time"
        icon={Clock3}
        value={finished ? formatRunTime(current.avgExecutionTime) : '—'}
        accent="bg-sky-500/10 text-sky-600 dark:text-sky-400"
      >
        <Detail
          label={`${formatNumber(current.executions)} recent`}
          change={executionTimeChange(current, previous)}
        />
      </StatCard>
      <StatCard
        title="Avg. Waiting Time"
        data-testid="metric-avg-wait-time"
        icon={Hourglass}
        value={finished ? formatRunTime(current.avgWaitTime) : '—'}
        accent="bg-purple-500/10 text-purple-600 dark:text-purple-400"
        // Two to a row on a phone: the fifth card takes its row.
        className="col-span-2 lg:col-span-1"
      >
        <Detail label="Approvals & delays" change={waitTimeChange(current, previous)} />
      </StatCard>
    </StatCardGrid>
  );
}
