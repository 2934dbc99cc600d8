// The in-app clipboard: copied nodes (never Start or End) with the edges between them (a condition's
// keep the branch they leave from), pasted with fresh ids, shifted so each paste lands beside the
// last, and selected.
import type { BuilderEdge, BuilderNode } from '../types';
import { edgeId, freePosition, isProtectedType } from '../builder-nodes';

export interface Clipboard {
  nodes: BuilderNode[];
  edges: BuilderEdge[];
}

/** How far each paste moves from the copied nodes (a multiple of the 15 px grid). */
export const PASTE_OFFSET = 30;

/** The selected nodes that may be copied, and the edges that join two of them. */
export function copySelection(nodes: BuilderNode[], edges: BuilderEdge[]): Clipboard | null {
  const copied = nodes.filter((n) => n.selected && !isProtectedType(n.type));
  if (copied.length === 0) return null;
  const ids = new Set(copied.map((n) => n.id));
  return {
    nodes: copied.map((n) => structuredClone({ ...n, selected: false, dragging: false })),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => ({ ...e, selected: false })),
  };
}

/**
 * The clipboard's nodes and edges as new, selected copies. `times` counts the pastes so far (1 for the
 * first) and sets the offset. A single node whose offset spot is taken goes to a free spot instead.
 */
export function pasteClipboard(
  clipboard: Clipboard,
  existing: BuilderNode[],
  times: number,
  newId: () => string,
  random: () => number = Math.random,
): Clipboard {
  const idMap = new Map(clipboard.nodes.map((n) => [n.id, newId()]));
  const shift = PASTE_OFFSET * times;
  const now = new Date().toISOString();
  const nodes = clipboard.nodes.map((n): BuilderNode => ({
    ...structuredClone(n),
    id: idMap.get(n.id)!,
    position: { x: n.position.x + shift, y: n.position.y + shift },
    data: { ...structuredClone(n.data), lastUpdated: now },
    selected: true,
  }));
  if (nodes.length === 1 && overlapsAny(nodes[0]!, existing)) {
    nodes[0] = { ...nodes[0]!, position: freePosition(existing, random) };
  }
  const edges = clipboard.edges.map((e): BuilderEdge => {
    const source = idMap.get(e.source)!;
    const target = idMap.get(e.target)!;
    return { ...e, id: edgeId(source, target, e.sourceHandle), source, target, selected: false };
  });
  return { nodes, edges };
}

function overlapsAny(node: BuilderNode, others: BuilderNode[]): boolean {
  const w = node.measured?.width ?? 240;
  const h = node.measured?.height ?? 100;
  return others.some((o) => {
    const ow = o.measured?.width ?? 240;
    const oh = o.measured?.height ?? 100;
    return (
      node.position.x < o.position.x + ow &&
      o.position.x < node.position.x + w &&
      node.position.y < o.position.y + oh &&
      o.position.y < node.position.y + h
    );
  });
}
