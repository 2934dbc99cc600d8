// Pure rules of the step inspector (docs/architecture.md, Runs): which record belongs to which step,
// which messages fold behind 'Show more', how tool arguments read, and what a hierarchical lead did.
// No React, so the vitest 'web' project can test them directly.
import type { Execution, ExecutionStep, StepRecord } from '@crewline/contracts';

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
