// The builder's run panel, under the canvas: how the run shown on the nodes is going (or how the last
// one ended), and, unfolded, each of its steps with its answer — streamed as the model writes it,
// then the stored one — and what the model was asked (Inspect step).
import type { ExecutionSummary } from '@crewline/contracts';
import {
  ChevronDown,
  ChevronUp,
  CircleCheck,
  CircleSlash,
  CircleX,
  Clock,
  Coins,
  ExternalLink,
  Hourglass,
  X,
} from 'lucide-react';
import { useState } from 'react';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';
import { useExecution } from '@/lib/queries/executions';
import { summarizeRun, type RunState, type RunStatus } from '@/lib/runs/run-state';
import { useRun } from '@/lib/runs/run-store';
import { cn } from '@/lib/utils';

import { ExecutionDetailsDialog } from '@/features/runs/execution-details-dialog';
import { cardCostText, stepCostText, waitingText } from '@/features/runs/execution-facts';
import { StepInspector } from '@/features/runs/step-inspector';
import { agentName } from '@/features/runs/step-progress';
import { useRunProgressStore } from '../run-progress';
import { panelSteps, type PanelStep } from '../run-panel-steps';
import { useBuilderStore } from '../store';

function summaryText(
  status: RunStatus,
  error: string | null,
  nodes: Parameters<typeof summarizeRun>[0]['nodes'],
  waiting: RunState['waiting'],
) {
  const { running, completed, failed } = summarizeRun({ nodes });
  // Every kind of step counts (agents, conditions, tools, …): the canvas marks them all.
  const done = `${completed} step${completed === 1 ? '' : 's'} done`;
  switch (status) {
    case 'running':
      return running > 0 ? `Run in progress · ${done}, ${running} running` : `Run in progress · ${done}`;
    case 'waiting':
      return `Run ${(waitingText(waiting) ?? 'waiting').replace(/^W/, 'w')} · ${done}`;
    case 'completed':
      return `Last run completed · ${done}`;
    case 'failed':
      return `Last run failed${failed > 0 ? ' at the marked step' : ''}${error ? `: ${error}` : ''}`;
    case 'cancelled':
      return `Last run cancelled · ${done}`;
  }
}

function StatusIcon({ status }: { status: RunStatus }) {
  switch (status) {
    case 'running':
      return (
        <span className="relative flex size-2 shrink-0" aria-hidden="true">
          <span className="absolute inline-flex size-full rounded-full bg-blue-500 opacity-75 motion-safe:animate-ping" />
          <span className="relative inline-flex size-2 rounded-full bg-blue-500" />
        </span>
      );
    case 'completed':
      return (
        <CircleCheck className="size-4 shrink-0 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
      );
    case 'failed':
      return <CircleX className="size-4 shrink-0 text-red-600 dark:text-red-400" aria-hidden="true" />;
    case 'cancelled':
      return <CircleSlash className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />;
    case 'waiting':
      return (
        <Hourglass className="size-4 shrink-0 text-violet-600 dark:text-violet-400" aria-hidden="true" />
      );
  }
}

const STEP_TONE: Record<PanelStep['status'], string> = {
  running: 'border-blue-500/30',
  completed: '',
  failed: 'border-red-500/30',
};

function StepRow({ step }: { step: PanelStep }) {
  return (
    <li
      className={cn('overflow-hidden rounded-lg border bg-card', STEP_TONE[step.status])}
      data-testid="run-panel-step"
      data-step-status={step.waiting ? 'waiting' : step.status}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b bg-muted/30 px-3 py-1.5 text-xs">
        <span className="flex min-w-0 items-center gap-2">
          <span className="truncate text-sm font-medium" data-testid="run-panel-step-name">
            {step.agentName}
          </span>
          {step.waiting && (
            <span className="inline-flex items-center gap-1 text-violet-700 dark:text-violet-300">
              <Hourglass className="size-3" aria-hidden="true" />
              Waiting
            </span>
          )}
          {step.status === 'running' && !step.waiting && (
            <span className="inline-flex items-center gap-1 text-blue-700 dark:text-blue-300">
              <Spinner className="size-3" />
              {step.text ? 'Writing…' : 'Thinking…'}
            </span>
          )}
          {step.status === 'failed' && (
            <span className="font-medium text-red-700 dark:text-red-400">Failed</span>
          )}
        </span>
        {step.status === 'completed' && (
          <span className="flex items-center gap-3 text-muted-foreground tabular-nums">
            {step.executionTime !== undefined && (
              <span className="inline-flex items-center gap-1">
                <Clock className="size-3.5" aria-hidden="true" />
                {formatNumber(step.executionTime)} ms
              </span>
            )}
            {step.totalTokens !== undefined && (
              <span className="inline-flex items-center gap-1">
                <Coins className="size-3.5" aria-hidden="true" />
                {formatNumber(step.totalTokens)} tokens
                {stepCostText(step.costUsd) && ` · ${stepCostText(step.costUsd)}`}
              </span>
            )}
          </span>
        )}
      </div>
      {step.status === 'failed' ? (
        <p className="px-3 py-2 text-sm break-words whitespace-pre-wrap text-red-700 dark:text-red-400">
          {step.error}
        </p>
      ) : (
        // Model text is shown as text: React escapes it, whitespace is kept.
        <div
          className="max-h-48 overflow-y-auto px-3 py-2 text-sm leading-relaxed break-words whitespace-pre-wrap"
          aria-busy={step.streaming}
          data-testid="run-panel-step-text"
        >
          {step.text || (
            <span className="text-muted-foreground">
              {step.waiting
                ? 'The run waits here for a decision or its time; it holds no worker meanwhile.'
                : 'Waiting for the model’s first words…'}
            </span>
          )}
        </div>
      )}
      {step.record && (
        <StepInspector
          record={step.record}
          usage={
            step.costUsd !== undefined
              ? { costUsd: step.costUsd, unpricedModels: step.unpricedModels }
              : undefined
          }
        />
      )}
    </li>
  );
}

export function RunPanel() {
  const executionId = useRunProgressStore((s) => s.executionId);
  const clear = useRunProgressStore((s) => s.clear);
  const expanded = useRunProgressStore((s) => s.panelOpen);
  const setExpanded = useRunProgressStore((s) => s.setPanelOpen);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const query = useExecution(executionId ?? '', { enabled: !!executionId && expanded });
  const execution = query.data?.id === executionId ? query.data : undefined;
  const run = useRun(executionId, execution);
  const status = run?.status;
  if (!status || !run || !executionId) return null;

  const text = summaryText(status, run.error, run.nodes, run.waiting);
  const steps = panelSteps(execution, run.steps, (id) => agentName(useBuilderStore.getState().nodes, id));
  // The run's cost once it ended and its details were read ('Cost unknown' when a model had no price).
  const cost = execution ? cardCostText(execution.metrics.costUsd) : null;

  return (
    <section
      aria-label="Run"
      className={cn(
        'flex shrink-0 flex-col border-t bg-background',
        expanded && 'max-h-[45%] min-h-40',
        status === 'failed' && 'border-t-red-500/30',
      )}
      data-testid="run-panel"
    >
      <div
        className="flex items-center gap-2 px-3 py-1.5 text-xs"
        data-testid="run-progress"
        data-run-status={status}
      >
        <StatusIcon status={status} />
        <span role="status" className="min-w-0 flex-1 truncate" title={text}>
          {text}
        </span>
        {cost && (
          <span
            className="inline-flex shrink-0 items-center gap-1 text-muted-foreground tabular-nums"
            title={
              execution?.metrics.unpricedModels?.length
                ? `No price for ${execution.metrics.unpricedModels.join(', ')}`
                : 'What this run’s model calls cost'
            }
            data-testid="run-panel-cost"
          >
            <Coins className="size-3.5" aria-hidden="true" />
            {cost}
          </span>
        )}
        <span
          className="hidden shrink-0 font-mono text-muted-foreground sm:inline"
          title={`Execution ${executionId}`}
        >
          {executionId.slice(0, 8)}
        </span>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="h-7 px-2 text-xs"
          disabled={!execution}
          onClick={() => setDetailsOpen(true)}
        >
          <ExternalLink aria-hidden="true" />
          Details
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-7"
          onClick={() => setExpanded(!expanded)}
          aria-expanded={expanded}
          aria-controls="run-panel-steps"
          aria-label={expanded ? 'Hide the run’s steps' : 'Show the run’s steps'}
          title={expanded ? 'Hide the run’s steps' : 'Show the run’s steps'}
        >
          {expanded ? <ChevronDown aria-hidden="true" /> : <ChevronUp aria-hidden="true" />}
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-7"
          onClick={clear}
          aria-label="Hide run progress"
          title="Hide run progress"
        >
          <X aria-hidden="true" />
        </Button>
      </div>
      {expanded && (
        <div id="run-panel-steps" className="min-h-0 flex-1 overflow-y-auto border-t px-3 py-2">
          {steps.length > 0 ? (
            <ol className="space-y-2" aria-label="Steps">
              {steps.map((step) => (
                <StepRow key={step.stepId} step={step} />
              ))}
            </ol>
          ) : (
            <p className="flex items-center gap-2 py-3 text-sm text-muted-foreground">
              {status === 'running' && <Spinner className="size-4" />}
              {status === 'running' ? 'Waiting for the first agent…' : 'This run has no step outputs.'}
            </p>
          )}
        </div>
      )}
      {execution && (
        <ExecutionDetailsDialog
          execution={execution as ExecutionSummary}
          open={detailsOpen}
          onOpenChange={setDetailsOpen}
        />
      )}
    </section>
  );
}
