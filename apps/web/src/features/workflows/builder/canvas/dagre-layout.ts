// The dagre layout behind Tidy up: ranks left to right, spacing that leaves room for edge labels.
import dagre from '@dagrejs/dagre';

import type { LayoutFn } from './tidy-up';

export const dagreLayout: LayoutFn = (boxes, edges) => {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'LR', nodesep: 45, ranksep: 90, marginx: 30, marginy: 30 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const box of boxes) graph.setNode(box.id, { width: box.width, height: box.height });
  for (const edge of edges) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  const centres = new Map<string, { x: number; y: number }>();
  for (const box of boxes) {
    const placed = graph.node(box.id);
    if (placed) centres.set(box.id, { x: placed.x, y: placed.y });
  }
  return centres;
};
