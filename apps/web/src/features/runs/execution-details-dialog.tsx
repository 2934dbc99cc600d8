import type { Execution, ExecutionSummary, NodeKind } from '@crewline/contracts';
import { isRunActive } from '@crewline/contracts/vocabulary';
import {
  Bot,
  CircleSlash,
  Clock,
  CodeXml,
  Coins,
  Download,
  FileText,
  Hourglass,
  Merge,
  Network,
  Recycle,
  RotateCcw,
  ScrollText,
  ShieldCheck,
  SlidersHorizontal,
  Split,
  UserCheck,
  Variable,
  type LucideIcon,
} from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { Spinner } from '@/components/spinner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatDateTime, formatNumber, formatSeconds } from '@/lib/format';
import { executionPlaceholder } from '@/lib/execution-summaries';
import { useExecution } from '@/lib/queries/executions';
import { runDetailsPath } from '@/lib/run-links';
import { useWorkflowVersion } from '@/lib/queries/workflow-versions';
import { useExecutionApprovals } from '@/lib/approvals/approval-lists';
import { useWatchWorkflow } from '@/lib/realtime';
import type { RunStep } from '@/lib/runs/run-state';
import { useRun } from '@/lib/runs/run-store';
import { cn } from '@/lib/utils';

import { useRetryExecution } from './api/retry-execution';
import { ExecutionApprovals, peopleOf, runHasApprovals } from './execution-approvals';
import { RunGraphDialog } from './run-graph-dialog';
import { LiveStepCard } from './live-step-card';
import { downloadExecutionOutput } from './download-output';
import {
  executionDurationSeconds,
  executionMetrics,
  executionWorkflowName,
  formatOutputJson,
  hasOutput,
  processTypeLabel,
  ranCount,
  readableOutputs,
  runCostFact,
  shortId,
  stepCostText,
  stepsLabel,
  triggeredByLabel,
  waitedText,
} from './execution-facts';
import { useNow } from '@/lib/use-now';
import {
  canRetry,
  canRetryFromApproval,
  canRetryFromStep,
  inRunOrder,
  resultEntries,
  retryLinks,
  reusedFromLabel,
  reusedSteps,
  runErrorText,
  versionLabel,
} from './run-review';
import { StepInspector } from './step-inspector';
import {
  failedStepsWithRecords,
  noModelSummary,
  stepEvaluations,
  stepRecords,
  type BranchDefinition,
} from './step-records';
import { agentName, plannedSteps } from './step-progress';
import { ExecutionStatusBadge } from './execution-status-badge';

/** Each step kind's icon on its output card (a step stored before kinds were kept is an agent's). */
const KIND_ICONS: Partial<Record<NodeKind, LucideIcon>> = {
  condition: Split,
  guardrail: ShieldCheck,
  transform: Variable,
  code: CodeXml,
  merge: Merge,
  approval: UserCheck,
  delay: Hourglass,
};

/** A condition node's branches in its version (the step inspector lists the ones never evaluated too). */
function branchesOf(node: { data?: Record<string, unknown> } | undefined): BranchDefinition[] | undefined {
  const branches = node?.data?.branches;
  if (!Array.isArray(branches)) return undefined;
  return branches.filter(
    (b): b is BranchDefinition =>
      typeof b === 'object' &&
      b !== null &&
      typeof b.id === 'string' &&
      typeof b.label === 'string' &&
      typeof b.when === 'string',
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0 space-y-1">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="truncate font-medium">{children}</dd>
    </div>
  );
}

/** The red 'Error:' box of a failed run (also used on the execution card). */
export function ExecutionErrorBox({ error, className }: { error: string; className?: string }) {
  return (
    <div
      className={cn(
        'rounded-lg border border-red-500/30 bg-red-500/10 p-3 text-sm text-red-700 dark:text-red-400',
        className,
      )}
      data-testid="execution-error"
    >
      <p className="font-medium">Error:</p>
      <p className="mt-1 break-words whitespace-pre-wrap">{error}</p>
    </div>
  );
}

/**
 * 'Retried as run #b2c3d4e5 →' on a run that was retried, 'Retry of run #1a2b3c4d' on the retry: each
 * opens the other's details (also used on the execution card).
 */
export function RetryLinks({
  links,
  className,
}: {
  links: ReturnType<typeof retryLinks>;
  className?: string;
}) {
  if (!links.retriedAs && !links.retryOf) return null;
  return (
    <p
      className={cn('flex flex-wrap gap-x-4 gap-y-1 text-sm', className)}
      data-testid="execution-retry-links"
    >
      {links.retryOf && (
        <Link to={runDetailsPath(links.retryOf.id)} className="text-muted-foreground hover:underline">
          {links.retryOf.label}
        </Link>
      )}
      {links.retriedAs && (
        <Link to={runDetailsPath(links.retriedAs.id)} className="font-medium text-primary hover:underline">
          {links.retriedAs.label} <span aria-hidden="true">→</span>
        </Link>
      )}
    </p>
  );
}

/** The run's final result, shown before anything else: one text, or one per agent for a parallel run. */
function ResultSection({ execution }: { execution: Execution }) {
  const entries = resultEntries(execution.result, execution.output);
  if (entries.length === 0) return null;
  return (
    <section className="space-y-1.5" aria-labelledby="execution-result-title" data-testid="execution-result">
      <h3 id="execution-result-title" className="text-xs font-medium text-muted-foreground">
        Result
      </h3>
      {entries.map((entry) => (
        <div key={entry.key} className="overflow-hidden rounded-lg border border-primary/25 bg-primary/5">
          {entry.agentName && (
            <p
              className="border-b border-primary/15 px-3 py-1.5 text-xs font-medium"
              data-testid="execution-result-agent"
            >
              {entry.agentName}
            </p>
          )}
          {/* Model text is shown as text: React escapes it, whitespace is kept. */}
          <div
            className="max-h-64 overflow-y-auto px-3 py-2.5 text-sm leading-relaxed break-words whitespace-pre-wrap"
            data-testid="execution-result-text"
          >
            {entry.text}
          </div>
        </div>
      ))}
    </section>
  );
}

const LOG_TONE: Record<string, string> = {
  info: 'text-muted-foreground',
  warn: 'text-amber-700 dark:text-amber-400',
  error: 'text-red-700 dark:text-red-400',
};

function formatLogTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime())
    ? at
    : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/**
 * The execution-details dialog (docs/product-rules.md), opened by an execution
 * card's View Details and a workflow card's Last Result: facts, the 'Error:' box, per-node outputs
 * (plain text, never HTML), logs, what the run was started with, and the JSON download. While the
 * run is active it is re-read on realtime events and its duration ticks.
 */
export function ExecutionDetailsDialog({
  execution: initial,
  workflowName,
  open,
  onOpenChange,
  onRetried,
}: {
  /** The run as the list knows it (its summary); the dialog reads the whole run by id while open. */
  execution: ExecutionSummary;
  workflowName?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Shows the new run a Retry started; without it the dialog closes and the list shows the new run. */
  onRetried?: (execution: Execution) => void;
}) {
  const placeholder = useMemo(() => executionPlaceholder(initial), [initial]);
  const query = useExecution(initial.id, { enabled: open, placeholder });
  const execution = query.data ?? placeholder;
  const active = isRunActive(execution.status);
  const now = useNow(open && active && !!execution.startedAt);

  // What each step's model was asked and did, and what each step that calls no model evaluated (the
  // details' read carries the steps; the list's does not).
  const records = stepRecords(execution.steps);
  const evaluations = stepEvaluations(execution.steps);
  const failedSteps = failedStepsWithRecords(execution.steps, execution.output);
  // Steps still running, their answers as the model writes them (until the run is read again).
  const run = useRun(open ? execution.id : null, open ? query.data : undefined);
  // A step that waits (an approval, a delay) writes no answer: the approvals section shows it.
  const liveSteps = ((open && active && run?.steps) || []).filter((step) => !step.waiting);
  // Deciders' names for the approval steps' inspectors (the run's approvals carry them).
  const approvals = useExecutionApprovals(execution.id, open && runHasApprovals(execution));
  const people = peopleOf(approvals.decided.data);
  useWatchWorkflow(open && active ? execution.workflowId : null);
  // A step heard from mid-way (no started event) is named by the run's own version of the workflow.
  const unnamed = liveSteps.some((step) => !step.agentName);
  // Steps that are not agents' are named by their nodes' labels (and a condition's branches listed).
  const kinds = Object.values(execution.output).some(
    (step) => (step.kind && step.kind !== 'agent') || step.status === 'skipped',
  );
  // A run that ended short of its plan counts its steps out of the version's (Steps '1 / 2').
  const endedShort = execution.status === 'failed' || execution.status === 'cancelled';
  const pinned = useWorkflowVersion(
    unnamed || endedShort || kinds ? execution.workflowId : null,
    execution.workflowVersion,
  );
  // A hierarchical lead delegates as it sees fit: its run has no planned count. A step whose path
  // was not taken is no step of the run: it is not counted.
  const planned =
    endedShort && pinned.data && execution.processType !== 'hierarchical'
      ? plannedSteps(execution.processType, pinned.data).filter(
          (id) => execution.output[id]?.status !== 'skipped',
        ).length
      : null;
  const versionNodes = pinned.data?.nodes;
  const outputs = inRunOrder(readableOutputs(execution.output, versionNodes), execution);
  const liveName = (step: RunStep) =>
    step.agentName ?? (pinned.data ? agentName(pinned.data.nodes, step.baseNodeId) : 'Agent');
  // A step that ended shows what was streamed until the run's read brings its stored answer.
  const running = liveSteps.filter((step) => step.status !== 'failed' && !execution.output[step.stepId]);
  const logs = execution.logs;
  const metrics = executionMetrics(execution.metrics);
  const cost = runCostFact(execution.metrics);
  const waited = waitedText(execution.waitedMs);
  const parameters = Object.entries(execution.parameters ?? {});
  const input = execution.input ?? {};
  const name = workflowName || executionWorkflowName(execution, undefined);
  const version = versionLabel(execution.workflowVersion);
  const reused = reusedSteps(execution.output);
  const retryable = canRetry(execution);
  const links = retryLinks(execution);
  const errorText = runErrorText(execution);
  const retryFromStep = canRetryFromStep(execution);
  const [graphOpen, setGraphOpen] = useState(false);
  // The graph closes with the details, so opening them again shows the details first.
  if (!open && graphOpen) setGraphOpen(false);
  const retry = useRetryExecution();
  const startRetry = (fromNodeId?: string, fromStepName?: string) =>
    retry.mutate(
      { id: execution.id, workflowName: name, fromNodeId, fromStepName },
      {
        onSuccess: (next) => {
          if (next?.id && onRetried) onRetried(next);
          else onOpenChange(false);
        },
      },
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="flex max-h-[90svh] flex-col gap-4 overflow-hidden p-0 sm:max-w-3xl"
        data-testid="execution-details"
      >
        <DialogHeader className="border-b px-6 pt-6 pb-4">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2 pr-8">
            <DialogTitle>Execution Details</DialogTitle>
            <ExecutionStatusBadge status={execution.status} />
            {version && (
              <span
                className="rounded-md border px-1.5 py-0.5 font-mono text-xs text-muted-foreground"
                title={
                  version === 'Draft'
                    ? 'This run executed a snapshot of the draft, for an evaluation'
                    : `This run executed version ${execution.workflowVersion} of the workflow`
                }
                data-testid="execution-version"
              >
                {version}
              </span>
            )}
            {version && (
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="h-7 px-2.5 text-xs"
                onClick={() => setGraphOpen(true)}
              >
                <Network aria-hidden="true" />
                View graph
              </Button>
            )}
          </div>
          <DialogDescription className="break-words">
            {name} · ID <span className="font-mono">{shortId(execution.id)}</span>
          </DialogDescription>
        </DialogHeader>

        <div className="min-h-0 flex-1 space-y-4 overflow-y-auto px-6">
          <ResultSection execution={execution} />
          {errorText && <ExecutionErrorBox error={errorText} />}
          <RetryLinks links={links} />
          <ExecutionApprovals execution={execution} open={open} />

          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg border bg-muted/30 p-3 text-sm sm:grid-cols-3">
            <Fact label="Started">{formatDateTime(execution.startedAt, 'Not started')}</Fact>
            <Fact label="Duration">
              <span className="tabular-nums" data-testid="execution-duration">
                {formatSeconds(executionDurationSeconds(execution, now))}
              </span>
              {waited && (
                <span
                  className="block text-xs font-normal text-muted-foreground tabular-nums sm:ml-2 sm:inline"
                  data-testid="execution-waited"
                >
                  {waited}
                </span>
              )}
            </Fact>
            <Fact label="Triggered By">{triggeredByLabel(execution)}</Fact>
            <Fact label="Process Type">{processTypeLabel(execution.processType)}</Fact>
            <Fact label="Total Tokens">
              <span className="tabular-nums" data-testid="execution-tokens">
                {metrics.totalTokens !== null ? formatNumber(metrics.totalTokens) : '—'}
              </span>
            </Fact>
            {cost && (
              <Fact label="Cost">
                <span className="tabular-nums" data-testid="execution-cost" title={cost.note ?? undefined}>
                  {cost.amount}
                </span>
                {cost.note && (
                  <span
                    className="block truncate text-xs font-normal text-muted-foreground"
                    title={cost.note}
                    data-testid="execution-cost-note"
                  >
                    {cost.note}
                  </span>
                )}
              </Fact>
            )}
            <Fact label="Steps">
              <span className="tabular-nums" data-testid="execution-steps">
                {stepsLabel(metrics.steps, planned)}
              </span>
            </Fact>
          </dl>

          <Tabs defaultValue="output" className="gap-3 pb-2">
            <TabsList className="w-full sm:w-fit">
              <TabsTrigger value="output" className="px-3">
                <FileText aria-hidden="true" />
                Output
                {ranCount(outputs) > 0 && (
                  <span className="text-xs text-muted-foreground">{ranCount(outputs)}</span>
                )}
              </TabsTrigger>
              <TabsTrigger value="logs" className="px-3">
                <ScrollText aria-hidden="true" />
                Logs
                {logs.length > 0 && <span className="text-xs text-muted-foreground">{logs.length}</span>}
              </TabsTrigger>
              <TabsTrigger value="input" className="px-3">
                <SlidersHorizontal aria-hidden="true" />
                Input
              </TabsTrigger>
            </TabsList>

            <TabsContent value="output">
              {outputs.length > 0 || failedSteps.length > 0 || running.length > 0 ? (
                <ul className="space-y-3" aria-label="Step outputs">
                  {outputs.map((output) => {
                    const Icon = KIND_ICONS[output.kind] ?? Bot;
                    const agent = output.kind === 'agent';
                    // An agent step of a failed or cancelled run, or the approval a completed run went past.
                    const retryLabel =
                      retryFromStep && agent
                        ? 'Retry from this step'
                        : canRetryFromApproval(execution, output.nodeId)
                          ? 'Retry from this approval'
                          : null;
                    const costText = stepCostText(output.costUsd);
                    const node = versionNodes?.find(
                      (candidate) =>
                        candidate.id ===
                        (execution.output[output.nodeId]?.metadata.baseNodeId ?? output.nodeId),
                    );
                    if (output.status === 'skipped')
                      return (
                        <li
                          key={output.nodeId}
                          className="flex flex-wrap items-center gap-2 rounded-lg border border-dashed px-3 py-2 text-xs text-muted-foreground"
                          data-testid="skipped-step"
                        >
                          <span className="grid size-6 shrink-0 place-items-center rounded-md bg-muted">
                            <Icon className="size-3.5" aria-hidden="true" />
                          </span>
                          <span className="truncate text-sm font-medium">{output.agentName}</span>
                          <span className="inline-flex items-center gap-1 rounded-full border border-dashed px-2 py-0.5 text-[11px] font-medium">
                            <CircleSlash className="size-3" aria-hidden="true" />
                            Skipped
                          </span>
                          <span>Its path was not taken, so it never ran.</span>
                        </li>
                      );
                    const summary = agent
                      ? output.content
                      : noModelSummary(execution.output[output.nodeId]!, evaluations[output.nodeId]);
                    return (
                      <li
                        key={output.nodeId}
                        className="overflow-hidden rounded-lg border"
                        data-testid="agent-output"
                        data-kind={output.kind}
                      >
                        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 border-b bg-muted/30 px-3 py-2 text-xs">
                          <div className="flex min-w-0 flex-wrap items-center gap-2">
                            <span className="grid size-6 shrink-0 place-items-center rounded-md bg-primary/10 text-primary">
                              <Icon className="size-3.5" aria-hidden="true" />
                            </span>
                            <span className="truncate text-sm font-medium" data-testid="agent-output-name">
                              {output.agentName}
                            </span>
                            {reused[output.nodeId] && (
                              <span
                                className="inline-flex shrink-0 items-center gap-1 rounded-full border border-violet-500/30 bg-violet-50 px-2 py-0.5 text-[11px] font-medium text-violet-700 dark:bg-violet-950 dark:text-violet-300"
                                title={`${reusedFromLabel(reused[output.nodeId]!)}: no model call in this run`}
                                data-testid="agent-output-reused"
                              >
                                <Recycle className="size-3" aria-hidden="true" />
                                {reusedFromLabel(reused[output.nodeId]!)}
                              </span>
                            )}
                            <span className="hidden truncate text-muted-foreground sm:inline">
                              {[output.role, output.model].filter(Boolean).join(' · ')}
                            </span>
                          </div>
                          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-muted-foreground tabular-nums">
                            <span
                              className="inline-flex items-center gap-1 whitespace-nowrap"
                              data-testid="agent-output-time"
                            >
                              <Clock className="size-3.5" aria-hidden="true" />
                              {formatNumber(output.executionTime)} ms
                            </span>
                            {(agent || output.totalTokens > 0) && (
                              <span
                                className="inline-flex items-center gap-1 whitespace-nowrap"
                                data-testid="agent-output-tokens"
                              >
                                <Coins className="size-3.5" aria-hidden="true" />
                                {formatNumber(output.totalTokens)} tokens
                                {costText && ` · ${costText}`}
                              </span>
                            )}
                            {retryLabel && (
                              <Button
                                type="button"
                                variant="ghost"
                                size="sm"
                                className="h-6 px-2 text-xs"
                                disabled={retry.isPending}
                                onClick={() => startRetry(output.nodeId, output.agentName)}
                              >
                                <RotateCcw aria-hidden="true" />
                                {retryLabel}
                              </Button>
                            )}
                          </div>
                        </div>
                        {/* Model text is shown as text: React escapes it, whitespace is kept. */}
                        {summary.trim() !== '' && (
                          <div
                            className="max-h-80 overflow-y-auto px-3 py-2.5 text-sm leading-relaxed break-words whitespace-pre-wrap"
                            data-testid="agent-output-content"
                          >
                            {summary}
                          </div>
                        )}
                        <StepInspector
                          record={records[output.nodeId]}
                          usage={execution.output[output.nodeId]?.usage}
                          evaluation={evaluations[output.nodeId]}
                          data={output.data}
                          branches={output.kind === 'condition' ? branchesOf(node) : undefined}
                          kind={output.kind}
                          people={people}
                        />
                      </li>
                    );
                  })}
                  {failedSteps.map((step) => (
                    <li
                      key={`failed-${step.nodeId}`}
                      className="overflow-hidden rounded-lg border border-red-500/30"
                      data-testid="failed-step"
                    >
                      <div className="flex flex-wrap items-center gap-2 bg-red-500/5 px-3 py-2 text-xs">
                        <span className="grid size-6 shrink-0 place-items-center rounded-md bg-red-500/10 text-red-700 dark:text-red-400">
                          <Bot className="size-3.5" aria-hidden="true" />
                        </span>
                        <span className="truncate text-sm font-medium">{step.record.agentName}</span>
                        <span className="font-medium text-red-700 dark:text-red-400">Failed</span>
                      </div>
                      <p className="px-3 py-2.5 text-sm break-words whitespace-pre-wrap text-red-700 dark:text-red-400">
                        {step.error}
                      </p>
                      <StepInspector record={step.record} />
                    </li>
                  ))}
                  {running.map((step) => (
                    <LiveStepCard key={`live-${step.stepId}`} step={step} name={liveName(step)} />
                  ))}
                </ul>
              ) : active ? (
                <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-6 text-center">
                  <Spinner className="size-5 text-muted-foreground" />
                  <p className="font-medium">Waiting for the agents</p>
                  <p className="text-sm text-muted-foreground">Outputs appear here as each agent finishes.</p>
                </div>
              ) : (
                <div className="rounded-lg border border-dashed p-6 text-center">
                  <p className="font-medium">No Agent Outputs</p>
                  <p className="text-sm text-muted-foreground">
                    This execution didn&apos;t produce any readable agent outputs.
                  </p>
                </div>
              )}
            </TabsContent>

            <TabsContent value="logs">
              {logs.length > 0 ? (
                <ol
                  className="divide-y overflow-hidden rounded-lg border font-mono text-xs"
                  aria-label="Execution logs"
                >
                  {logs.map((line, index) => (
                    <li key={index} className="flex gap-3 px-3 py-2">
                      <time dateTime={line.at} className="shrink-0 text-muted-foreground tabular-nums">
                        {formatLogTime(line.at)}
                      </time>
                      <span className={cn('w-10 shrink-0 uppercase', LOG_TONE[line.level] ?? LOG_TONE.info)}>
                        {line.level}
                      </span>
                      <span className="min-w-0 break-words whitespace-pre-wrap">{line.message}</span>
                    </li>
                  ))}
                </ol>
              ) : (
                <div className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
                  {active
                    ? 'Log lines appear here as the run progresses.'
                    : 'This execution has no log lines.'}
                </div>
              )}
            </TabsContent>

            <TabsContent value="input" className="space-y-4">
              <section className="space-y-1.5">
                <h3 className="text-xs font-medium text-muted-foreground">Runtime Instructions</h3>
                {execution.dynamicInstructions ? (
                  <p className="rounded-lg border bg-muted/30 px-3 py-2 text-sm break-words whitespace-pre-wrap">
                    {execution.dynamicInstructions}
                  </p>
                ) : (
                  <p className="text-sm text-muted-foreground">None</p>
                )}
              </section>
              <section className="space-y-1.5">
                <h3 className="text-xs font-medium text-muted-foreground">Parameters</h3>
                {parameters.length > 0 ? (
                  <dl className="divide-y overflow-hidden rounded-lg border text-sm">
                    {parameters.map(([key, value]) => (
                      <div key={key} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3 px-3 py-2">
                        <dt className="truncate font-mono text-xs leading-5" title={key}>
                          {key}
                        </dt>
                        <dd className="break-words whitespace-pre-wrap">
                          {typeof value === 'string' ? value : JSON.stringify(value)}
                        </dd>
                      </div>
                    ))}
                  </dl>
                ) : (
                  <p className="text-sm text-muted-foreground">None</p>
                )}
              </section>
              {hasOutput(input) && (
                <section className="space-y-1.5">
                  <h3 className="text-xs font-medium text-muted-foreground">Input</h3>
                  <pre className="max-h-48 overflow-auto rounded-lg border bg-muted/30 p-3 font-mono text-xs">
                    {formatOutputJson(input)}
                  </pre>
                </section>
              )}
            </TabsContent>
          </Tabs>
        </div>

        <DialogFooter className="border-t px-6 py-4">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          {retryable && (
            <Button
              type="button"
              variant="outline"
              onClick={() => startRetry()}
              disabled={retry.isPending}
              aria-busy={retry.isPending}
            >
              {retry.isPending ? <Spinner /> : <RotateCcw aria-hidden="true" />}
              {retry.isPending ? 'Retrying...' : 'Retry'}
            </Button>
          )}
          <Button
            type="button"
            onClick={() => downloadExecutionOutput(execution)}
            disabled={!hasOutput(execution.output)}
          >
            <Download aria-hidden="true" />
            Download Results
          </Button>
        </DialogFooter>
        {version && (
          <RunGraphDialog
            execution={execution}
            workflowName={name}
            open={graphOpen}
            onOpenChange={setGraphOpen}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
