// A workflow as a file (docs/product-rules.md): Export's JSON document and its name, and Import, which
// reads such a file into a new draft workflow.
import {
  nodeKindValues,
  type CreateWorkflowInput,
  type WorkflowEdge,
  type WorkflowNode,
} from '@crewline/contracts';

import { edgeId, normalizeNodeData, oneOf, str, toWorkflowNode } from './builder-nodes';
import type { BuilderNodeType, ProcessType, TriggerType, WorkflowSettings } from './types';
import { buildPayload, settingsFromWorkflow, type BuilderSnapshot } from './workflow-save';

const EXPORT_FORMAT = 'crewline-workflow';

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
    const type = oneOf<BuilderNodeType>(nodeKindValues, raw.type, 'agent');
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
    // A condition's path keeps the branch it leaves from.
    const sourceHandle = typeof raw.sourceHandle === 'string' && raw.sourceHandle ? raw.sourceHandle : null;
    edges.push({
      id: typeof raw.id === 'string' ? raw.id : edgeId(raw.source, raw.target, sourceHandle),
      source: raw.source,
      target: raw.target,
      ...(sourceHandle ? { sourceHandle } : {}),
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
