// A workflow's activation gate in the builder (issue 39, docs/product-rules.md, Evaluations): the
// Evaluations section's fields as typed (a switch, the evaluation, a percentage), the
// `config.activationGate` they make (left out when the switch is off), and what is wrong with them.
// The server checks the gate again (the evaluation must be one of this workflow's).
import { activationGateSchema, type ActivationGate } from '@crewline/contracts';

export interface GateDraft {
  enabled: boolean;
  evaluationId: string;
  /** The minimum pass rate in percent (0–100), as typed. */
  minPassRate: string;
}

export const GATE_SWITCH_LABEL = 'Require an evaluation to pass before Activate records a version';
export const GATE_HELP =
  'Behind the gate, Save Draft keeps your changes without releasing them; Activate runs the evaluation on them first.';

export const GATE_MESSAGES = {
  evaluationRequired: 'Choose the evaluation that must pass',
  minPassRate: 'Enter a percentage from 0 to 100',
} as const;

/** Off, with the pass rate a switch turned on starts from. */
export const EMPTY_GATE_DRAFT: GateDraft = { enabled: false, evaluationId: '', minPassRate: '90' };

/** A saved pass rate (0–1) as the field's percentage: at most one decimal, no trailing zeros. */
export function percentOf(rate: number): string {
  return String(Math.round(rate * 1000) / 10);
}

/** The saved `config.activationGate` as the fields show it; anything that is not a gate is off. */
export function gateDraftOf(saved: unknown): GateDraft {
  const gate = activationGateSchema.safeParse(saved);
  if (!gate.success) return EMPTY_GATE_DRAFT;
  return {
    enabled: true,
    evaluationId: gate.data.evaluationId,
    minPassRate: percentOf(gate.data.minPassRate),
  };
}

/** The typed percentage as a rate (0–1); null when it is not a number from 0 to 100. */
function rateOf(text: string): number | null {
  const trimmed = text.trim().replace(/\s*%$/, '');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || value < 0 || value > 100) return null;
  // Percent to a rate without 0.29 * 100 style noise (0.3 stays 0.003, 87.5 stays 0.875).
  return Number((value / 100).toFixed(6));
}

/** What is wrong with each field of a gate that is on; empty when all is well (or the gate is off). */
export function gateProblems(draft: GateDraft): Partial<Record<'evaluationId' | 'minPassRate', string>> {
  if (!draft.enabled) return {};
  const problems: Partial<Record<'evaluationId' | 'minPassRate', string>> = {};
  if (!draft.evaluationId) problems.evaluationId = GATE_MESSAGES.evaluationRequired;
  if (rateOf(draft.minPassRate) === null) problems.minPassRate = GATE_MESSAGES.minPassRate;
  return problems;
}

/** The `config.activationGate` of the fields: null when the switch is off or a field is not right yet. */
export function gateOf(draft: GateDraft): ActivationGate | null {
  const minPassRate = rateOf(draft.minPassRate);
  if (!draft.enabled || !draft.evaluationId || minPassRate === null) return null;
  return { evaluationId: draft.evaluationId, minPassRate };
}

/** `config` with the gate of the fields, or without the key when there is none. */
export function withGate(config: Record<string, unknown>, draft: GateDraft): Record<string, unknown> {
  const { activationGate: _saved, ...rest } = config;
  const gate = gateOf(draft);
  return gate ? { ...rest, activationGate: gate } : rest;
}

/** A pass rate (0–1) as people read it: 'NN %'. */
export function passRateText(rate: number): string {
  return `${Math.round(rate * 100)} %`;
}

/** A failed item's input on one line, cut at `max` characters: the refusal names up to 20 of them. */
export function shortJson(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Whether an eval run's pass rate reaches the gate's minimum (the server's own tolerance). */
export function gatePasses(passRate: number | null, minPassRate: number): boolean {
  return passRate !== null && passRate >= minPassRate - 1e-9;
}
