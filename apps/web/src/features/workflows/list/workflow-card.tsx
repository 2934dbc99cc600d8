import type { ExecutionSummary, Workflow } from '@crewline/contracts';
import {
  Bot,
  CalendarClock,
  FileText,
  History,
  Pause,
  Play,
  Rocket,
  Workflow as WorkflowIcon,
} from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';

import { CardActionsMenu } from '@/components/card-actions-menu';
import { CardActionsSkeleton, CardSkeleton } from '@/components/card-skeleton';
import { PlanLimitAlert } from '@/components/plan-limit-notice';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { readPlanLimitError, type PlanLimitInfo } from '@/lib/billing';
import { formatDate } from '@/lib/format';
import { fetchLatestExecution } from '@/lib/queries/executions';

import { useActivateWorkflow } from '../api/activate-workflow';
import { useExecuteWorkflow } from '../api/execute-workflow';
import { usePauseWorkflow } from '../api/pause-workflow';
import { DeleteWorkflowDialog } from './delete-workflow-dialog';
import { ExecuteWorkflowDialog } from './execute-workflow-dialog';
import { ExecutionDetailsDialog } from '@/features/runs/execution-details-dialog';
import { workflowRunsPath } from '@/features/runs/execution-filter-params';
import { TriggerErrorNotice } from './trigger-error-notice';
import { NeedsAttentionBadge, ProcessTypeBadge, WorkflowStatusBadge } from './workflow-badges';
import { pauseMenuAction, primaryAction } from '../workflow-actions';
import { agentCountLabel, countAgents } from './workflow-card-facts';

/** One workflow of the grid (docs/product-rules.md). */
export function WorkflowCard({
  workflow,
  lastExecution,
  mayHaveOlderRuns = false,
}: {
  workflow: Workflow;
  /** The newest execution of this workflow in the loaded list, or null when none is listed. */
  lastExecution: ExecutionSummary | null;
  /**
   * True when the loaded list may not reach back to this workflow's runs (it holds only the newest
   * runs of the organization): Last Result then asks the server for this workflow's newest run.
   */
  mayHaveOlderRuns?: boolean;
}) {
  const queryClient = useQueryClient();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [executeOpen, setExecuteOpen] = useState(false);
  // A 402 plan_limit (monthly executions used up): shown in the Execute dialog with 'Upgrade'.
  const [planLimit, setPlanLimit] = useState<PlanLimitInfo | null>(null);
  const [result, setResult] = useState<ExecutionSummary | null>(null);
  const [showResult, setShowResult] = useState(false);
  const [lookingUp, setLookingUp] = useState(false);
  const activate = useActivateWorkflow();
  const execute = useExecuteWorkflow();
  const pause = usePauseWorkflow();
  const action = primaryAction(workflow.status);
  const menuAction = pauseMenuAction(workflow.status);
  const resume = () => activate.mutate({ id: workflow.id, name: workflow.name, resume: true });
  const agents = countAgents(workflow.nodes);

  /** Last Result: the newest run of this workflow (by createdAt); nothing happens without one. */
  const openLastResult = async () => {
    let latest = lastExecution;
    if (!latest && mayHaveOlderRuns) {
      setLookingUp(true);
      try {
        latest = await fetchLatestExecution(queryClient, workflow.id);
      } catch {
        latest = null;
      } finally {
        setLookingUp(false);
      }
    }
    if (!latest) return;
    setResult(latest);
    setShowResult(true);
  };

  return (
    <Card
      role="article"
      aria-label={workflow.name}
      data-testid="workflow-card"
      data-workflow-id={workflow.id}
      className="h-full gap-0 py-0 transition-[border-color,box-shadow] hover:border-primary/30 hover:shadow-md"
    >
      <div className="flex items-start gap-3 px-5 pt-5">
        <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
          <WorkflowIcon className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="truncate leading-tight font-semibold" title={workflow.name}>
            <Link
              to={`/workflows/edit/${encodeURIComponent(workflow.id)}`}
              className="rounded-sm hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              {workflow.name}
            </Link>
          </h3>
          <div className="mt-2 flex flex-wrap items-center gap-1.5">
            <ProcessTypeBadge processType={workflow.processType} />
            <WorkflowStatusBadge status={workflow.status} />
            {workflow.needsAttention && <NeedsAttentionBadge problems={workflow.problems ?? []} />}
          </div>
          {workflow.needsAttention && (
            <p className="mt-1.5 text-xs text-red-700 dark:text-red-400">Uses a deleted agent</p>
          )}
        </div>
        <CardActionsMenu
          thing="Workflow"
          editTo={`/workflows/edit/${encodeURIComponent(workflow.id)}`}
          onDelete={() => setConfirmDelete(true)}
          className="-mt-1 -mr-2"
        >
          {menuAction === 'pause' && (
            <DropdownMenuItem
              disabled={pause.isPending}
              onSelect={() => pause.mutate({ id: workflow.id, name: workflow.name })}
            >
              <Pause aria-hidden="true" />
              Pause
            </DropdownMenuItem>
          )}
          {menuAction === 'resume' && (
            <DropdownMenuItem disabled={activate.isPending} onSelect={resume}>
              <Play aria-hidden="true" />
              Resume
            </DropdownMenuItem>
          )}
          <DropdownMenuItem asChild>
            <Link to={workflowRunsPath(workflow.id)}>
              <History aria-hidden="true" />
              View Executions
            </Link>
          </DropdownMenuItem>
        </CardActionsMenu>
      </div>

      <div className="flex flex-1 flex-col gap-4 px-5 py-4">
        {workflow.description ? (
          <p
            className="line-clamp-3 text-sm break-words text-muted-foreground"
            title={workflow.description}
            data-testid="workflow-description"
          >
            {workflow.description}
          </p>
        ) : (
          <p className="text-sm text-muted-foreground/70 italic">No description</p>
        )}

        <TriggerErrorNotice error={workflow.lastTriggerError} />

        <dl className="mt-auto grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border bg-muted/30 p-3 text-sm">
          <div className="min-w-0 space-y-1">
            <dt className="text-xs text-muted-foreground">Agents</dt>
            <dd className="flex items-center gap-1.5 font-medium" data-testid="workflow-agent-count">
              <Bot className="size-4 text-muted-foreground" aria-hidden="true" />
              {agentCountLabel(agents)}
            </dd>
          </div>
          <div className="min-w-0 space-y-1">
            <dt className="text-xs text-muted-foreground">Last Updated</dt>
            <dd className="flex items-center gap-1.5 font-medium" data-testid="workflow-updated">
              <CalendarClock className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="truncate">{formatDate(workflow.updatedAt)}</span>
            </dd>
          </div>
        </dl>
      </div>

      <div className="grid grid-cols-2 gap-2 border-t px-5 py-3">
        {action === 'activate' ? (
          <Button
            type="button"
            size="sm"
            onClick={() => activate.mutate({ id: workflow.id, name: workflow.name })}
            disabled={activate.isPending}
            aria-busy={activate.isPending}
          >
            {activate.isPending ? <Spinner /> : <Rocket aria-hidden="true" />}
            {activate.isPending ? 'Activating...' : 'Activate'}
          </Button>
        ) : action === 'resume' ? (
          <Button
            type="button"
            size="sm"
            onClick={resume}
            disabled={activate.isPending}
            aria-busy={activate.isPending}
          >
            {activate.isPending ? <Spinner /> : <Play aria-hidden="true" />}
            {activate.isPending ? 'Resuming...' : 'Resume'}
          </Button>
        ) : (
          <Button
            type="button"
            size="sm"
            onClick={() => setExecuteOpen(true)}
            disabled={execute.isPending}
            aria-busy={execute.isPending}
          >
            {execute.isPending ? <Spinner /> : <Play aria-hidden="true" />}
            {execute.isPending ? 'Starting...' : 'Execute'}
          </Button>
        )}
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={(!lastExecution && !mayHaveOlderRuns) || lookingUp}
          aria-busy={lookingUp}
          onClick={openLastResult}
        >
          {lookingUp ? <Spinner /> : <FileText aria-hidden="true" />}
          Last Result
        </Button>
      </div>

      <DeleteWorkflowDialog workflow={workflow} open={confirmDelete} onOpenChange={setConfirmDelete} />
      <ExecuteWorkflowDialog
        workflowName={workflow.name}
        open={executeOpen}
        onOpenChange={(next) => {
          setPlanLimit(null);
          setExecuteOpen(next);
        }}
        pending={execute.isPending}
        onExecute={(body, done) => {
          setPlanLimit(null);
          execute.mutate(
            { id: workflow.id, name: workflow.name, body },
            { onSuccess: done, onError: (error) => setPlanLimit(readPlanLimitError(error)) },
          );
        }}
        notice={<PlanLimitAlert info={planLimit} />}
      />
      {result && (
        <ExecutionDetailsDialog
          key={result.id}
          execution={result}
          workflowName={workflow.name}
          open={showResult}
          onOpenChange={setShowResult}
        />
      )}
    </Card>
  );
}

/** The placeholder of a card while the list loads. */
export function WorkflowCardSkeleton() {
  return (
    <CardSkeleton testId="workflow-card-skeleton">
      <div className="flex items-start gap-3 px-5 pt-5">
        <Skeleton className="size-10 rounded-lg" />
        <div className="flex-1 space-y-2 pt-0.5">
          <Skeleton className="h-4 w-2/3" />
          <div className="flex gap-1.5">
            <Skeleton className="h-5 w-20" />
            <Skeleton className="h-5 w-16" />
          </div>
        </div>
      </div>
      <div className="space-y-4 px-5 py-4">
        <div className="space-y-2">
          <Skeleton className="h-3 w-full" />
          <Skeleton className="h-3 w-4/5" />
        </div>
        <Skeleton className="h-16 w-full rounded-lg" />
      </div>
      <CardActionsSkeleton />
    </CardSkeleton>
  );
}
