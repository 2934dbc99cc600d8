import type { SystemStatus } from '@crewline/contracts';
import { RefreshCw } from 'lucide-react';

import { Button } from '@/components/ui/button';
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatRelativeTime } from '@/lib/format';
import { cn } from '@/lib/utils';

import { useSystemStatus } from '../api/queries';

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

/** The four rows of the card, from the live status answer. */
export function statusRows(status: SystemStatus): StatusRow[] {
  const api = serviceLabel[status.api.status];
  const engine = serviceLabel[status.workflowEngine.status];
  const llmActive = status.llmProviders.status === 'active';
  const ms = Math.round(status.responseTimeMs);
  return [
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
}

export function SystemStatusCard() {
  const query = useSystemStatus();

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle>System Status</CardTitle>
        <CardDescription>
          {query.dataUpdatedAt ? `Checked ${formatRelativeTime(query.dataUpdatedAt)}` : 'Live health checks'}
        </CardDescription>
        <CardAction>
          <Button
            variant="ghost"
            size="icon"
            className="size-8"
            aria-label="Refresh system status"
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
            {Array.from({ length: 4 }, (_, i) => (
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
            {statusRows(query.data).map((row) => (
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
