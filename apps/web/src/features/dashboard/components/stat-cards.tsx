import type { OrganizationStats } from '@crewline/contracts';
import { Activity, Bot, Gauge, Workflow } from 'lucide-react';

import { StatCard, StatCardGrid, StatCardGridSkeleton } from '@/components/stat-card';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { formatNumber } from '@/lib/format';

export function StatCards({
  stats,
  isLoading,
  isError,
  onRetry,
}: {
  stats: OrganizationStats | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
}) {
  if (isLoading) {
    return <StatCardGridSkeleton />;
  }

  if (isError || !stats) {
    return (
      <Card className="py-5">
        <CardContent className="flex flex-col items-start justify-between gap-3 px-5 sm:flex-row sm:items-center">
          <p className="text-sm text-muted-foreground">
            Your organization's figures could not be loaded right now.
          </p>
          <Button variant="outline" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </CardContent>
      </Card>
    );
  }

  const successRate = stats.successRate;

  return (
    <StatCardGrid>
      <StatCard
        title="Total Agents"
        icon={Bot}
        value={formatNumber(stats.totalAgents)}
        accent="bg-violet-500/10 text-violet-600 dark:text-violet-400"
      >
        <Badge variant="secondary">{stats.activeAgents} active</Badge>
      </StatCard>
      <StatCard
        title="Workflows"
        icon={Workflow}
        value={formatNumber(stats.totalWorkflows)}
        accent="bg-indigo-500/10 text-indigo-600 dark:text-indigo-400"
      >
        <Badge variant="secondary">{stats.activeWorkflows} active</Badge>
      </StatCard>
      <StatCard
        title="Executions"
        icon={Activity}
        value={formatNumber(stats.totalExecutions)}
        accent="bg-sky-500/10 text-sky-600 dark:text-sky-400"
      >
        <p className="text-xs text-muted-foreground">
          <span className="font-medium text-foreground">{stats.recentExecutions} recent</span>
          <span className="hidden xl:inline"> · last 24 hours</span>
        </p>
      </StatCard>
      <StatCard
        title="Success Rate"
        icon={Gauge}
        value={successRate === null ? '—' : `${Math.round(successRate)}%`}
        accent="bg-emerald-500/10 text-emerald-600 dark:text-emerald-400"
      >
        {successRate === null ? (
          <p className="text-xs text-muted-foreground">No runs yet</p>
        ) : (
          <Progress value={successRate} aria-label="Success rate" className="h-1.5" />
        )}
      </StatCard>
    </StatCardGrid>
  );
}
