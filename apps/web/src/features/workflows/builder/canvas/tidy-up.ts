// Tidy up: the whole graph laid out left to right along its edges by a layout library (dagre, loaded
// only when the button is pressed so it stays out of every other page's bundle). A condition's paths
// then leave it in the order of its handles (its branches, then else), so they do not cross.
import { sourceHandlesOf, unmeasuredSize } from '../builder-nodes';
import type { BuilderEdge, BuilderNode } from '../types';

interface LayoutBox {
  id: string;
  width: number;
  height: number;
}

/** A layout engine: node boxes and edges in, each node's centre out. */
export type LayoutFn = (
  boxes: LayoutBox[],
  edges: { source: string; target: string }[],
) => Map<string, { x: number; y: number }>;

/** Space kept between a condition's targets when they are put in its handles' order. */
const TARGET_GAP = 24;

/** Each node's new top-left position from the engine's centres; nodes it did not place stay put. */
export function tidyPositions(
  nodes: BuilderNode[],
  edges: BuilderEdge[],
  layout: LayoutFn,
): Map<string, { x: number; y: number }> {
  const boxes = nodes.map((n) => {
    const size = unmeasuredSize(n);
    return { id: n.id, width: n.measured?.width ?? size.width, height: n.measured?.height ?? size.height };
  });
  const ids = new Set(nodes.map((n) => n.id));
  const centres = layout(
    boxes,
    edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => ({ source: e.source, target: e.target })),
  );
  const positions = new Map<string, { x: number; y: number }>();
  for (const box of boxes) {
    const c = centres.get(box.id);
    if (c) positions.set(box.id, { x: Math.round(c.x - box.width / 2), y: Math.round(c.y - box.height / 2) });
  }
  for (const node of nodes)
    if (node.type === 'condition' || node.type === 'approval') orderTargets(node, edges, boxes, positions);
  return positions;
}

/**
 * Puts the targets of a condition (or an approval) that share a column top to bottom in the order of
 * the handles their edges leave from (the layout engine knows nothing of handles), in the places they
 * took.
 */
function orderTargets(
  condition: BuilderNode,
  edges: BuilderEdge[],
  boxes: LayoutBox[],
  positions: Map<string, { x: number; y: number }>,
) {
  const handles = sourceHandlesOf(condition);
  const rank = new Map<string, number>();
  for (const edge of edges) {
    if (edge.source !== condition.id || !positions.has(edge.target)) continue;
    const index = handles.indexOf(edge.sourceHandle ?? null);
    const at = index === -1 ? handles.length : index;
    rank.set(edge.target, Math.min(rank.get(edge.target) ?? Infinity, at));
  }
  const box = (id: string) => boxes.find((b) => b.id === id)!;
  // A rank of the layout is a column of centres (its nodes may differ in width).
  const columns = new Map<number, string[]>();
  for (const id of rank.keys()) {
    const centre = Math.round(positions.get(id)!.x + box(id).width / 2);
    columns.set(centre, [...(columns.get(centre) ?? []), id]);
  }
  const height = (id: string) => box(id).height;
  for (const ids of columns.values()) {
    if (ids.length < 2) continue;
    const slots = ids.map((id) => positions.get(id)!.y).sort((a, b) => a - b);
    const ordered = [...ids].sort((a, b) => rank.get(a)! - rank.get(b)!);
    let floor = -Infinity;
    ordered.forEach((id, i) => {
      const y = Math.max(slots[i]!, floor);
      positions.set(id, { x: positions.get(id)!.x, y });
      floor = y + height(id) + TARGET_GAP;
    });
  }
}

/** The dagre engine, imported on first use. */
export async function loadDagreLayout(): Promise<LayoutFn> {
  const { dagreLayout } = await import('./dagre-layout');
  return dagreLayout;
}
