import { describe, expect, it } from 'vitest';

import { createAgentNode, defaultNodes, freePosition, oneOf, str, toBuilderNode } from './builder-nodes';

describe('freePosition', () => {
  const overlap = (a: { x: number; y: number }, b: { x: number; y: number }) =>
    Math.abs(a.x - b.x) < 240 && Math.abs(a.y - b.y) < 100;

  it('places twenty agents one after another with no two overlapping, nor on Start or End', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const nodes = [...defaultNodes('2026-01-01T00:00:00.000Z')];
    for (let n = 0; n < 20; n++) {
      const position = freePosition(nodes, random);
      for (const other of nodes) {
        const size = other.type === 'agent' ? { w: 240, h: 100 } : { w: 140, h: 56 };
        const apart =
          position.x + 240 <= other.position.x ||
          other.position.x + size.w <= position.x ||
          position.y + 100 <= other.position.y ||
          other.position.y + size.h <= position.y;
        expect(apart).toBe(true);
      }
      nodes.push(
        createAgentNode({ id: `a${n}`, name: `A${n}`, role: 'r' }, position, { id: `n${n}`, color: '#000' }),
      );
    }
    const agents = nodes.filter((node) => node.type === 'agent');
    for (const a of agents)
      for (const b of agents) if (a !== b) expect(overlap(a.position, b.position)).toBe(false);
  });

  it('uses measured sizes, and finds a spot below them all when chance keeps landing on a node', () => {
    const wide = {
      type: 'agent' as const,
      position: { x: 0, y: 0 },
      measured: { width: 5000, height: 3000 },
    };
    expect(freePosition([wide], () => 0.5)).toEqual({ x: 150, y: 3024 });
  });
});

describe('reading stored node data', () => {
  it('keeps strings and known values, and falls back for anything else', () => {
    expect([str('text'), str(42), str(undefined, 'fallback')]).toEqual(['text', '', 'fallback']);
    expect(oneOf(['text', 'json'], 'json', 'text')).toBe('json');
    expect(oneOf(['text', 'json'], 'xml', 'text')).toBe('text');
    expect(oneOf(['text', 'json'], 7, 'text')).toBe('text');
  });

  it('makes Start and End undeletable on the canvas, and agents deletable', () => {
    const node = (type: 'start' | 'agent') =>
      toBuilderNode({ id: type, type, position: { x: 0, y: 0 }, data: {} });
    expect(node('start').deletable).toBe(false);
    expect(node('agent').deletable).toBeUndefined();
  });
});
