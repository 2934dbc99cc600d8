import type { NodeKind } from '@crewline/contracts';
import { isStepKind } from './node-kinds';

export { nodeAgentId } from './node-kinds';

type PlanNode = { id: string; type: NodeKind };
type PlanEdge = { source: string; target: string };

/**
 * The agent nodes in the order a sequential run visits them: breadth-first from the start node along
 * the edges, each node once (a cycle cannot loop). Agents not reachable from Start are left out;
 * without a start node, the agents run in the order they were placed.
 */
export function sequentialOrder(nodes: PlanNode[], edges: PlanEdge[]): string[] {
  const agents = new Set(nodes.filter((n) => isStepKind(n.type)).map((n) => n.id));
  const start = nodes.find((n) => n.type === 'start');
  if (!start) return [...agents];
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const seen = new Set([start.id]);
  const queue = [start.id];
  const order: string[] = [];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (agents.has(id)) order.push(id);
    for (const target of next.get(id) ?? []) {
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return order;
}

/** The agent nodes with an edge into `nodeId` (its predecessors, whose outputs it receives). */
export function agentPredecessors(nodeId: string, nodes: PlanNode[], edges: PlanEdge[]): string[] {
  const agents = new Set(nodes.filter((n) => isStepKind(n.type)).map((n) => n.id));
  return edges.filter((e) => e.target === nodeId && agents.has(e.source)).map((e) => e.source);
}
