// Pure rules of the step inspector (docs/architecture.md, Runs): which record belongs to which step,
// which messages fold behind 'Show more', how tool arguments read, what a hierarchical lead did, and
// for steps that call no model what they evaluated (a condition's branches, a transform's values).
// No React, so the vitest 'web' project can test them directly.
import {
  ELSE_BRANCH,
  type EvaluatedExpression,
  type EvaluationRecord,
  type Execution,
  type ExecutionStep,
  type NodeOutput,
  type StepRecord,
} from '@crewline/contracts';

import { approvalStepData, STEP_DECISION_LABELS } from '@/lib/approvals/approval-texts';

/** Messages longer than this (characters or lines) show their start and a 'Show more' button. */
export const MESSAGE_PREVIEW_CHARS = 600;
const MESSAGE_PREVIEW_LINES = 12;

/** Each step's record by step id (the output map's key); the latest wins when a step was stored twice. */
export function stepRecords(steps: Execution['steps']): Record<string, StepRecord> {
  const records: Record<string, StepRecord> = {};
  for (const step of steps ?? []) if (step.record) records[step.nodeId] = step.record;
  return records;
}

export type FailedStep = Extract<ExecutionStep, { status: 'failed' }> & { record: StepRecord };

/** Steps whose model call failed and that left a record: they have no output to hang it on. */
export function failedStepsWithRecords(steps: Execution['steps'], output: Execution['output']): FailedStep[] {
  return (steps ?? []).filter(
    (step): step is FailedStep => step.status === 'failed' && !!step.record && !output[step.nodeId],
  );
}

/** A message's folded form: its first lines (or characters), and whether anything was left out. */
export function messagePreview(content: string): { text: string; folded: boolean } {
  const lines = content.split('\n');
  let text = content;
  if (lines.length > MESSAGE_PREVIEW_LINES) text = lines.slice(0, MESSAGE_PREVIEW_LINES).join('\n');
  if (text.length > MESSAGE_PREVIEW_CHARS) text = text.slice(0, MESSAGE_PREVIEW_CHARS);
  return text.length < content.length
    ? { text: `${text.trimEnd()}…`, folded: true }
    : { text, folded: false };
}

export const MESSAGE_ROLE_LABELS: Record<StepRecord['messages'][number]['role'], string> = {
  system: 'System',
  user: 'User',
};

/** 'OpenAI · gpt-4o' style: the provider as people name it, and the model id. */
const PROVIDER_NAMES: Record<string, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  local: 'Local',
  custom: 'Custom',
};
export function modelLabel(record: Pick<StepRecord, 'provider' | 'model'>): string {
  return `${PROVIDER_NAMES[record.provider] ?? record.provider} · ${record.model}`;
}

/** '2 retries', '1 retry', 'No retries'. */
export function retriesLabel(retries: number): string {
  if (retries === 0) return 'No retries';
  return retries === 1 ? '1 retry' : `${retries} retries`;
}

/**
 * What a hierarchical lead did with its team, in words: it answered alone (naming the co-workers it
 * had), or how often it delegated. Null for steps that were not a lead's.
 */
export function teamNote(record: Pick<StepRecord, 'team'>): { alone: boolean; text: string } | null {
  const team = record.team;
  if (!team) return null;
  const names = team.coworkers.join(', ');
  if (team.delegations === 0)
    return {
      alone: true,
      text:
        team.coworkers.length > 0
          ? `The lead answered alone: it delegated nothing to its available co-workers (${names}).`
          : 'The lead answered alone: it had no co-workers to delegate to.',
    };
  const times = team.delegations === 1 ? 'once' : `${team.delegations} times`;
  return { alone: false, text: `The lead delegated ${times} to its co-workers (${names}).` };
}

/* ----------------------------------------------------------------------------------------------
 * Steps that call no model (conditions, transforms, merges): what they evaluated, and their data
 * -------------------------------------------------------------------------------------------- */

/** Each step's evaluation by step id (a condition's expressions, a transform's values). */
export function stepEvaluations(steps: Execution['steps']): Record<string, EvaluationRecord> {
  const evaluations: Record<string, EvaluationRecord> = {};
  for (const step of steps ?? []) if (step.evaluation) evaluations[step.nodeId] = step.evaluation;
  return evaluations;
}

/** A value in one line: text in quotes, lists and objects as compact JSON, cut at `max` characters. */
export function formatValue(value: unknown, max = 120): string {
  let text: string;
  if (value === undefined) text = '—';
  else if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A condition's branch as the workflow defines it (its version's node data). */
export type BranchDefinition = { id: string; label: string; when: string };

export interface ConditionRow {
  /** The branch's label ('Else' for the else path). */
  label: string;
  /** Its `when` expression; null for else. */
  expression: string | null;
  /** 'true' or 'false'; 'not evaluated' for the branches after the one taken; the error when it failed. */
  value: string;
  state: 'true' | 'false' | 'error' | 'not-evaluated' | 'else';
  taken: boolean;
}

const branchOfData = (value: unknown): string | null => {
  if (typeof value !== 'object' || value === null) return null;
  const branch = (value as { branch?: unknown }).branch;
  return typeof branch === 'string' ? branch : null;
};

/**
 * A condition's record as rows: each branch in order with its expression and its value (the first
 * true one is taken, the ones after it are not evaluated), then else. `branches` (the version's) lists
 * the branches never evaluated too; without them the rows are what the step evaluated.
 */
export function conditionRows(
  evaluation: Pick<EvaluationRecord, 'evaluated' | 'result'>,
  branches?: readonly BranchDefinition[],
): { rows: ConditionRow[]; taken: string | null } {
  const branch = branchOfData(evaluation.result);
  const evaluatedRow = (entry: EvaluatedExpression): ConditionRow => {
    const failed = entry.error !== undefined;
    const value = failed ? entry.error! : entry.value === true ? 'true' : 'false';
    const state = failed ? 'error' : entry.value === true ? 'true' : 'false';
    return { label: entry.name, expression: entry.expression, value, state, taken: state === 'true' };
  };
  const rows: ConditionRow[] = branches
    ? branches.map((definition, index) => {
        const label = definition.label.trim() || definition.id;
        // Evaluated in order until one is true: the n-th evaluated expression is the n-th branch's.
        const entry = evaluation.evaluated[index];
        return entry
          ? { ...evaluatedRow(entry), label, taken: branch === definition.id }
          : {
              label,
              expression: definition.when,
              value: 'not evaluated',
              state: 'not-evaluated',
              taken: false,
            };
      })
    : evaluation.evaluated.map(evaluatedRow);
  const elseTaken = branch === ELSE_BRANCH;
  rows.push({ label: 'Else', expression: null, value: '', state: 'else', taken: elseTaken });
  const takenRow = rows.find((row) => row.taken);
  return { rows, taken: takenRow?.label ?? branch };
}

/** A transform's (or any other step's) evaluated expressions as `name = value` rows. */
export function assignmentRows(
  evaluation: Pick<EvaluationRecord, 'evaluated'>,
): { name: string; expression: string; value: string; error: boolean }[] {
  return evaluation.evaluated.map((entry) => ({
    name: entry.name,
    expression: entry.expression,
    value: entry.error ?? formatValue(entry.value),
    error: entry.error !== undefined,
  }));
}

/**
 * One line for a step that calls no model, where an agent step shows its answer (the builder's run
 * panel): the path a condition took, the values a transform set, what a merge joined.
 */
export function noModelSummary(
  step: Pick<NodeOutput, 'kind' | 'content' | 'data'>,
  evaluation?: Pick<EvaluationRecord, 'evaluated' | 'result'>,
): string {
  if (step.kind === 'condition') {
    const taken = evaluation
      ? conditionRows({ ...evaluation, result: evaluation.result ?? step.data }).taken
      : branchOfData(step.data);
    const label = taken === ELSE_BRANCH ? 'Else' : taken;
    return label ? `Took the path: ${label}` : 'Chose a path';
  }
  if (step.content.trim()) return step.content;
  if (step.kind === 'transform' && typeof step.data === 'object' && step.data !== null) {
    const entries = Object.entries(step.data);
    return entries.length > 0
      ? `Set ${entries.map(([name, value]) => `${name} = ${formatValue(value, 40)}`).join(', ')}`
      : 'Set no values';
  }
  if (step.kind === 'approval') {
    const decision = approvalStepData(step.data)?.decision;
    return decision ? STEP_DECISION_LABELS[decision] : '';
  }
  if (step.kind === 'merge' && Array.isArray(step.data))
    return `Joined ${step.data.length} input${step.data.length === 1 ? '' : 's'}`;
  return '';
}
