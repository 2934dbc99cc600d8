// The builder's nodes (docs/product-rules.md): the default Start and End, a new agent node and where it
// goes, and the conversions between the API's nodes and edges and the canvas's.
import { isNodeKind, nodeKinds, type WorkflowEdge, type WorkflowNode } from '@crewline/contracts';

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

/** A node's data with every property present; output format text and destination database by default. */
export function normalizeNodeData(
  type: BuilderNodeType,
  data: Record<string, unknown> | undefined,
  agentId?: string | null,
): BuilderNodeData {
  const d = data ?? {};
  const fallbackLabel = nodeKinds[type].label;
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
