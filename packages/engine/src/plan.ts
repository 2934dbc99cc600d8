import { isStepKind, type NodeKind } from '@crewline/contracts';
import { workflowGraph } from './graph';

type PlanNode = { id: string; type: NodeKind };
type PlanEdge = { source: string; target: string; sourceHandle?: string | null };

/**
 * The step nodes in the order a sequential run reaches them: breadth-first from the start node along
 * the edges, each node once (a cycle cannot loop). Steps not reachable from Start are left out;
 * without a start node, the steps in the order they were placed. (A run waits at a node for all
 * its paths, run-graph.ts; this is the order progress and reviews list the steps in.)
 */
export function sequentialOrder(nodes: PlanNode[], edges: PlanEdge[]): string[] {
  const steps = new Set(nodes.filter((n) => isStepKind(n.type)).map((n) => n.id));
  const start = nodes.find((n) => n.type === 'start');
  if (!start) return [...steps];
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const seen = new Set([start.id]);
  const queue = [start.id];
  const order: string[] = [];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (steps.has(id)) order.push(id);
    for (const target of next.get(id) ?? []) {
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return order;
}

/** The step nodes with a path into `nodeId`: what a run has finished before it (a retry from it reuses them). */
export function upstreamSteps(nodeId: string, nodes: PlanNode[], edges: PlanEdge[]): string[] {
  return workflowGraph(nodes, edges)
    .upstream(nodeId)
    .filter((n) => isStepKind(n.type))
    .map((n) => n.id);
}
