// Pure rules of the read-only workflow graph: a stored definition (a workflow or one of its versions)
// turned into React Flow nodes and edges, each agent node named from its data or its agent and
// marked with its status in a run (docs/product-rules.md, "Run review").
import type { WorkflowEdge, WorkflowNode } from '@crewline/contracts';
import type { Edge, Node } from '@xyflow/react';

export const GRAPH_NODE_STATUSES = ['pending', 'running', 'completed', 'failed', 'reused'] as const;
export type GraphNodeStatus = (typeof GRAPH_NODE_STATUSES)[number];

export const GRAPH_NODE_STATUS_LABELS: Record<GraphNodeStatus, string> = {
  pending: 'Not run',
  running: 'Running',
  completed: 'Done',
  failed: 'Failed',
  reused: 'Reused',
};

/** What the graph needs of an agent to name a node whose data lacks it. */
export interface GraphAgent {
  id: string;
  name: string;
  role?: string | null;
  llmModel?: string | null;
}

interface GraphNodeData extends Record<string, unknown> {
  /** Start/End label, or the agent's name. */
  title: string;
  /** The node's own label when it differs from the agent's name. */
  subtitle: string;
  role: string;
  model: string;
  color: string;
  status?: GraphNodeStatus;
}

export type GraphNode = Node<GraphNodeData, WorkflowNode['type']>;

const DEFAULT_COLOR = '#6366f1';

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

export function toGraphNodes(
  nodes: readonly WorkflowNode[],
  agents: readonly GraphAgent[] = [],
  nodeStatus: Readonly<Record<string, GraphNodeStatus>> = {},
): GraphNode[] {
  const agentById = new Map(agents.map((agent) => [agent.id, agent]));
  return nodes.map((node) => {
    const data = node.data ?? {};
    const agentId = text(data.agentId) || node.agentId || '';
    const agent = agentId ? agentById.get(agentId) : undefined;
    const label = text(data.label);
    const fallback = node.type === 'start' ? 'Start' : node.type === 'end' ? 'End' : 'Agent';
    const title =
      node.type === 'agent' ? text(data.name) || agent?.name || label || fallback : label || fallback;
    const status = node.type === 'agent' ? nodeStatus[node.id] : undefined;
    return {
      id: node.id,
      type: node.type,
      position: { x: node.position.x, y: node.position.y },
      data: {
        title,
        subtitle: node.type === 'agent' && label && label !== title ? label : '',
        role: text(data.role) || agent?.role || '',
        model: text(data.model) || agent?.llmModel || '',
        color: text(data.color) || DEFAULT_COLOR,
        ...(status ? { status } : {}),
      },
    };
  });
}

/** Only edges whose both ends exist: a dangling edge would make React Flow warn and draw nothing. */
export function toGraphEdges(edges: readonly WorkflowEdge[], nodes: readonly WorkflowNode[]): Edge[] {
  const ids = new Set(nodes.map((node) => node.id));
  return edges
    .filter((edge) => ids.has(edge.source) && ids.has(edge.target))
    .map((edge) => ({ id: edge.id, source: edge.source, target: edge.target }));
}
