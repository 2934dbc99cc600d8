// The builder's nodes (docs/product-rules.md): the default Start and End, a new agent node and where it
// goes, and the conversions between the API's nodes and edges and the canvas's.
import {
  AGENT_BLOCKED_PATH,
  ELSE_BRANCH,
  guardrailPathValues,
  isNodeKind,
  nodeKinds,
  type ConditionBranch,
  type NodeKind,
  type WorkflowEdge,
  type WorkflowNode,
} from '@crewline/contracts';

import { APPROVAL_PATH_LABELS, approvalDraftOf, approvalPaths } from './node-kinds/approval-data';
import {
  END_POSITION,
  OUTPUT_DESTINATIONS,
  OUTPUT_FORMATS,
  START_POSITION,
  type BuilderEdge,
  type BuilderNode,
  type BuilderNodeData,
  type BuilderNodeType,
  type OutputDestination,
  type OutputFormat,
} from './types';

/** A guardrail's paths as the canvas and the edges name them. */
export const GUARDRAIL_PATH_LABELS: Record<string, string> = { pass: 'Pass', fail: 'Fail' };
/** The path an agent node takes when one of its agent's guardrails blocks (sourceHandle AGENT_BLOCKED_PATH). */
export const AGENT_BLOCKED_PATH_LABEL = 'Blocked by a guardrail';

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

/** The string, or the fallback for anything else. */
export const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** The value when it is one of `values`, else the fallback. */
export function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T): T {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

/**
 * The kinds whose data is only their own fields (every kind but Start, End and Agent): the agent
 * fields the panel keeps for every node are not theirs, so they are not saved with them.
 */
const OWN_FIELDS_ONLY = new Set<NodeKind>([
  'condition',
  'guardrail',
  'tool',
  'transform',
  'code',
  'map',
  'loop',
  'merge',
  'approval',
  'delay',
  'note',
]);

/** The Properties panel's agent fields, present on every node in the builder (see toWorkflowNode). */
const AGENT_FIELDS = [
  'agentId',
  'model',
  'color',
  'inputVariables',
  'outputVariable',
  'outputFormat',
  'outputDestination',
  'filePath',
  'webhookUrl',
  'emailRecipients',
  'name',
  'role',
] as const;

/** The kind's own fields with their defaults filled in (a branch list, a mode…); as stored when they do not parse. */
function kindFields(type: BuilderNodeType, data: Record<string, unknown>): Record<string, unknown> {
  if (!OWN_FIELDS_ONLY.has(type)) return data;
  const parsed = nodeKinds[type].data.safeParse(data);
  return parsed.success ? parsed.data : data;
}

/** A node's data with every property present; output format text and destination database by default. */
export function normalizeNodeData(
  type: BuilderNodeType,
  data: Record<string, unknown> | undefined,
  agentId?: string | null,
): BuilderNodeData {
  const d = data ?? {};
  const fallbackLabel = nodeKinds[type].label;
  return {
    ...kindFields(type, d),
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

/** Start and End can never be deleted (docs/product-rules.md): their kinds say so (contracts' node-kinds). */
export function isProtectedType(type: string | undefined): boolean {
  return isNodeKind(type) && !nodeKinds[type].removable;
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
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    ...(edge.sourceHandle ? { sourceHandle: edge.sourceHandle } : {}),
  };
}

/** The API's edge: the pair it joins and, from a condition, the branch it leaves from. */
export function toWorkflowEdge(
  edge: Pick<BuilderEdge, 'id' | 'source' | 'target' | 'sourceHandle'>,
): WorkflowEdge {
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    ...(edge.sourceHandle ? { sourceHandle: edge.sourceHandle } : {}),
  };
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

/** The kinds the palette adds (agents come from the agents list; Start and End are always there). */
export type PaletteKind = Exclude<NodeKind, 'start' | 'end' | 'agent'>;

/** What a new node of a kind starts with: one empty branch or assignment to fill in, an `all` merge. */
function initialData(kind: PaletteKind): Record<string, unknown> {
  switch (kind) {
    case 'condition':
      return { branches: [newBranch([])] };
    case 'guardrail':
      // One PII check that redacts: useful as soon as it is placed.
      return { checks: [{ type: 'pii', enabled: true, action: 'redact' }] };
    case 'transform':
      return { assignments: [{ name: '', value: '' }] };
    case 'merge':
      return { mode: 'all' };
    case 'note':
      return { text: '' };
    case 'tool':
      return { arguments: {} };
    case 'code':
      return { language: 'javascript', source: '' };
    case 'map':
      return { items: '', concurrency: 1, onItemError: 'fail' };
    case 'loop':
      return { until: '', maxIterations: 3 };
    case 'approval':
      return { title: '', message: '', policy: 'first' };
    case 'delay':
      return { seconds: 3600 };
  }
}

/** A new node of a palette kind, labelled with the kind's name. */
export function createKindNode(
  kind: PaletteKind,
  position: { x: number; y: number },
  options: { id: string; now?: string },
): BuilderNode {
  return {
    id: options.id,
    type: kind,
    position,
    data: normalizeNodeData(kind, {
      label: nodeKinds[kind].label,
      ...initialData(kind),
      lastUpdated: options.now ?? new Date().toISOString(),
    }),
  };
}

/** A condition's branches as its schema reads them ([] when there are none or they are malformed). */
export function branchesOf(data: Record<string, unknown>): ConditionBranch[] {
  return nodeKinds.condition.data.safeParse(data).data?.branches ?? [];
}

/** A transform's assignments as its schema reads them ([] when malformed). */
export function assignmentsOf(data: Record<string, unknown>): { name: string; value: string }[] {
  return nodeKinds.transform.data.safeParse(data).data?.assignments ?? [];
}

/** A new branch with the next free `branch-<n>` id (never `else`), labelled 'Branch <n>'. */
export function newBranch(existing: Pick<ConditionBranch, 'id'>[]): ConditionBranch {
  const ids = new Set(existing.map((b) => b.id));
  let n = existing.length + 1;
  while (ids.has(`branch-${n}`)) n += 1;
  return { id: `branch-${n}`, label: `Branch ${n}`, when: '' };
}

/**
 * The source handles of a node, in order: a condition's branches then else, an approval's outcomes;
 * one unnamed handle otherwise.
 */
export function sourceHandlesOf(node: Pick<BuilderNode, 'type' | 'data'>): (string | null)[] {
  if (node.type === 'approval') return approvalPaths(approvalDraftOf(node.data));
  if (node.type === 'guardrail') return [...guardrailPathValues];
  if (node.type !== 'condition') return [null];
  return [...branchesOf(node.data).map((b) => b.id), ELSE_BRANCH];
}

/** The words for the path an edge leaves a condition from (its branch's label, or Else) or an approval (its outcome). */
export function handleLabel(
  node: Pick<BuilderNode, 'type' | 'data'> | undefined,
  handle: string | null | undefined,
) {
  if (node?.type === 'approval' && handle)
    return APPROVAL_PATH_LABELS[handle as keyof typeof APPROVAL_PATH_LABELS] ?? handle;
  if (node?.type === 'guardrail' && handle) return GUARDRAIL_PATH_LABELS[handle] ?? handle;
  if (node?.type === 'agent') return handle === AGENT_BLOCKED_PATH ? AGENT_BLOCKED_PATH_LABEL : null;
  if (!node || node.type !== 'condition' || !handle) return null;
  if (handle === ELSE_BRANCH) return 'Else';
  const branch = branchesOf(node.data).find((b) => b.id === handle);
  return branch ? branch.label || branch.id : handle;
}

/** Sizes of nodes not measured yet (an agent card, a condition with its rows, a pill), with room to spare. */
const UNMEASURED = { agent: { width: 240, height: 100 }, other: { width: 140, height: 56 } };
/** Space kept between a new node and the others. */
const NODE_GAP = 24;

type Placed = Pick<BuilderNode, 'position' | 'type'> & {
  data?: Record<string, unknown>;
  measured?: { width?: number; height?: number };
};

/** A node's size before React Flow has measured it. */
export function unmeasuredSize(node: Pick<Placed, 'type' | 'data'>): { width: number; height: number } {
  switch (node.type) {
    case 'agent':
      return UNMEASURED.agent;
    case 'condition':
      return { width: 240, height: 64 + 32 * ((node.data ? branchesOf(node.data).length : 1) + 1) };
    case 'tool':
    case 'transform':
    case 'code':
    case 'map':
    case 'loop':
    case 'note':
      return { width: 240, height: 100 };
    case 'guardrail':
      return { width: 240, height: 100 + 32 * 2 };
    case 'approval':
      return {
        width: 240,
        height: 100 + 32 * (node.data ? approvalPaths(approvalDraftOf(node.data)).length : 2),
      };
    case 'merge':
    case 'delay':
      return { width: 220, height: 64 };
    default:
      return UNMEASURED.other;
  }
}

function boxOf(node: Placed) {
  const size = unmeasuredSize(node);
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

/**
 * Where a node of `size` goes when it is added at `point` (the canvas's centre, or where it was
 * dropped): centred on it when that covers no other node, else the nearest free spot around it, ring
 * by ring, so it stays in view.
 */
export function placeNear(
  nodes: Placed[],
  point: { x: number; y: number },
  size: { width: number; height: number },
): { x: number; y: number } {
  const boxes = nodes.map(boxOf);
  const origin = { x: Math.round(point.x - size.width / 2), y: Math.round(point.y - size.height / 2) };
  const free = (x: number, y: number) =>
    boxes.every(
      (b) =>
        x + size.width + NODE_GAP <= b.x ||
        b.x + b.width + NODE_GAP <= x ||
        y + size.height + NODE_GAP <= b.y ||
        b.y + b.height + NODE_GAP <= y,
    );
  if (free(origin.x, origin.y)) return origin;
  const step = { x: 60, y: 45 };
  for (let ring = 1; ring <= 8; ring++) {
    const spots: { x: number; y: number }[] = [];
    for (let dx = -ring; dx <= ring; dx++)
      for (let dy = -ring; dy <= ring; dy++)
        if (Math.max(Math.abs(dx), Math.abs(dy)) === ring)
          spots.push({ x: origin.x + dx * step.x, y: origin.y + dy * step.y });
    // The nearest first: a spot right below or beside comes before a corner.
    spots.sort((a, b) => distance(a, origin) - distance(b, origin));
    const spot = spots.find((s) => free(s.x, s.y));
    if (spot) return spot;
  }
  return origin;
}

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.hypot(a.x - b.x, a.y - b.y);

/** An edge's id: the pair it joins, and the branch it leaves from (a condition's paths may share a target). */
export function edgeId(source: string, target: string, sourceHandle?: string | null): string {
  return sourceHandle ? `e-${source}-${sourceHandle}-${target}` : `e-${source}-${target}`;
}

export function toWorkflowNode(node: BuilderNode): WorkflowNode {
  const type = (node.type ?? 'agent') as BuilderNodeType;
  const data: Record<string, unknown> = { ...node.data };
  if (OWN_FIELDS_ONLY.has(type)) for (const key of AGENT_FIELDS) delete data[key];
  return {
    id: node.id,
    type,
    ...(type === 'agent' ? { agentId: node.data.agentId || null } : {}),
    position: { x: node.position.x, y: node.position.y },
    data,
  };
}
