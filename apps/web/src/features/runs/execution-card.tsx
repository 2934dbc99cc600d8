import type { Execution, ExecutionSummary, Workflow } from '@crewline/contracts';
import { isRunActive } from '@crewline/contracts/vocabulary';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Braces, CircleStop, Download, Eye, Hourglass, RotateCcw } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { CardActionsSkeleton, CardSkeleton } from '@/components/card-skeleton';
import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime, formatSeconds } from '@/lib/format';
import { queryKeys } from '@/lib/queries/keys';
import { runDetailsPath } from '@/lib/run-links';
import { useWorkflowVersion } from '@/lib/queries/workflow-versions';

import { useCancelExecution } from './api/cancel-execution';
import { useRetryExecution } from './api/retry-execution';
import { toast } from '@/components/ui/use-toast';

import { downloadExecutionOutputById } from './download-output';
import { ExecutionErrorBox, RetryLinks } from './execution-details-dialog';
import {
  agentLabelsOf,
  cardCostText,
  executionDurationSeconds,
  DOWNLOAD_FAILED_TOAST,
  hasResult,
  outputJson,
  processTypeLabel,
  readableOutput,
  shortId,
  triggeredByLabel,
  waitingText,
} from './execution-facts';
import { useNow } from '@/lib/use-now';
import { NOTHING_HEARD } from '@/lib/runs/run-state';
import { useRun } from '@/lib/runs/run-store';
import { canRetry, retryLinks, runErrorText, versionLabel } from './run-review';
import { heardFromOutput, mergeHeard, runPlanOf, stepProgressLabel } from './step-progress';
import { ExecutionStatusBadge } from './execution-status-badge';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd
        className="truncate font-medium"
        data-testid={testId}
        title={typeof children === 'string' ? children : undefined}
      >
        {children}
      </dd>
    </div>
  );
}

/**
 * The final answer as readable text (one text per agent for a parallel run), with its raw JSON one
 * click away on the JSON toggle.
 */
function OutputBox({
  result,
  processType,
  agentLabels,
}: {
  result: string;
  processType: string | null;
  agentLabels?: Readonly<Record<string, string>>;
}) {
  const [asJson, setAsJson] = useState(false);
  const titleId = useId();
  const sections = readableOutput({ result, processType }, agentLabels);
  const box =
    'max-h-40 overflow-auto rounded-lg border bg-muted/40 p-3 text-xs leading-relaxed break-words whitespace-pre-wrap';
  return (
    <div className="min-w-0 space-y-1.5">
      <div className="flex items-center justify-between gap-2">
        <p id={titleId} className="text-xs font-medium text-muted-foreground">
          Output
        </p>
        <Button
          type="button"
          variant={asJson ? 'secondary' : 'ghost'}
          size="sm"
          className="h-6 px-2 text-xs"
          aria-pressed={asJson}
          onClick={() => setAsJson((on) => !on)}
        >
          <Braces aria-hidden="true" />
          JSON
        </Button>
      </div>
      {asJson ? (
        <pre
          className={`${box} font-mono`}
          data-testid="execution-output-json"
          tabIndex={0}
          aria-labelledby={titleId}
        >
          {outputJson(result)}
        </pre>
      ) : (
        <div
          className={`${box} space-y-2`}
          data-testid="execution-output"
          tabIndex={0}
          aria-labelledby={titleId}
        >
          {sections.map((section) => (
            <div key={section.key}>
              {section.label && <p className="font-semibold text-foreground">{section.label}</p>}
              <p>{section.text}</p>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * One run on the Executions tab (docs/product-rules.md): name, short id, status, Started, Duration (ticking
 * while running), Triggered By, Process Type, the Error and Output boxes, View Details, Download
 * Results, Cancel while the run is pending, running or waiting (with what it waits for), and Retry
 * once it failed or was cancelled.
 */
export function ExecutionCard({
  execution,
  workflowName,
  workflow,
  onViewDetails,
  selected,
  onSelectedChange,
}: {
  execution: ExecutionSummary;
  workflowName: string;
  /**
   * The run's workflow as it is now: its agents name a parallel run's texts, and the step in
   * progress of a run without a pinned version.
   */
  workflow?: Pick<Workflow, 'nodes' | 'edges'>;
  onViewDetails: () => void;
  /** Whether the run is selected for 'Add to dataset'; no checkbox without `onSelectedChange`. */
  selected?: boolean;
  onSelectedChange?: (selected: boolean) => void;
}) {
  const cancel = useCancelExecution();
  const retry = useRetryExecution();
  const active = isRunActive(execution.status);
  const now = useNow(active && !!execution.startedAt);
  const queryClient = useQueryClient();
  const withOutput = hasResult(execution.result);
  const id = shortId(execution.id);
  const running = execution.status === 'running';
  // The run's step events heard so far (for 'Step 2 of 3 · Analyst' while it runs).
  const run = useRun(execution.id);
  const stepsHeard =
    run && (run.heard.started.length > 0 || run.heard.ended.length > 0) ? run.heard : undefined;
  // A run already under way when the page opened: its stored outputs say which steps are done.
  const stored = useQuery<Execution>({
    queryKey: queryKeys.executions.detail(execution.id),
    enabled: running && !stepsHeard,
    staleTime: 30_000,
  });
  const heard = mergeHeard(
    stored.data ? heardFromOutput(stored.data.output) : NOTHING_HEARD,
    stepsHeard ?? NOTHING_HEARD,
  );
  // The version the run is pinned to (read once: a version never changes) plans its steps.
  const pinned = useWorkflowVersion(running ? execution.workflowId : null, execution.workflowVersion);
  const plan = runPlanOf(execution, { data: pinned.data, failed: pinned.isError }, workflow);
  const step = running && plan ? stepProgressLabel(plan.processType, plan, heard) : null;
  const errorText = runErrorText(execution);
  // A waiting run holds no worker: it says what it waits for instead of a step in progress.
  const waiting = execution.status === 'waiting' ? waitingText(execution.waiting) : null;
  const cost = cardCostText(execution.costUsd);

  return (
    <Card
      role="article"
      aria-label={`${workflowName} execution ${id}`}
      data-testid="execution-card"
      data-execution-id={execution.id}
      className="h-full gap-0 py-0 transition-[border-color,box-shadow] hover:border-primary/30 hover:shadow-md"
    >
      <div className="flex items-start justify-between gap-3 px-5 pt-5">
        {onSelectedChange && (
          <Checkbox
            className="mt-0.5"
            checked={selected ?? false}
            onCheckedChange={(checked) => onSelectedChange(checked === true)}
            aria-label={`Select run ${id}`}
          />
        )}
        <div className="min-w-0 flex-1">
          <h3 className="truncate leading-tight font-semibold" title={workflowName}>
            <Link
              to={runDetailsPath(execution.id)}
              className="rounded-sm hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              {workflowName}
            </Link>
          </h3>
          <p className="mt-1 text-xs text-muted-foreground">
            ID: <span className="font-mono">{id}</span>
            {execution.workflowVersion !== null && (
              <span data-testid="execution-version"> · {versionLabel(execution.workflowVersion)}</span>
            )}
            {cost && (
              <>
                {' · '}
                <span
                  className="tabular-nums"
                  data-testid="execution-cost"
                  title={
                    execution.costUsd === null
                      ? 'A model this run called has no price: see the run’s details'
                      : 'What this run’s model calls cost'
                  }
                >
                  {cost}
                </span>
              </>
            )}
          </p>
        </div>
        <ExecutionStatusBadge status={execution.status} className="shrink-0" />
      </div>

      <div className="flex flex-1 flex-col gap-3 px-5 py-4">
        {waiting && (
          <p
            className="flex min-w-0 items-center gap-2 text-sm font-medium text-violet-700 dark:text-violet-300"
            data-testid="execution-waiting"
          >
            <Hourglass className="size-3.5 shrink-0" aria-hidden="true" />
            <span className="truncate" title={waiting}>
              {waiting}
            </span>
          </p>
        )}
        {step && (
          <p
            className="flex min-w-0 items-center gap-2 text-sm font-medium text-primary"
            data-testid="execution-step"
            aria-live="polite"
          >
            <Spinner className="size-3.5 shrink-0" />
            <span className="truncate" title={step}>
              {step}
            </span>
          </p>
        )}
        <dl className="grid grid-cols-[minmax(0,3fr)_minmax(0,2fr)] gap-x-4 gap-y-3 rounded-lg border bg-muted/30 p-3 text-sm">
          <Field label="Started" testId="execution-started">
            {formatDateTime(execution.startedAt, 'Not started')}
          </Field>
          <Field label="Duration" testId="execution-duration">
            <span className="tabular-nums">{formatSeconds(executionDurationSeconds(execution, now))}</span>
          </Field>
          <Field label="Triggered By" testId="execution-triggered-by">
            {triggeredByLabel(execution)}
            {execution.untrusted && (
              <span
                className="ml-1.5 rounded-sm bg-amber-100 px-1 py-px text-[11px] font-medium text-amber-800 dark:bg-amber-950 dark:text-amber-300"
                data-testid="execution-untrusted"
                title="Started from outside the organization: its write tool calls wait for approval and agent memory learns nothing from it"
              >
                Untrusted
              </span>
            )}
          </Field>
          <Field label="Process Type" testId="execution-process-type">
            {processTypeLabel(execution.processType)}
          </Field>
        </dl>

        {errorText && <ExecutionErrorBox error={errorText} className="max-h-32 overflow-y-auto" />}
        <RetryLinks links={retryLinks(execution)} />

        {hasResult(execution.result) && (
          <OutputBox
            result={execution.result}
            processType={execution.processType}
            agentLabels={agentLabelsOf(workflow)}
          />
        )}
      </div>

      <div className="mt-auto flex flex-wrap gap-2 border-t px-5 py-3">
        <Button type="button" variant="outline" size="sm" className="flex-1" onClick={onViewDetails}>
          <Eye aria-hidden="true" />
          View Details
        </Button>
        {withOutput && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="flex-1"
            onClick={() =>
              downloadExecutionOutputById(queryClient, execution.id).catch(() => toast(DOWNLOAD_FAILED_TOAST))
            }
          >
            <Download aria-hidden="true" />
            Download Results
          </Button>
        )}
        {active && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="flex-1 text-destructive hover:bg-destructive/10 hover:text-destructive"
            onClick={() => cancel.mutate(execution.id)}
            disabled={cancel.isPending}
            aria-busy={cancel.isPending}
          >
            {cancel.isPending ? <Spinner /> : <CircleStop aria-hidden="true" />}
            {cancel.isPending ? 'Cancelling...' : 'Cancel'}
          </Button>
        )}
        {canRetry(execution) && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="flex-1"
            onClick={() => retry.mutate({ id: execution.id, workflowName })}
            disabled={retry.isPending}
            aria-busy={retry.isPending}
          >
            {retry.isPending ? <Spinner /> : <RotateCcw aria-hidden="true" />}
            {retry.isPending ? 'Retrying...' : 'Retry'}
          </Button>
        )}
      </div>
    </Card>
  );
}

/** The placeholder of an execution card while the list loads. */
export function ExecutionCardSkeleton() {
  return (
    <CardSkeleton testId="execution-card-skeleton">
      <div className="flex items-start justify-between gap-3 px-5 pt-5">
        <div className="flex-1 space-y-2">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-3 w-24" />
        </div>
        <Skeleton className="h-5 w-20" />
      </div>
      <div className="px-5 py-4">
        <Skeleton className="h-[7.5rem] w-full rounded-lg" />
      </div>
      <CardActionsSkeleton />
    </CardSkeleton>
  );
}
