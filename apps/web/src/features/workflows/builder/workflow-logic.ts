// Pure rules of the builder: default nodes, conversions between the API and the canvas, the save
// payload and status, the client-side checks before saving, export and import (docs/product-rules.md).
import {
  workflowMessages,
  type CreateWorkflowInput,
  type Workflow,
  type WorkflowEdge,
  type WorkflowNode,
} from '@crewline/contracts';
import { isValidCron, validateWorkflow, type ValidationResult } from '@crewline/engine';

import {
  END_POSITION,
  OUTPUT_DESTINATIONS,
  OUTPUT_FORMATS,
  PROCESS_TYPES,
  START_POSITION,
  TRIGGER_TYPES,
  type BuilderEdge,
  type BuilderNode,
  type BuilderNodeData,
  type BuilderNodeType,
  type OutputDestination,
  type OutputFormat,
  type ProcessType,
  type TriggerType,
  type WorkflowSettings,
} from './types';

type WorkflowStatus = Workflow['status'];

/** Accent colours given to new agent nodes, in turn. */
export const NODE_COLORS = [
  '#6366f1',
  '#0ea5e9',
  '#10b981',
  '#f59e0b',
  '#ec4899',
  '#8b5cf6',
  '#14b8a6',
  '#ef4444',
];

export const DEFAULT_SETTINGS: WorkflowSettings = {
  name: '',
  description: '',
  processType: 'sequential',
  triggerType: 'manual',
  triggerConfig: {},
};

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T): T {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** A node's data with every property present; output format text and destination database by default. */
export function normalizeNodeData(
  type: BuilderNodeType,
  data: Record<string, unknown> | undefined,
  agentId?: string | null,
): BuilderNodeData {
  const d = data ?? {};
  const fallbackLabel = type === 'start' ? 'Start' : type === 'end' ? 'End' : 'Agent';
  return {
    ...d,
    label: str(d.label) || str(d.name) || fallbackLabel,
    description: str(d.description),
    agentId: str(d.agentId) || agentId || '',
    model: str(d.model),
    color: str(d.color) || (type === 'agent' ? NODE_COLORS[0] : ''),
    inputVariables: Array.isArray(d.inputVariables) ? d.inputVariables.join(', ') : str(d.inputVariables),
    outputVariable: str(d.outputVariable),
    outputFormat: oneOf<OutputFormat>(OUTPUT_FORMATS, d.outputFormat, 'text'),
    outputDestination: oneOf<OutputDestination>(OUTPUT_DESTINATIONS, d.outputDestination, 'database'),
    filePath: str(d.filePath),
    webhookUrl: str(d.webhookUrl),
    emailRecipients: str(d.emailRecipients),
    lastUpdated: str(d.lastUpdated),
    name: str(d.name),
    role: str(d.role),
  };
}

/** Start and End can never be deleted (docs/product-rules.md). */
export function isProtectedType(type: string | undefined): boolean {
  return type === 'start' || type === 'end';
}

export function toBuilderNode(node: WorkflowNode): BuilderNode {
  return {
    id: node.id,
    type: node.type,
    position: { x: node.position.x, y: node.position.y },
    data: normalizeNodeData(node.type, node.data, node.agentId),
    ...(isProtectedType(node.type) ? { deletable: false } : {}),
  };
}

export function toBuilderEdge(edge: WorkflowEdge): BuilderEdge {
  return { id: edge.id, source: edge.source, target: edge.target };
}

/** What a new builder opens with: Start at (100,100) and End at (500,100). */
export function defaultNodes(now = new Date().toISOString()): BuilderNode[] {
  return [
    {
      id: 'start',
      type: 'start',
      position: { ...START_POSITION },
      deletable: false,
      data: { ...normalizeNodeData('start', { label: 'Start' }), lastUpdated: now },
    },
    {
      id: 'end',
      type: 'end',
      position: { ...END_POSITION },
      deletable: false,
      data: { ...normalizeNodeData('end', { label: 'End' }), lastUpdated: now },
    },
  ];
}

export interface AgentLike {
  id: string;
  name: string;
  role: string;
  description?: string | null;
  llmModel?: string | null;
}

/** A new agent node carrying the agent's name, role, description and model. */
export function createAgentNode(
  agent: AgentLike,
  position: { x: number; y: number },
  options: { id: string; color: string; now?: string },
): BuilderNode {
  return {
    id: options.id,
    type: 'agent',
    position,
    data: normalizeNodeData('agent', {
      label: agent.name,
      name: agent.name,
      role: agent.role,
      description: agent.description ?? '',
      agentId: agent.id,
      model: agent.llmModel ?? '',
      color: options.color,
      lastUpdated: options.now ?? new Date().toISOString(),
    }),
  };
}

/** Sizes of nodes not measured yet (an agent card, a Start or End pill), with room to spare. */
const UNMEASURED = { agent: { width: 240, height: 100 }, other: { width: 140, height: 56 } };
/** Space kept between a new node and the others. */
const NODE_GAP = 24;

type Placed = Pick<BuilderNode, 'position' | 'type'> & { measured?: { width?: number; height?: number } };

function boxOf(node: Placed) {
  const size = node.type === 'agent' ? UNMEASURED.agent : UNMEASURED.other;
  return {
    x: node.position.x,
    y: node.position.y,
    width: node.measured?.width ?? size.width,
    height: node.measured?.height ?? size.height,
  };
}

/**
 * A random spot for a new agent node where it overlaps no other node: random in the middle band of
 * the canvas first, the band growing right and down while it is full; past that, below them all.
 */
export function freePosition(nodes: Placed[], random: () => number = Math.random): { x: number; y: number } {
  const boxes = nodes.map(boxOf);
  const { width, height } = UNMEASURED.agent;
  const fits = (x: number, y: number) =>
    boxes.every(
      (b) =>
        x + width + NODE_GAP <= b.x ||
        b.x + b.width + NODE_GAP <= x ||
        y + height + NODE_GAP <= b.y ||
        b.y + b.height + NODE_GAP <= y,
    );
  for (let attempt = 0; attempt < 200; attempt++) {
    const grow = Math.floor(attempt / 10);
    const spot = {
      x: Math.round(150 + random() * (300 + grow * 120)),
      y: Math.round(210 + random() * (150 + grow * 60)),
    };
    if (fits(spot.x, spot.y)) return spot;
  }
  return { x: 150, y: Math.max(210, ...boxes.map((b) => b.y + b.height + NODE_GAP)) };
}

export function edgeId(source: string, target: string): string {
  return `e-${source}-${target}`;
}

// ----- Save -----------------------------------------------------------------------------------

export type SaveIntent = 'draft' | 'activate';

/**
 * Save Draft stores draft for a new workflow and keeps the existing status when editing; Activate
 * stores active (docs/product-rules.md).
 */
export function saveStatus(intent: SaveIntent, existingStatus: WorkflowStatus | null): WorkflowStatus {
  if (intent === 'activate') return 'active';
  return existingStatus ?? 'draft';
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
export const ACTIVATION_FAILED_TOAST = {
  title: 'Activation Failed',
  description: 'Failed to activate workflow',
} as const;

export function toWorkflowNode(node: BuilderNode): WorkflowNode {
  const type = (node.type ?? 'agent') as BuilderNodeType;
  const data = { ...node.data };
  return {
    id: node.id,
    type,
    ...(type === 'agent' ? { agentId: data.agentId || null } : {}),
    position: { x: node.position.x, y: node.position.y },
    data,
  };
}

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

/** The body of POST /api/workflows (and PUT /api/workflows/:id): positions and data as on the canvas. */
export function buildPayload(
  snapshot: BuilderSnapshot,
  status: WorkflowStatus,
): CreateWorkflowInput & { status: WorkflowStatus } {
  const { settings } = snapshot;
  return {
    name: settings.name.trim(),
    description: settings.description.trim() || null,
    processType: settings.processType,
    triggerType: settings.triggerType,
    triggerConfig: cleanTriggerConfig(settings),
    nodes: snapshot.nodes.map(toWorkflowNode),
    edges: snapshot.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
    status,
  };
}

export function validateSnapshot(
  snapshot: BuilderSnapshot,
  agentExists: (agentId: string) => boolean,
): ValidationResult {
  const payload = buildPayload(snapshot, 'draft');
  return validateWorkflow(
    {
      name: payload.name,
      triggerType: payload.triggerType ?? 'manual',
      triggerConfig: payload.triggerConfig ?? {},
      nodes: payload.nodes ?? [],
      edges: payload.edges ?? [],
    },
    agentExists,
  );
}

export interface BlockingToast {
  title: string;
  description: string;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The checks run before Save Draft and Activate (docs/product-rules.md), in order: name, cron, email,
 * then the structural errors joined by ', '. Null when the workflow may be saved.
 */
export function preSaveCheck(
  snapshot: BuilderSnapshot,
  agentExists: (agentId: string) => boolean,
): BlockingToast | null {
  const { settings } = snapshot;
  if (!settings.name.trim()) return { title: 'Validation Error', description: workflowMessages.nameRequired };
  if (settings.triggerType === 'schedule' && !isValidCron(settings.triggerConfig.cron)) {
    return { title: 'Validation Error', description: workflowMessages.cronRequired };
  }
  if (
    settings.triggerType === 'email' &&
    !EMAIL_PATTERN.test(settings.triggerConfig.emailAddress?.trim() ?? '')
  ) {
    return { title: 'Trigger Configuration Error', description: workflowMessages.emailRequired };
  }
  const { errors } = validateSnapshot(snapshot, agentExists);
  if (errors.length > 0) return { title: 'Validation Failed', description: errors.join(', ') };
  return null;
}

// ----- Loading --------------------------------------------------------------------------------

export function settingsFromWorkflow(
  workflow: Pick<Workflow, 'name' | 'description' | 'processType' | 'triggerType' | 'triggerConfig'>,
): WorkflowSettings {
  return {
    name: workflow.name ?? '',
    description: workflow.description ?? '',
    processType: oneOf<ProcessType>(PROCESS_TYPES, workflow.processType, 'sequential'),
    triggerType: oneOf<TriggerType>(TRIGGER_TYPES, workflow.triggerType, 'manual'),
    triggerConfig: { ...(workflow.triggerConfig ?? {}) },
  };
}

// ----- Export / import ------------------------------------------------------------------------

export const EXPORT_FORMAT = 'crewline-workflow';

/** The JSON file Export downloads. */
export function exportDocument(snapshot: BuilderSnapshot, now = new Date().toISOString()) {
  const { status: _status, ...payload } = buildPayload(snapshot, 'draft');
  void _status;
  return { format: EXPORT_FORMAT, version: 1, exportedAt: now, ...payload };
}

/** `<name>.json`, without characters that file systems reject. */
export function exportFileName(name: string): string {
  const safe = name
    .trim()
    .replace(/[\\/:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ');
  return `${safe || 'workflow'}.json`;
}

export type ImportResult = { ok: true; input: CreateWorkflowInput } | { ok: false; error: string };

export const IMPORT_ERROR_NOT_JSON = 'The file is not valid JSON.';
export const IMPORT_ERROR_SHAPE =
  'The file is not a workflow export: it needs a list of nodes and a list of edges.';

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isPosition(value: unknown): value is { x: number; y: number } {
  return isRecord(value) && Number.isFinite(value.x) && Number.isFinite(value.y);
}

/**
 * Reads an exported file into the body of a NEW workflow (status draft). Files without a `nodes`
 * and an `edges` list, or with malformed entries, are rejected.
 */
export function parseImport(text: string): ImportResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: IMPORT_ERROR_NOT_JSON };
  }
  const doc = isRecord(json) && isRecord(json.workflow) ? json.workflow : json;
  if (!isRecord(doc) || !Array.isArray(doc.nodes) || !Array.isArray(doc.edges)) {
    return { ok: false, error: IMPORT_ERROR_SHAPE };
  }
  const nodes: WorkflowNode[] = [];
  for (const raw of doc.nodes) {
    if (!isRecord(raw) || typeof raw.id !== 'string' || !isPosition(raw.position)) {
      return { ok: false, error: IMPORT_ERROR_SHAPE };
    }
    const type = oneOf<BuilderNodeType>(['start', 'end', 'agent'], raw.type, 'agent');
    const agentId = typeof raw.agentId === 'string' ? raw.agentId : null;
    nodes.push(
      toWorkflowNode({
        id: raw.id,
        type,
        position: { x: raw.position.x, y: raw.position.y },
        data: normalizeNodeData(type, isRecord(raw.data) ? raw.data : {}, agentId),
      }),
    );
  }
  const ids = new Set(nodes.map((n) => n.id));
  const edges: WorkflowEdge[] = [];
  for (const raw of doc.edges) {
    if (!isRecord(raw) || typeof raw.source !== 'string' || typeof raw.target !== 'string') {
      return { ok: false, error: IMPORT_ERROR_SHAPE };
    }
    if (!ids.has(raw.source) || !ids.has(raw.target)) continue;
    edges.push({
      id: typeof raw.id === 'string' ? raw.id : edgeId(raw.source, raw.target),
      source: raw.source,
      target: raw.target,
    });
  }
  const settings = settingsFromWorkflow({
    name: str(doc.name).trim() || 'Imported workflow',
    description: typeof doc.description === 'string' ? doc.description : null,
    processType: doc.processType as ProcessType,
    triggerType: doc.triggerType as TriggerType,
    triggerConfig: isRecord(doc.triggerConfig)
      ? (doc.triggerConfig as WorkflowSettings['triggerConfig'])
      : {},
  });
  return {
    ok: true,
    input: {
      name: settings.name,
      description: settings.description || null,
      processType: settings.processType,
      triggerType: settings.triggerType,
      triggerConfig: settings.triggerConfig,
      nodes,
      edges,
      status: 'draft',
    },
  };
}

/** Badge text for the estimate, e.g. '~2 min'. */
export function formatEstimate(minutes: number): string {
  return `~${minutes} min`;
}
