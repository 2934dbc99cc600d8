// Tidy up: the whole graph laid out left to right along its edges by a layout library (dagre, loaded
// only when the button is pressed so it stays out of every other page's bundle).
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

const FALLBACK = { agent: { width: 240, height: 100 }, other: { width: 140, height: 56 } };

/** Each node's new top-left position from the engine's centres; nodes it did not place stay put. */
export function tidyPositions(
  nodes: BuilderNode[],
  edges: BuilderEdge[],
  layout: LayoutFn,
): Map<string, { x: number; y: number }> {
  const boxes = nodes.map((n) => {
    const size = n.type === 'agent' ? FALLBACK.agent : FALLBACK.other;
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
  return positions;
}

/** The dagre engine, imported on first use. */
export async function loadDagreLayout(): Promise<LayoutFn> {
  const { dagreLayout } = await import('./dagre-layout');
  return dagreLayout;
}
