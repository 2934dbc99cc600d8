// Pure rules of the read-only workflow graph: a stored definition (a workflow or one of its versions)
// turned into React Flow nodes and edges, each agent node named from its data or its agent, each step
// marked with its status in a run (a map or a loop with its progress), and each edge with whether the
// run went along it (docs/product-rules.md, "Run review").
import {
  ELSE_BRANCH,
  isNodeKind,
  nodeKinds,
  type WorkflowEdge,
  type WorkflowNode,
} from '@crewline/contracts';
import type { Edge, Node } from '@xyflow/react';

import type { EdgePathMark } from '@/lib/runs/run-paths';
import type { ItemProgress } from '@/lib/runs/run-state';

export const GRAPH_NODE_STATUSES = [
  'pending',
  'running',
  'waiting',
  'completed',
  'failed',
  'reused',
  'skipped',
] as const;
export type GraphNodeStatus = (typeof GRAPH_NODE_STATUSES)[number];

export const GRAPH_NODE_STATUS_LABELS: Record<GraphNodeStatus, string> = {
  pending: 'Not run',
  running: 'Running',
  waiting: 'Waiting',
  completed: 'Done',
  failed: 'Failed',
  reused: 'Reused',
  skipped: 'Skipped',
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
  /** A condition's paths: its branches in order, then else (each an edge handle). */
  branches?: { id: string; label: string }[];
  /** A condition in a run: the label of the branch it took. */
  branchTaken?: string;
  /** The id of that branch (its row is highlighted). */
  branchTakenId?: string;
  /** A note's text. */
  text?: string;
  /** A map's items done or a loop's pass in a run (item-progress.tsx). */
  progress?: ItemProgress;
}

export type GraphNode = Node<GraphNodeData, WorkflowNode['type']>;

const DEFAULT_COLOR = '#6366f1';

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** A condition's branches as the graph lists them, else last (its handles keep the edges' `sourceHandle`). */
function conditionPaths(data: Record<string, unknown>): { id: string; label: string }[] {
  const parsed = nodeKinds.condition.data.safeParse(data);
  const branches = (parsed.data?.branches ?? []).map((branch) => ({
    id: branch.id,
    label: branch.label.trim() || branch.id,
  }));
  return [...branches, { id: ELSE_BRANCH, label: 'Else' }];
}

/** An approval's paths (its outcomes): approved, rejected, and timeout when its timeout takes a path of its own. */
function approvalPaths(data: Record<string, unknown>): { id: string; label: string }[] {
  const timeout = data.timeout as { onTimeout?: unknown } | undefined;
  return [
    { id: 'approved', label: 'Approved' },
    { id: 'rejected', label: 'Rejected' },
    ...(timeout?.onTimeout === 'branch' ? [{ id: 'timeout', label: 'Timeout' }] : []),
  ];
}

/** The named paths out of a node (a condition's branches, an approval's outcomes); none for other kinds. */
const pathsOf = (node: WorkflowNode) =>
  node.type === 'condition'
    ? conditionPaths(node.data ?? {})
    : node.type === 'approval'
      ? approvalPaths(node.data ?? {})
      : undefined;

export function toGraphNodes(
  nodes: readonly WorkflowNode[],
  agents: readonly GraphAgent[] = [],
  nodeStatus: Readonly<Record<string, GraphNodeStatus>> = {},
  /** A condition's branch taken in the run, by node id (a branch id, or `else`). */
  branchTaken: Readonly<Record<string, string>> = {},
  /** A map's or a loop's progress in the run, by node id. */
  progress: Readonly<Record<string, ItemProgress>> = {},
): GraphNode[] {
  const agentById = new Map(agents.map((agent) => [agent.id, agent]));
  return nodes.map((node) => {
    const data = node.data ?? {};
    const agentId = text(data.agentId) || node.agentId || '';
    const agent = agentId ? agentById.get(agentId) : undefined;
    const label = text(data.label);
    const fallback = isNodeKind(node.type) ? nodeKinds[node.type].label : 'Step';
    const title =
      node.type === 'agent' ? text(data.name) || agent?.name || label || fallback : label || fallback;
    const step = isNodeKind(node.type) && nodeKinds[node.type].step;
    const status = step ? nodeStatus[node.id] : undefined;
    const branches = pathsOf(node);
    const taken = branches && branchTaken[node.id];
    const takenLabel = taken ? (branches.find((b) => b.id === taken)?.label ?? taken) : undefined;
    const items = node.type === 'map' || node.type === 'loop' ? progress[node.id] : undefined;
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
        ...(branches ? { branches } : {}),
        ...(taken ? { branchTaken: takenLabel, branchTakenId: taken } : {}),
        ...(node.type === 'note' ? { text: text(data.text) } : {}),
        ...(items ? { progress: items } : {}),
      },
    };
  });
}

/**
 * Only edges whose both ends exist: a dangling edge would make React Flow warn and draw nothing. A
 * condition's edges leave from their branch's handle; in a run, each edge's path mark (`marks`) is
 * its `data-path` (taken: drawn strong; not taken: dimmed).
 */
export function toGraphEdges(
  edges: readonly WorkflowEdge[],
  nodes: readonly WorkflowNode[],
  marks: Readonly<Record<string, EdgePathMark>> = {},
): Edge[] {
  const ids = new Set(nodes.map((node) => node.id));
  // A condition's (an approval's) handles by node: an edge from a path it no longer has leaves from no handle.
  const handles = new Map(
    nodes.flatMap((node) => {
      const paths = pathsOf(node);
      return paths ? [[node.id, new Set(paths.map((path) => path.id))] as const] : [];
    }),
  );
  return edges
    .filter((edge) => ids.has(edge.source) && ids.has(edge.target))
    .map((edge) => {
      const mark = marks[edge.id];
      return {
        id: edge.id,
        source: edge.source,
        target: edge.target,
        ...(edge.sourceHandle && handles.get(edge.source)?.has(edge.sourceHandle)
          ? { sourceHandle: edge.sourceHandle }
          : {}),
        ...(mark ? { className: `run-path-${mark}`, data: { path: mark } } : {}),
      };
    });
}
