import type { ExecutionSummary } from '@crewline/contracts';
import { CircleCheck, CircleX, Clock3, Play, type LucideIcon } from 'lucide-react';

import { ActivityListSkeleton } from '@/components/activity-list-skeleton';
import { executionStatusTone, type StatusTone } from '@/components/status-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { useExecutions } from '@/lib/queries/executions';
import { cn } from '@/lib/utils';

import { executionStatusText, recentExecutions } from '../analytics-figures';

/** Completed green, failed red, running blue, anything else yellow (the shared status tones). */
const look: Partial<Record<StatusTone, { icon: LucideIcon; tint: string }>> = {
  green: { icon: CircleCheck, tint: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-400' },
  red: { icon: CircleX, tint: 'bg-red-500/10 text-red-600 dark:text-red-400' },
  blue: { icon: Play, tint: 'bg-blue-500/10 text-blue-600 dark:text-blue-400' },
};
const otherLook = { icon: Clock3, tint: 'bg-amber-500/10 text-amber-600 dark:text-amber-400' };

function ActivityRow({ execution }: { execution: ExecutionSummary }) {
  const tone = executionStatusTone(execution.status);
  const { icon: Icon, tint } = look[tone] ?? otherLook;
  return (
    <li className="flex gap-3" data-testid="analytics-activity" data-status={execution.status}>
      <span className={cn('grid size-8 shrink-0 place-items-center rounded-full', tint)}>
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm leading-snug">
          <span className="font-medium">{execution.workflowName || 'Unknown Workflow'}</span>{' '}
          <span className="text-muted-foreground">{executionStatusText(execution.status)}</span>
        </p>
        <time
          dateTime={execution.createdAt}
          title={formatDateTime(execution.createdAt)}
          className="text-xs text-muted-foreground"
        >
          {formatRelativeTime(execution.createdAt)}
        </time>
      </div>
    </li>
  );
}

/** The 5 newest runs of the organization; follows the realtime events like every executions list. */
export function RecentActivityCard() {
  const query = useExecutions();
  const items = recentExecutions(query.data ?? []);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
        <CardDescription>The latest workflow runs</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isLoading ? (
          <ActivityListSkeleton />
        ) : query.isError ? (
          <p className="text-sm text-muted-foreground">Recent runs could not be loaded right now.</p>
        ) : items.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">
            No runs yet. Execute a workflow to see it here.
          </p>
        ) : (
          <ol className="space-y-4" aria-label="Recent runs">
            {items.map((execution) => (
              <ActivityRow key={execution.id} execution={execution} />
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
