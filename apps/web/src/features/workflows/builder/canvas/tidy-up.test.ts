import { describe, expect, it } from 'vitest';

import type { BuilderEdge, BuilderNode } from '../types';
import { createAgentNode, createKindNode, defaultNodes } from '../builder-nodes';
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

describe('tidy up a condition', () => {
  it('puts the steps after a condition top to bottom in the order of its branches, else last', () => {
    const condition = createKindNode('condition', { x: 0, y: 0 }, { id: 'route' });
    condition.data.branches = [
      { id: 'first', label: 'First', when: 'true' },
      { id: 'second', label: 'Second', when: 'true' },
    ];
    const nodes = [
      ...defaultNodes(),
      condition,
      agentNode('x-first', 0, 0),
      agentNode('y-second', 0, 0),
      agentNode('z-else', 0, 0),
    ];
    // Connected in the handles' order, which dagre alone stacks bottom to top.
    const edges: BuilderEdge[] = [
      { id: 'e0', source: 'start', target: 'route' },
      { id: 'e1', source: 'route', target: 'x-first', sourceHandle: 'first' },
      { id: 'e2', source: 'route', target: 'y-second', sourceHandle: 'second' },
      { id: 'e3', source: 'route', target: 'z-else', sourceHandle: 'else' },
      ...['z-else', 'y-second', 'x-first'].map((id) => ({ id: `${id}-end`, source: id, target: 'end' })),
    ];
    const positions = tidyPositions(nodes, edges, dagreLayout);
    const y = (id: string) => positions.get(id)!.y;
    expect(y('x-first')).toBeLessThan(y('y-second'));
    expect(y('y-second')).toBeLessThan(y('z-else'));
    // Still one column, and no two overlap (an agent card is 100 high before it is measured).
    expect(new Set(['x-first', 'y-second', 'z-else'].map((id) => positions.get(id)!.x)).size).toBe(1);
    expect(y('y-second') - y('x-first')).toBeGreaterThanOrEqual(100);
    expect(y('z-else') - y('y-second')).toBeGreaterThanOrEqual(100);
  });
});
