import type { SystemStatus } from '@crewline/contracts';
import { RefreshCw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatRelativeTime } from '@/lib/format';
import { useSystemStatus } from '@/lib/queries/system-status';
import { cn } from '@/lib/utils';

type Level = 'ok' | 'warn' | 'bad' | 'idle';

const dot: Record<Level, string> = {
  ok: 'bg-emerald-500',
  warn: 'bg-amber-500',
  bad: 'bg-red-500',
  idle: 'bg-muted-foreground/50',
};

const text: Record<Level, string> = {
  ok: 'text-emerald-700 dark:text-emerald-400',
  warn: 'text-amber-700 dark:text-amber-400',
  bad: 'text-red-700 dark:text-red-400',
  idle: 'text-muted-foreground',
};

const serviceLabel = {
  operational: { label: 'Operational', level: 'ok' },
  degraded: { label: 'Degraded', level: 'warn' },
  down: { label: 'Down', level: 'bad' },
} as const satisfies Record<string, { label: string; level: Level }>;

export interface StatusRow {
  label: string;
  value: string;
  level: Level;
  hint?: string;
}

/**
 * The rows of the card, from the live status answer: API, engine, LLM providers and response time,
 * plus the database's latency when `database` is set.
 */
function statusRows(status: SystemStatus, { database = false } = {}): StatusRow[] {
  const api = serviceLabel[status.api.status];
  const engine = serviceLabel[status.workflowEngine.status];
  const llmActive = status.llmProviders.status === 'active';
  const ms = Math.round(status.responseTimeMs);
  const rows: StatusRow[] = [
    { label: 'API Services', value: api.label, level: api.level },
    {
      label: 'Workflow Engine',
      value: engine.label,
      level: engine.level,
      hint: status.workflowEngine.detail,
    },
    {
      label: 'LLM Providers',
      value: llmActive ? 'Active' : 'Not configured',
      level: llmActive ? 'ok' : 'idle',
      hint: llmActive ? status.llmProviders.configured.join(', ') : 'Add an OpenAI or Anthropic key in Tools',
    },
    { label: 'Response Time', value: `${ms} ms avg`, level: ms > 1000 ? 'warn' : 'ok' },
  ];
  if (database) rows.push(databaseRow(status.database));
  return rows;
}

function databaseRow(db: SystemStatus['database']): StatusRow {
  if (db.status === 'down') return { label: 'Database', value: 'Down', level: 'bad' };
  const ms = Math.round(db.latencyMs);
  return { label: 'Database', value: `${ms} ms latency`, level: ms > 500 ? 'warn' : 'ok' };
}

/**
 * Live health of the platform: the dashboard's System Status, the analytics page's System Health
 * (which adds the database row).
 */
export function SystemStatusCard({
  title = 'System Status',
  showDatabase = false,
  className,
}: {
  title?: string;
  showDatabase?: boolean;
  className?: string;
}) {
  const query = useSystemStatus();
  const rowCount = showDatabase ? 5 : 4;

  return (
    <Card className={cn('gap-4', className)}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>
          {query.dataUpdatedAt ? `Checked ${formatRelativeTime(query.dataUpdatedAt)}` : 'Live health checks'}
        </CardDescription>
        <CardAction>
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            aria-label={`Refresh ${title.toLowerCase()}`}
            disabled={query.isFetching}
            onClick={() => void query.refetch()}
          >
            <RefreshCw className={cn('size-4', query.isFetching && 'animate-spin')} aria-hidden="true" />
          </Button>
        </CardAction>
      </CardHeader>
      <CardContent>
        {query.isLoading ? (
          <div className="space-y-3" aria-busy="true" aria-label="Loading system status">
            {Array.from({ length: rowCount }, (_, i) => (
              <div key={i} className="flex items-center justify-between">
                <Skeleton className="h-4 w-28" />
                <Skeleton className="h-4 w-20" />
              </div>
            ))}
          </div>
        ) : query.isError || !query.data ? (
          <div className="space-y-3 text-sm">
            <p className="flex items-center gap-2 text-red-700 dark:text-red-400">
              <span className={cn('size-2 rounded-full', dot.bad)} aria-hidden="true" />
              Status unavailable
            </p>
            <p className="text-muted-foreground">
              The status service did not answer. The API may be unreachable.
            </p>
          </div>
        ) : (
          <dl className="space-y-3 text-sm">
            {statusRows(query.data, { database: showDatabase }).map((row) => (
              <div key={row.label} className="flex items-center justify-between gap-3">
                <dt className="text-muted-foreground">{row.label}</dt>
                <dd className={cn('flex items-center gap-2 font-medium', text[row.level])} title={row.hint}>
                  <span className={cn('size-2 rounded-full', dot[row.level])} aria-hidden="true" />
                  {row.value}
                </dd>
              </div>
            ))}
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
