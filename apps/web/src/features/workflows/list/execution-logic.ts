// Pure rules of running workflows and reading their runs (docs/product-rules.md): the Execute
// dialog's parameters, the execution card's fields and the details dialog's download.
// No React, so the vitest 'web' project can test them directly.
import { executionTriggerLabels, type Execution } from '@crewline/contracts';

import { capitalize } from '@/lib/format';

import { shortId } from './workflow-list-logic';

/* ----------------------------------------------------------------------------------------------
 * Execute dialog: parameters
 * -------------------------------------------------------------------------------------------- */

/** One row of the parameters editor. `id` is stable across renames (a React key). */
export interface ParameterRow {
  id: number;
  name: string;
  value: string;
}

/** The server accepts parameter names of 1 to 100 characters (after trimming). */
export const PARAMETER_NAME_MAX = 100;

export const PARAMETER_NAME_REQUIRED = 'Enter a parameter name';
export const PARAMETER_NAME_DUPLICATE = 'Another parameter already has this name';
export const PARAMETER_NAME_TOO_LONG = `Parameter names are at most ${PARAMETER_NAME_MAX} characters`;

/**
 * The auto-generated name of a new parameter: param_N, N counting on from the number of parameters
 * and skipping names already taken (after param_1 is removed from param_1, param_2 the next is param_3).
 */
export function nextParameterName(names: readonly string[]): string {
  const taken = new Set(names.map((name) => name.trim()));
  let n = names.length + 1;
  while (taken.has(`param_${n}`)) n += 1;
  return `param_${n}`;
}

/** 'Add Parameter': a new param_N row with an empty value at the end. */
export function addParameter(rows: readonly ParameterRow[]): ParameterRow[] {
  const id = rows.reduce((max, row) => Math.max(max, row.id), 0) + 1;
  return [...rows, { id, name: nextParameterName(rows.map((row) => row.name)), value: '' }];
}

/** Renaming replaces the row's key in place: the order and the value stay. */
export function renameParameter(rows: readonly ParameterRow[], id: number, name: string): ParameterRow[] {
  return rows.map((row) => (row.id === id ? { ...row, name } : row));
}

export function setParameterValue(rows: readonly ParameterRow[], id: number, value: string): ParameterRow[] {
  return rows.map((row) => (row.id === id ? { ...row, value } : row));
}

export function removeParameter(rows: readonly ParameterRow[], id: number): ParameterRow[] {
  return rows.filter((row) => row.id !== id);
}

/** The inline message of each row whose name cannot be sent (empty, too long, or taken by an earlier row). */
export function parameterErrors(rows: readonly ParameterRow[]): Record<number, string> {
  const errors: Record<number, string> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) errors[row.id] = PARAMETER_NAME_REQUIRED;
    else if (name.length > PARAMETER_NAME_MAX) errors[row.id] = PARAMETER_NAME_TOO_LONG;
    else if (seen.has(name)) errors[row.id] = PARAMETER_NAME_DUPLICATE;
    seen.add(name);
  }
  return errors;
}

/** The parameters map in the rows' order, keyed by trimmed names. */
export function buildParameters(rows: readonly ParameterRow[]): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name && !(name in parameters)) parameters[name] = row.value;
  }
  return parameters;
}

/** The body of POST /api/workflows/:id/execute (docs/product-rules.md: input defaults to an empty map). */
export function buildExecuteRequest(instructions: string, rows: readonly ParameterRow[]) {
  const trimmed = instructions.trim();
  return { input: {}, dynamicInstructions: trimmed ? trimmed : null, parameters: buildParameters(rows) };
}

/** '1 parameter', '3 parameters'. */
export function parameterCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'parameter' : 'parameters'}`;
}

/* ----------------------------------------------------------------------------------------------
 * Toasts (docs/product-rules.md)
 * -------------------------------------------------------------------------------------------- */

/** 'with custom instructions' only when the run was given some (blank ones are not sent as such). */
export function executionStartedToast(name: string, customInstructions?: string | null) {
  const started = `"${name}" execution has been started`;
  return {
    title: 'Workflow Started',
    description: customInstructions?.trim() ? `${started} with custom instructions` : started,
  };
}

export const EXECUTION_FAILED_DESCRIPTION = 'Failed to start workflow execution';

/** The fixed text, followed by the server's reason when it gave one (a draft, a paused workflow). */
export function executionFailedToast(serverMessage?: string | null) {
  return {
    variant: 'destructive',
    title: 'Execution Failed',
    description: serverMessage
      ? `${EXECUTION_FAILED_DESCRIPTION}: ${serverMessage}`
      : EXECUTION_FAILED_DESCRIPTION,
  } as const;
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

/* ----------------------------------------------------------------------------------------------
 * Execution card and details
 * -------------------------------------------------------------------------------------------- */

/** Pending and running runs can still change (and be cancelled). */
export function isExecutionActive(status: string | null | undefined): boolean {
  return status === 'pending' || status === 'running';
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
  const end = toTime(execution.completedAt) ?? (isExecutionActive(execution.status) ? now : null);
  if (end === null) return null;
  return Math.max(0, Math.floor((end - start) / 1000));
}

/**
 * Triggered By: the person who started a manual run ('System' when unknown), or the trigger that
 * started it (docs/product-rules.md).
 */
export function triggeredByLabel(execution: Pick<Execution, 'trigger' | 'triggeredByName'>): string {
  if (execution.trigger !== 'manual') return executionTriggerLabels[execution.trigger];
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
