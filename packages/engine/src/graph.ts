import type { NodeKind } from '@crewline/contracts';

type GraphNode = { id: string; type: NodeKind };
export type GraphEdge = { source: string; target: string; sourceHandle?: string | null };

/**
 * A workflow's graph as a run walks it: the edges that count, by node. An edge counts when both its
 * ends exist, neither is a note, its source is reachable from the start node and it does not close a
 * cycle (a cycle is only a warning, docs/product-rules.md: its closing edge is never waited for, so
 * each node still runs once). Without a start node every edge between existing nodes counts.
 */
export function workflowGraph<N extends GraphNode, E extends GraphEdge>(
  nodes: N[],
  edges: E[],
  /** Validation's view: the edges of nodes not reachable from Start count too (their scope is checked as well). */
  options: { unreachable?: boolean } = {},
) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const start = nodes.find((n) => n.type === 'start');
  const usable = edges.filter((e) => {
    const source = byId.get(e.source);
    const target = byId.get(e.target);
    return source && target && source.type !== 'note' && target.type !== 'note';
  });
  const listed = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  const out = new Map<string, E[]>();
  for (const e of usable) listed(out, e.source, e);

  // Depth-first from the start: the edges that lead back into a node still being visited close a cycle.
  const closing = new Set<E>();
  const reachable = new Set<string>();
  if (start) {
    const visiting = new Set<string>();
    const visit = (id: string) => {
      reachable.add(id);
      visiting.add(id);
      for (const e of out.get(id) ?? []) {
        if (visiting.has(e.target)) closing.add(e);
        else if (!reachable.has(e.target)) visit(e.target);
      }
      visiting.delete(id);
    };
    visit(start.id);
  }
  const counted = usable.filter(
    (e) => !closing.has(e) && (!start || options.unreachable || reachable.has(e.source)),
  );
  const outgoing = new Map<string, E[]>();
  const incoming = new Map<string, E[]>();
  for (const e of counted) {
    listed(outgoing, e.source, e);
    listed(incoming, e.target, e);
  }

  /** The nodes with a path into `id` (its upstream), nearest first. */
  function upstream(id: string): N[] {
    const seen = new Set<string>([id]);
    const found: N[] = [];
    const queue = [id];
    while (queue.length > 0) {
      for (const e of incoming.get(queue.shift()!) ?? []) {
        if (seen.has(e.source)) continue;
        seen.add(e.source);
        found.push(byId.get(e.source)!);
        queue.push(e.source);
      }
    }
    return found;
  }

  return {
    byId,
    start,
    reachable,
    outgoing: (id: string) => outgoing.get(id) ?? [],
    incoming: (id: string) => incoming.get(id) ?? [],
    upstream,
  };
}
