// The graph of the workflow version a run executed, with each step's status in that run
// (docs/product-rules.md, "Run review"): skipped steps greyed, the paths the run took drawn strong
// and those it did not dimmed, each condition's branch taken on its node, each map's items done
// (`37/100`, live while the run goes on) and each loop's pass. Opened from the execution-details dialog; the version is
// read once (a version never changes).
import type { Agent, Execution } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';

import { LoadErrorState } from '@/components/empty-state';
import { Spinner } from '@/components/spinner';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { queryKeys } from '@/lib/queries/keys';
import { useWorkflowVersion } from '@/lib/queries/workflow-versions';

import { useRun } from '@/lib/runs/run-store';

import { runBranches, runEdgeMarks, runItemProgress, runNodeStatuses, versionLabel } from './run-review';

// React Flow is loaded only when a graph is opened: the runs list does not need it.
const WorkflowGraphView = lazy(() =>
  import('@/components/workflow-graph/workflow-graph-view').then((module) => ({
    default: module.WorkflowGraphView,
  })),
);

const BOX = 'h-[min(60svh,36rem)] min-h-64';

function GraphLoading() {
  return (
    <div className={`grid place-items-center rounded-md border ${BOX}`} aria-busy="true">
      <Spinner className="size-5 text-muted-foreground" label="Loading the workflow graph" />
    </div>
  );
}

export function RunGraphDialog({
  execution,
  workflowName,
  open,
  onOpenChange,
}: {
  execution: Execution;
  workflowName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const version = useWorkflowVersion(open ? execution.workflowId : null, execution.workflowVersion);
  // Only to name nodes saved without their agent's name (the agents pages share this cache entry).
  const agents = useQuery<Agent[]>({ queryKey: queryKeys.agents.all, enabled: open, staleTime: 30_000 });
  const definition = version.data;
  const branchTaken = useMemo(() => runBranches(execution.output), [execution.output]);
  // A map's items as they finish (its total is heard, not stored, while it runs).
  const liveItems = useRun(open ? execution.id : null)?.items;
  const progress = useMemo(() => runItemProgress(execution, liveItems), [execution, liveItems]);
  const nodeStatus = useMemo(
    () => (definition ? runNodeStatuses(execution, definition) : undefined),
    [definition, execution],
  );
  const edgeMarks = useMemo(
    () => (definition && nodeStatus ? runEdgeMarks(nodeStatus, branchTaken, definition) : undefined),
    [definition, nodeStatus, branchTaken],
  );
  const label = versionLabel(execution.workflowVersion);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex flex-col gap-3 sm:max-w-5xl" data-testid="run-graph-dialog">
        <DialogHeader className="pr-8">
          <DialogTitle>Workflow graph{label ? ` · ${label}` : ''}</DialogTitle>
          <DialogDescription className="break-words">
            {workflowName}: each step as this run left it.
          </DialogDescription>
        </DialogHeader>
        {definition ? (
          <Suspense fallback={<GraphLoading />}>
            <WorkflowGraphView
              nodes={definition.nodes}
              edges={definition.edges}
              agents={agents.data}
              nodeStatus={nodeStatus}
              branchTaken={branchTaken}
              progress={progress}
              edgeMarks={edgeMarks}
              className={BOX}
            />
          </Suspense>
        ) : version.isError ? (
          <LoadErrorState
            title="Could not load this version"
            onRetry={() => void version.refetch()}
            className={BOX}
          />
        ) : (
          <GraphLoading />
        )}
      </DialogContent>
    </Dialog>
  );
}
