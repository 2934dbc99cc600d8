// Saving in the builder (docs/product-rules.md): the settings a builder starts with and reads from a
// workflow, the save's status and toasts, and the request body (the checks before saving are
// workflow-checks.ts).
import type { CreateWorkflowInput, Workflow } from '@crewline/contracts';

import { oneOf, toWorkflowEdge, toWorkflowNode } from './builder-nodes';
import { EMPTY_GATE_DRAFT, gateDraftOf, withGate } from './activation-gate';
import { configOf, EMPTY_BUDGET_DRAFT, splitConfig } from './workflow-budget';
import {
  PROCESS_TYPES,
  TRIGGER_TYPES,
  type BuilderEdge,
  type BuilderNode,
  type ProcessType,
  type TriggerType,
  type WorkflowSettings,
} from './types';

type WorkflowStatus = Workflow['status'];

export const DEFAULT_SETTINGS: WorkflowSettings = {
  name: '',
  description: '',
  processType: 'sequential',
  triggerType: 'manual',
  triggerConfig: {},
  budget: EMPTY_BUDGET_DRAFT,
  activationGate: EMPTY_GATE_DRAFT,
  otherConfig: {},
};

export type SaveIntent = 'draft' | 'activate';

/**
 * The status a save sends: Activate sends active; Save Draft sends draft for a new workflow and no
 * status when editing, so the workflow keeps its own. Behind an activation gate a body with
 * `status: 'active'` is an activation (it runs the evaluation), so Save Draft must never send it
 * (docs/product-rules.md, Evaluations).
 */
export function saveStatus(intent: SaveIntent, isNew: boolean): WorkflowStatus | undefined {
  if (intent === 'activate') return 'active';
  return isNew ? 'draft' : undefined;
}

/**
 * What the header's Run does: an active workflow opens the Execute dialog at once; a draft, a paused
 * or a not yet saved one first offers 'Activate and run' (the server runs active workflows only).
 */
export function runAction(status: WorkflowStatus | null): 'run' | 'activate-and-run' {
  return status === 'active' ? 'run' : 'activate-and-run';
}

/** The success toast title for a save. */
export function saveSuccessTitle(intent: SaveIntent, isNew: boolean): string {
  if (intent === 'activate') return isNew ? 'Workflow Created & Activated' : 'Workflow Activated';
  return isNew ? 'Workflow Created' : 'Workflow Updated';
}

export const SAVE_FAILED_TOAST = { title: 'Save Failed', description: 'Failed to save workflow' } as const;

export interface BuilderSnapshot {
  settings: WorkflowSettings;
  nodes: BuilderNode[];
  edges: BuilderEdge[];
}

/** The text fields that belong to each trigger type. */
const TRIGGER_FIELDS: Record<TriggerType, Exclude<keyof WorkflowSettings['triggerConfig'], 'signed'>[]> = {
  manual: [],
  schedule: ['cron', 'timezone'],
  webhook: ['secret'],
  email: ['emailAddress', 'subjectFilter'],
};

/** Only the filled fields of the chosen trigger, trimmed (and a webhook's `signed` when it is on). */
function cleanTriggerConfig(settings: WorkflowSettings): WorkflowSettings['triggerConfig'] {
  const config: WorkflowSettings['triggerConfig'] = {};
  for (const key of TRIGGER_FIELDS[settings.triggerType] ?? []) {
    const value = settings.triggerConfig[key];
    if (typeof value === 'string' && value.trim()) config[key] = value.trim();
  }
  if (settings.triggerType === 'webhook' && settings.triggerConfig.signed === true) config.signed = true;
  return config;
}

/**
 * The body of POST /api/workflows (and PUT /api/workflows/:id): positions and data as on the canvas;
 * without `status` when none is given (an existing workflow's Save Draft).
 */
export function buildPayload(
  snapshot: BuilderSnapshot,
  status?: WorkflowStatus,
): CreateWorkflowInput & { status?: WorkflowStatus } {
  const { settings } = snapshot;
  return {
    name: settings.name.trim(),
    description: settings.description.trim() || null,
    processType: settings.processType,
    triggerType: settings.triggerType,
    triggerConfig: cleanTriggerConfig(settings),
    nodes: snapshot.nodes.map(toWorkflowNode),
    edges: snapshot.edges.map(toWorkflowEdge),
    // The whole `config` is saved: its other keys as they were loaded, with the budget and the
    // activation gate of the fields.
    config: withGate(configOf(settings.otherConfig, settings.budget), settings.activationGate),
    ...(status ? { status } : {}),
  };
}

// ----- Loading --------------------------------------------------------------------------------

export function settingsFromWorkflow(
  workflow: Pick<Workflow, 'name' | 'description' | 'processType' | 'triggerType' | 'triggerConfig'> &
    Partial<Pick<Workflow, 'config'>>,
): WorkflowSettings {
  // The gate has fields of its own; every other key but the budget stays as it was loaded.
  const { activationGate, ...config } = workflow.config ?? {};
  return {
    ...splitConfig(config),
    activationGate: gateDraftOf(activationGate),
    name: workflow.name ?? '',
    description: workflow.description ?? '',
    processType: oneOf<ProcessType>(PROCESS_TYPES, workflow.processType, 'sequential'),
    triggerType: oneOf<TriggerType>(TRIGGER_TYPES, workflow.triggerType, 'manual'),
    triggerConfig: { ...(workflow.triggerConfig ?? {}) },
  };
}
