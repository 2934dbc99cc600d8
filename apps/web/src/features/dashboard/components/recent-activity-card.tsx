import type { ActivityItem } from '@crewline/contracts';
import { Bot, CircleCheck, CircleX, Clock3, PencilLine, Play, Workflow, type LucideIcon } from 'lucide-react';

import { ActivityListSkeleton } from '@/components/activity-list-skeleton';
import { Card, CardAction, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime, formatRelativeTime } from '@/lib/format';
import { useOrganizationActivity } from '@/lib/queries/organizations';
import { useRealtimeStatus, type RealtimeStatus } from '@/lib/realtime';
import { cn } from '@/lib/utils';

import { activityTitle } from '../activity-texts';

const MAX_ITEMS = 5;

function activityIcon(item: ActivityItem): { icon: LucideIcon; tint: string } {
  switch (item.kind) {
    case 'agent_created':
      return { icon: Bot, tint: 'bg-violet-500/10 text-violet-600 dark:text-violet-400' };
    case 'agent_updated':
    case 'workflow_updated':
      return { icon: PencilLine, tint: 'bg-muted text-muted-foreground' };
    case 'workflow_created':
      return { icon: Workflow, tint: 'bg-indigo-500/10 text-indigo-600 dark:text-indigo-400' };
    case 'execution':
      if (item.status === 'completed')
        return { icon: CircleCheck, tint: 'bg-emerald-500/10 text-emerald-600 dark:text-emerald-400' };
      if (item.status === 'failed')
        return { icon: CircleX, tint: 'bg-red-500/10 text-red-600 dark:text-red-400' };
      if (item.status === 'running')
        return { icon: Play, tint: 'bg-blue-500/10 text-blue-600 dark:text-blue-400' };
      return { icon: Clock3, tint: 'bg-amber-500/10 text-amber-600 dark:text-amber-400' };
  }
}

const liveLabel: Record<RealtimeStatus, { text: string; hint: string; dot: string }> = {
  open: {
    text: 'Live',
    hint: 'Runs and agent changes appear here as they happen',
    dot: 'bg-emerald-500',
  },
  connecting: {
    text: 'Connecting…',
    hint: 'Connecting to live updates',
    dot: 'bg-amber-500 motion-safe:animate-pulse',
  },
  closed: {
    text: 'Offline',
    hint: 'Live updates are unavailable; reload the page to see the latest activity',
    dot: 'bg-muted-foreground/50',
  },
};

/** Whether the activity below follows the organization's live events. */
function LiveIndicator() {
  const { text, hint, dot } = liveLabel[useRealtimeStatus()];
  return (
    <span className="flex items-center gap-1.5 text-xs font-normal text-muted-foreground" title={hint}>
      <span className={cn('size-2 rounded-full', dot)} aria-hidden="true" />
      {text}
    </span>
  );
}

export function RecentActivityCard({ organizationId }: { organizationId: string }) {
  const query = useOrganizationActivity(organizationId);
  const items = query.data?.items.slice(0, MAX_ITEMS) ?? [];

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
        <CardAction>
          <LiveIndicator />
        </CardAction>
      </CardHeader>
      <CardContent>
        {query.isLoading ? (
          <ActivityListSkeleton />
        ) : query.isError ? (
          <p className="text-sm text-muted-foreground">Activity could not be loaded right now.</p>
        ) : items.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">No recent activity</p>
        ) : (
          <ol className="space-y-4">
            {items.map((item) => {
              const { icon: Icon, tint } = activityIcon(item);
              return (
                <li key={item.id} className="flex gap-3">
                  <span className={cn('grid size-8 shrink-0 place-items-center rounded-full', tint)}>
                    <Icon className="size-4" aria-hidden="true" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="text-sm leading-snug font-medium wrap-anywhere">{activityTitle(item)}</p>
                    {item.detail && <p className="truncate text-xs text-muted-foreground">{item.detail}</p>}
                    <p className="text-xs text-muted-foreground">
                      <time dateTime={item.at} title={formatDateTime(item.at)}>
                        {formatRelativeTime(item.at)}
                      </time>
                      {item.actor && (
                        <span data-testid="activity-actor">
                          {' · '}
                          {item.actor}
                        </span>
                      )}
                    </p>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
