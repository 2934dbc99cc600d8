import type { OrganizationStats } from '@crewline/contracts';
import { Activity, Bot, Gauge, Workflow, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Progress } from '@/components/ui/progress';
import { Skeleton } from '@/components/ui/skeleton';
import { formatNumber } from '@/lib/format';

function StatCard({
  title,
  icon: Icon,
  value,
  children,
  accent,
}: {
  title: string;
  icon: LucideIcon;
  value: ReactNode;
  children?: ReactNode;
  accent: string;
}) {
  return (
    <Card className="gap-3 py-4 sm:py-5">
      <CardHeader className="flex flex-row items-center justify-between gap-2 px-4 sm:px-5">
        <CardTitle className="text-sm leading-tight font-medium text-muted-foreground">{title}</CardTitle>
        <span className={`grid size-8 shrink-0 place-items-center rounded-lg ${accent}`}>
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </CardHeader>
      <CardContent className="space-y-2 px-4 sm:px-5">
        <p className="text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl">{value}</p>
        {children}
      </CardContent>
    </Card>
  );
}

function StatCardSkeleton() {
  return (
    <Card className="gap-3 py-4 sm:py-5" data-testid="stat-skeleton">
      <CardHeader className="flex flex-row items-center justify-between px-4 sm:px-5">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="size-8 rounded-lg" />
      </CardHeader>
      <CardContent className="space-y-3 px-4 sm:px-5">
        <Skeleton className="h-8 w-16" />
        <Skeleton className="h-5 w-20" />
      </CardContent>
    </Card>
  );
}

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
    return (
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" aria-busy="true">
        {Array.from({ length: 4 }, (_, i) => (
          <StatCardSkeleton key={i} />
        ))}
      </div>
    );
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
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
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
    </div>
  );
}
