// Pure rules of reading runs (docs/product-rules.md): the execution card's fields and Cancel, the
// details' figures and outputs, and the output's download.
import {
  executionTriggerText,
  isNodeKind,
  nodeKinds,
  stepNodeId,
  type Execution,
  type ExecutionWait,
  type NodeKind,
  type NodeOutput,
  type Workflow,
} from '@crewline/contracts';
import { isRunActive } from '@crewline/contracts/vocabulary';

import { capitalize, formatCost, formatSeconds } from '@/lib/format';

/* ----------------------------------------------------------------------------------------------
 * Execution card and details
 * -------------------------------------------------------------------------------------------- */

/**
 * What a waiting run waits for, as its card and details say it: 'Waiting for approval · <title>', or
 * 'Waiting until <local date and time>' for a delay; null when it waits for nothing.
 */
export function waitingText(
  waiting: Pick<ExecutionWait, 'kind' | 'title' | 'until'> | null | undefined,
  locale?: string,
): string | null {
  if (!waiting) return null;
  if (waiting.kind === 'approval')
    return waiting.title ? `Waiting for approval · ${waiting.title}` : 'Waiting for approval';
  const until = waiting.until ? new Date(waiting.until) : null;
  if (!until || Number.isNaN(until.getTime())) return 'Waiting';
  return `Waiting until ${until.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}`;
}

/** Execution ids are shown truncated to 8 characters. */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** The workflow name of an execution card, falling back to 'Unknown Workflow'. */
export function executionWorkflowName(
  execution: Pick<Execution, 'workflowId'> & { workflowName?: string | null },
  workflows: readonly Pick<Workflow, 'id' | 'name'>[] | null | undefined,
): string {
  if (execution.workflowName) return execution.workflowName;
  return workflows?.find((workflow) => workflow.id === execution.workflowId)?.name || 'Unknown Workflow';
}

function toTime(value: string | null | undefined): number | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/**
 * Whole seconds between start and completion, or between start and now while the run is active
 * (docs/product-rules.md); null when it has not started, or ended without a completion time.
 */
export function executionDurationSeconds(
  execution: Pick<Execution, 'status' | 'startedAt' | 'completedAt'>,
  now: number,
): number | null {
  const start = toTime(execution.startedAt);
  if (start === null) return null;
  const end = toTime(execution.completedAt) ?? (isRunActive(execution.status) ? now : null);
  if (end === null) return null;
  return Math.max(0, Math.floor((end - start) / 1000));
}

/**
 * 'Waited 5m 2s' beside a run's duration: the time it spent waiting (for an approval, a delay's end),
 * in whole seconds like the duration; null for a run that never waited.
 */
export function waitedText(waitedMs: number | undefined): string | null {
  if (!waitedMs || waitedMs <= 0) return null;
  return `Waited ${formatSeconds(Math.floor(waitedMs / 1000))}`;
}

/**
 * Triggered By: the person who started a manual run ('System' when unknown), or the trigger that
 * started it, with what it names ('MCP · Claude': the MCP client) (docs/product-rules.md).
 */
export function triggeredByLabel(
  execution: Pick<Execution, 'trigger' | 'triggeredByName'> & { triggerDetail?: string | null },
): string {
  if (execution.trigger !== 'manual') return executionTriggerText(execution);
  return execution.triggeredByName?.trim() || 'System';
}

/** Process Type defaults to 'Unknown' (docs/product-rules.md). */
export function processTypeLabel(processType: string | null | undefined): string {
  return capitalize(processType?.trim()) || 'Unknown';
}

/** The details' Download Results is enabled only when the output map has entries (and the Input box when the input has). */
export function hasOutput(output: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(output).length > 0;
}

/** The card's Output box and Download Results appear only when the run has a final result. */
export function hasResult(result: string | null | undefined): result is string {
  return typeof result === 'string' && result.length > 0;
}

export const EXECUTION_CANCELLED_TOAST = {
  title: 'Execution Cancelled',
  description: 'The run has been stopped',
} as const;

export function cancelFailedToast(serverMessage?: string | null) {
  return {
    variant: 'destructive',
    title: 'Cancel Failed',
    description: serverMessage || 'Failed to cancel the execution',
  } as const;
}

export const DOWNLOAD_FAILED_TOAST = {
  variant: 'destructive',
  title: 'Download Failed',
  description: 'The execution could not be loaded',
} as const;

/** The output as pretty-printed JSON (the downloaded file). */
export function formatOutputJson(output: unknown): string {
  return JSON.stringify(output ?? {}, null, 2);
}

/** execution-{first 8 characters of id}-output.json (docs/product-rules.md). */
export function executionOutputFileName(id: string): string {
  return `execution-${shortId(id)}-output.json`;
}

export interface ExecutionMetricsSummary {
  totalTokens: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
  steps: number | null;
}

/** The figures the details show; null for those the run has not got (it has none until it completes). */
export function executionMetrics(metrics: Execution['metrics']): ExecutionMetricsSummary {
  return {
    totalTokens: metrics.totalTokens ?? null,
    promptTokens: metrics.promptTokens ?? null,
    completionTokens: metrics.completionTokens ?? null,
    steps: metrics.steps ?? null,
  };
}

/** What a run or step cost as its figures say it (TokenUsage's `costUsd` and `unpricedModels`). */
type CostFigures = { costUsd?: number | null; unpricedModels?: string[] };

/**
 * The details' Cost: the amount, or 'Unknown' with the models that had no price ('No price for
 * my-fine-tune'); null when the run has no cost (no model call, not ended, or from before costs).
 */
export function runCostFact(metrics: CostFigures): { amount: string; note: string | null } | null {
  if (metrics.costUsd === undefined) return null;
  if (metrics.costUsd !== null) return { amount: formatCost(metrics.costUsd), note: null };
  const models = metrics.unpricedModels ?? [];
  return { amount: 'Unknown', note: models.length > 0 ? `No price for ${models.join(', ')}` : null };
}

/** A step's cost after its tokens ('15 tokens · $0.0042'): its amount, 'cost unknown', or null when it has none. */
export function stepCostText(costUsd: number | null | undefined): string | null {
  if (costUsd === undefined) return null;
  return costUsd === null ? 'cost unknown' : formatCost(costUsd);
}

/** A run's cost on its card: the amount, 'Cost unknown', or null when the summary has none. */
export function cardCostText(costUsd: number | null | undefined): string | null {
  if (costUsd === undefined) return null;
  return costUsd === null ? 'Cost unknown' : formatCost(costUsd);
}

/**
 * The details' Steps: the steps a run completed, and out of how many it planned once it ended short
 * of them ('1 / 2' for a failed run); '—' before it counts any.
 */
export function stepsLabel(steps: number | null, planned: number | null): string {
  if (steps === null) return '—';
  return planned !== null && planned > steps ? `${steps} / ${planned}` : String(steps);
}

/** GET /api/executions answers at most this many runs without a limit (the server's default page). */
export const EXECUTIONS_LIST_DEFAULT_LIMIT = 50;

/** Newest first by createdAt (the list's order; the server answers in it too). */
export function sortExecutionsNewestFirst<T extends Pick<Execution, 'createdAt'>>(
  executions: readonly T[],
): T[] {
  return [...executions].sort((a, b) => (toTime(b.createdAt) ?? 0) - (toTime(a.createdAt) ?? 0));
}

/* ----------------------------------------------------------------------------------------------
 * Execution card: the Output box
 * -------------------------------------------------------------------------------------------- */

/** One text of the Output box; `label` names the agent for a parallel run's texts. */
export interface OutputSection {
  key: string;
  label: string | null;
  text: string;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isTextMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((text) => typeof text === 'string');

/**
 * The final answer as people read it: the text itself, or for a parallel run (whose result lists each
 * agent's text by node id) one text per agent, named by `labels` (node id → agent name). A parallel
 * result cut at the preview length is no longer JSON and shows as it is.
 */
export function readableOutput(
  run: { result: string; processType: string | null },
  labels: Readonly<Record<string, string>> = {},
): OutputSection[] {
  if (run.processType === 'parallel') {
    const parsed = parseJson(run.result);
    if (parsed.ok && isTextMap(parsed.value)) {
      return Object.entries(parsed.value)
        .filter(([, text]) => text.trim())
        .map(([key, text]) => ({ key, label: labels[key] ?? key, text }));
    }
  }
  return [{ key: 'result', label: null, text: run.result }];
}

/** The result as raw JSON (the Output box's JSON view): pretty-printed when it is JSON, else a JSON string. */
export function outputJson(result: string): string {
  const parsed = parseJson(result);
  return parsed.ok ? JSON.stringify(parsed.value, null, 2) : JSON.stringify(result);
}

/** Node id → the agent's name on the workflow's canvas, to name a parallel run's texts. */
export function agentLabelsOf(
  workflow: { nodes: readonly { id: string; type: string; data?: Record<string, unknown> }[] } | undefined,
): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const node of workflow?.nodes ?? []) {
    const label = node.data?.label;
    if (node.type === 'agent' && typeof label === 'string' && label.trim()) labels[node.id] = label;
  }
  return labels;
}

/* ----------------------------------------------------------------------------------------------
 * Execution details: the readable outputs
 * -------------------------------------------------------------------------------------------- */

/** What naming a step reads of the version's nodes. */
export type NamedNode = { id: string; type: string; data?: Record<string, unknown> };

const nodeText = (node: NamedNode | undefined, key: string) => {
  const value = node?.data?.[key];
  return typeof value === 'string' ? value.trim() : '';
};

/** A step's kind: what its output says, else agent (steps stored before kinds were kept). */
export function stepKind(step: Pick<NodeOutput, 'kind'>): NodeKind {
  return step.kind ?? 'agent';
}

/**
 * A step as people read it: an agent step by its agent's name (as it ran, else its node's); any
 * other by its node's label, else its kind's name ('Condition'). `nodes`: the version's, when read.
 */
function stepName(stepId: string, step: NodeOutput, nodes?: readonly NamedNode[]): string {
  const kind = stepKind(step);
  const node = nodes?.find((candidate) => candidate.id === stepNodeId(stepId, step));
  if (kind === 'agent')
    return step.metadata.agentName || nodeText(node, 'name') || nodeText(node, 'label') || 'Agent';
  return nodeText(node, 'label') || (isNodeKind(kind) ? nodeKinds[kind].label : 'Step');
}

export interface ReadableOutput {
  nodeId: string;
  kind: NodeKind;
  /** A skipped step's path was not taken: it never ran, and has no text, time or tokens. */
  status: 'completed' | 'skipped';
  content: string;
  /** The step's name (see stepName). */
  agentName: string;
  /** An agent step's role and model; '' for the others. */
  role: string;
  model: string;
  executionTime: number;
  totalTokens: number;
  /** What the step's model call cost (USD); null when its model had no price, absent without one. */
  costUsd?: number | null;
  /** The step's structured value (an agent's parsed answer, a condition's `{ branch }`, …). */
  data?: unknown;
}

/**
 * The steps of a run's output map worth showing, each with its name and figures: agent steps with
 * text or data, every step of another kind (a condition's choice, a transform's values) and the
 * skipped ones, listed as skipped. `nodes` names the steps that are not agents'.
 */
export function readableOutputs(output: Execution['output'], nodes?: readonly NamedNode[]): ReadableOutput[] {
  return Object.entries(output)
    .filter(
      ([, step]) =>
        step.status === 'skipped' ||
        stepKind(step) !== 'agent' ||
        step.content.trim() !== '' ||
        step.data !== undefined,
    )
    .map(([nodeId, step]) => ({
      nodeId,
      kind: stepKind(step),
      status: step.status === 'skipped' ? ('skipped' as const) : ('completed' as const),
      content: step.content,
      agentName: stepName(nodeId, step, nodes),
      role: step.metadata.role ?? '',
      model: step.metadata.model ?? '',
      executionTime: step.executionTime,
      totalTokens: step.usage.totalTokens,
      ...(step.usage.costUsd !== undefined ? { costUsd: step.usage.costUsd } : {}),
      ...(step.data !== undefined ? { data: step.data } : {}),
    }));
}

/** How many of the outputs ran (the Output tab's count): skipped steps are not steps of the run. */
export function ranCount(outputs: readonly Pick<ReadableOutput, 'status'>[]): number {
  return outputs.filter((output) => output.status !== 'skipped').length;
}
