import type { ExecutionSummary, Workflow } from '@crewline/contracts';
import { ChevronDown, History, SearchX } from 'lucide-react';
import { useState } from 'react';

import { CardGrid, CardGridSkeleton } from '@/components/card-grid';
import { EmptyState, LoadErrorState } from '@/components/empty-state';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { executionSummaryOf } from '@/lib/execution-summaries';

import { ExecutionCard, ExecutionCardSkeleton } from './execution-card';
import { ExecutionDetailsDialog } from './execution-details-dialog';
import { RunSelectionBar } from './run-selection-bar';
import { executionWorkflowName, sortExecutionsNewestFirst } from './execution-facts';

/** Skeleton cards for each loading state (docs/product-rules.md). */
export const SKELETON_COUNT = 6;

/** Whether the server has more runs for the list, and how to load them. */
export type MorePages = {
  hasMore: boolean;
  loading: boolean;
  /** The last Load more failed: the runs shown stay, the button tries again. */
  failed: boolean;
  load: () => void;
};

function LoadMore({ more }: { more: MorePages }) {
  return (
    <div className="flex flex-col items-center gap-2 pt-2">
      {more.failed && (
        <p role="alert" className="text-sm text-destructive">
          Could not load more executions.
        </p>
      )}
      <Button
        type="button"
        variant="outline"
        className="w-full sm:w-auto sm:min-w-40"
        onClick={more.load}
        disabled={more.loading}
        aria-busy={more.loading}
      >
        {more.loading ? <Spinner /> : <ChevronDown aria-hidden="true" />}
        {more.loading ? 'Loading...' : more.failed ? 'Try again' : 'Load more'}
      </Button>
    </div>
  );
}

/**
 * The Executions tab (docs/product-rules.md): the organization's runs, newest first, as the filters
 * above it select (the page reads them from its address), a page at a time with Load more under
 * them. The list is refreshed by the realtime provider on execution events, so statuses change and
 * new runs show at the top without a reload.
 */
export function ExecutionsTab({
  executions,
  isLoading,
  isError,
  onRetry,
  workflows,
  filtering = false,
  more,
}: {
  executions: ExecutionSummary[] | undefined;
  isLoading: boolean;
  isError: boolean;
  onRetry: () => void;
  workflows: Workflow[] | undefined;
  /** Filters are applied: an empty list then says so instead of 'No executions yet'. */
  filtering?: boolean;
  /** The next page of runs: Load more shows under the list while the server has more. */
  more?: MorePages;
}) {
  // The run whose details are open; the list's newer copy is used while it is still listed.
  const [selected, setSelected] = useState<ExecutionSummary | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  // The runs selected for 'Add to dataset', in the order they were picked.
  const [picked, setPicked] = useState<string[]>([]);

  if (isLoading) {
    return (
      <CardGridSkeleton label="Loading executions" count={SKELETON_COUNT} skeleton={ExecutionCardSkeleton} />
    );
  }
  if (isError) {
    return (
      <LoadErrorState icon={History} title="Could not load executions" onRetry={onRetry} className="py-16" />
    );
  }
  if (filtering && executions?.length === 0) {
    return (
      <EmptyState
        icon={SearchX}
        title="No matching executions"
        description="No runs match these filters. Try another workflow, status, trigger or date range."
        className="py-16"
      />
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

  const sorted = sortExecutionsNewestFirst(executions);
  const current = selected ? (executions.find((item) => item.id === selected.id) ?? selected) : null;
  return (
    <>
      <CardGrid label="Executions" items={sorted}>
        {(execution) => (
          <ExecutionCard
            execution={execution}
            workflowName={executionWorkflowName(execution, workflows)}
            workflow={workflows?.find((w) => w.id === execution.workflowId)}
            onViewDetails={() => {
              setSelected(execution);
              setDetailsOpen(true);
            }}
            selected={picked.includes(execution.id)}
            onSelectedChange={(on) =>
              setPicked((ids) => (on ? [...ids, execution.id] : ids.filter((id) => id !== execution.id)))
            }
          />
        )}
      </CardGrid>
      {more && (more.hasMore || more.failed) && <LoadMore more={more} />}
      <RunSelectionBar selected={picked} onClear={() => setPicked([])} />
      {current && (
        <ExecutionDetailsDialog
          key={current.id}
          execution={current}
          workflowName={executionWorkflowName(current, workflows)}
          open={detailsOpen}
          onOpenChange={setDetailsOpen}
          // A Retry from the details shows the new run there (it is also first in the list now).
          onRetried={(next) => setSelected(executionSummaryOf(next))}
        />
      )}
    </>
  );
}
