import type { Execution, Workflow } from '@crewline/contracts';
import { History } from 'lucide-react';

import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';

import { ExecutionStatusBadge } from './workflow-badges';
import { executionWorkflowName, shortId } from './workflow-list-logic';

export const LIST_GRID = 'grid gap-4 md:grid-cols-2 lg:grid-cols-3 lg:gap-5';

/** Skeleton cards for each loading state (spec part 1 §9). */
export const SKELETON_COUNT = 6;

function ExecutionCard({ execution, workflowName }: { execution: Execution; workflowName: string }) {
  return (
    <Card
      role="article"
      aria-label={`${workflowName} execution ${shortId(execution.id)}`}
      data-testid="execution-card"
      className="h-full gap-3 px-5 py-4"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate font-semibold" title={workflowName}>
            {workflowName}
          </h3>
          <p className="text-xs text-muted-foreground">
            ID: <span className="font-mono">{shortId(execution.id)}</span>
          </p>
        </div>
        <ExecutionStatusBadge status={execution.status} />
      </div>
      <dl className="flex items-center justify-between gap-3 rounded-lg border bg-muted/30 px-3 py-2 text-sm">
        <dt className="text-xs text-muted-foreground">Started</dt>
        <dd className="truncate font-medium">{formatDateTime(execution.startedAt, 'Not started')}</dd>
      </dl>
    </Card>
  );
}

function ExecutionCardSkeleton() {
  return (
    <Card className="h-full gap-3 px-5 py-4" data-testid="execution-card-skeleton" aria-hidden="true">
      <div className="flex items-start justify-between gap-3">
        <div className="flex-1 space-y-2">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-3 w-24" />
        </div>
        <Skeleton className="h-5 w-16" />
      </div>
      <Skeleton className="h-9 w-full rounded-lg" />
    </Card>
  );
}

/** The Executions tab: a first version with the run's name, id, status and start (spec part 1 §2). */
export function ExecutionsTab({
  executions,
  isLoading,
  isError,
  onRetry,
  workflows,
}: {
  executions: Execution[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
  workflows: Workflow[] | undefined;
}) {
  if (isLoading) {
    return (
      <div className={LIST_GRID} aria-busy="true" aria-label="Loading executions">
        {Array.from({ length: SKELETON_COUNT }, (_, i) => (
          <ExecutionCardSkeleton key={i} />
        ))}
      </div>
    );
  }
  if (isError) {
    return (
      <LoadErrorState icon={History} title="Could not load executions" onRetry={onRetry} className="py-16" />
    );
  }
  if (!executions || executions.length === 0) {
    return (
      <EmptyState
        icon={History}
        title="No executions yet"
        description="Workflow execution history will appear here once you start running workflows"
        className="py-16"
      />
    );
  }
  const sorted = [...executions].sort(
    (a, b) => (Date.parse(b.createdAt) || 0) - (Date.parse(a.createdAt) || 0),
  );
  return (
    <ul className={LIST_GRID} aria-label="Executions">
      {sorted.map((execution) => (
        <li key={execution.id} className="min-w-0">
          <ExecutionCard execution={execution} workflowName={executionWorkflowName(execution, workflows)} />
        </li>
      ))}
    </ul>
  );
}
