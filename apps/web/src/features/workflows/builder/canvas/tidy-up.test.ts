import { describe, expect, it } from 'vitest';

import type { BuilderEdge, BuilderNode } from '../types';
import { createAgentNode, defaultNodes } from '../builder-nodes';
import { dagreLayout } from './dagre-layout';
import { tidyPositions, type LayoutFn } from './tidy-up';

const agentNode = (id: string, x: number, y: number): BuilderNode =>
  createAgentNode({ id: 'a1', name: id, role: 'r' }, { x, y }, { id, color: '#6366f1' });

describe('tidy up', () => {
  it('hands the engine every node size and edge, and turns its centres into top-left positions', () => {
    const calls: Parameters<LayoutFn>[] = [];
    const fake: LayoutFn = (boxes, edges) => {
      calls.push([boxes, edges]);
      return new Map(boxes.map((b, i) => [b.id, { x: 1000 + i * 500, y: 200 }]));
    };
    const nodes = [...defaultNodes(), { ...agentNode('a', 0, 0), measured: { width: 200, height: 80 } }];
    const edges: BuilderEdge[] = [
      { id: 'e1', source: 'start', target: 'a' },
      { id: 'dangling', source: 'a', target: 'gone' },
    ];
    const positions = tidyPositions(nodes, edges, fake);
    expect(calls[0]![0].find((b) => b.id === 'a')).toEqual({ id: 'a', width: 200, height: 80 });
    expect(calls[0]![1]).toEqual([{ source: 'start', target: 'a' }]);
    expect(positions.get('a')).toEqual({ x: 2000 - 100, y: 200 - 40 });
  });

  it('leaves nodes the engine did not place where they are', () => {
    const positions = tidyPositions([agentNode('a', 5, 5)], [], () => new Map());
    expect(positions.size).toBe(0);
  });

  it('with dagre, lays a chain out left to right along its edges without overlaps', () => {
    const nodes = [...defaultNodes(), agentNode('c', 0, 0), agentNode('b', 0, 300), agentNode('a', 0, 600)];
    const order = ['start', 'a', 'b', 'c', 'end'];
    const edges = order.slice(1).map((t, i) => ({ id: `e${i}`, source: order[i]!, target: t }));
    const positions = tidyPositions(nodes, edges, dagreLayout);
    const xs = order.map((id) => positions.get(id)!.x);
    expect([...xs].sort((p, q) => p - q)).toEqual(xs);
    expect(new Set(xs).size).toBe(order.length);
  });
});
