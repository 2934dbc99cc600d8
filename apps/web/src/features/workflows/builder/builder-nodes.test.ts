import { describe, expect, it } from 'vitest';

import type { BuilderNode } from './types';

import {
  createAgentNode,
  createKindNode,
  defaultNodes,
  freePosition,
  handleLabel,
  newBranch,
  oneOf,
  placeNear,
  sourceHandlesOf,
  str,
  toBuilderNode,
  toWorkflowNode,
} from './builder-nodes';

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

describe('the step kinds’ nodes', () => {
  it('saves only a kind’s own fields beside its label, and reads them back with their defaults', () => {
    const merge = createKindNode('merge', { x: 1, y: 2 }, { id: 'm', now: 'then' });
    expect(toWorkflowNode(merge)).toEqual({
      id: 'm',
      type: 'merge',
      position: { x: 1, y: 2 },
      data: { label: 'Merge', description: '', lastUpdated: 'then', mode: 'all' },
    });
    const loaded = toBuilderNode({ id: 'm', type: 'merge', position: { x: 0, y: 0 }, data: {} });
    expect(loaded.data.mode).toBe('all');
    expect(toBuilderNode({ id: 'n', type: 'note', position: { x: 0, y: 0 }, data: {} }).data.text).toBe('');
  });

  it('gives a new branch the next free id, never else', () => {
    expect(newBranch([])).toEqual({ id: 'branch-1', label: 'Branch 1', when: '' });
    expect(newBranch([{ id: 'branch-1' }, { id: 'branch-3' }]).id).toBe('branch-4');
    expect(newBranch([{ id: 'branch-2' }]).id).toBe('branch-3');
  });

  it('places a new step centred where it is added, else on the nearest free spot around it', () => {
    const size = { width: 200, height: 64 };
    expect(placeNear([], { x: 500, y: 300 }, size)).toEqual({ x: 400, y: 268 });
    const placed: BuilderNode[] = [];
    for (let i = 0; i < 6; i++) {
      const position = placeNear(placed, { x: 500, y: 300 }, size);
      // Clear of every other node, and never far from where it was asked for.
      for (const other of placed) {
        const apart =
          position.x + 200 <= other.position.x ||
          other.position.x + 200 <= position.x ||
          position.y + 64 <= other.position.y ||
          other.position.y + 64 <= position.y;
        expect(apart).toBe(true);
      }
      expect(Math.abs(position.x - 400)).toBeLessThanOrEqual(300);
      expect(Math.abs(position.y - 268)).toBeLessThanOrEqual(300);
      placed.push(createKindNode('merge', position, { id: `m${i}` }));
    }
  });

  it('starts an approval asking nothing of anyone yet and a delay of an hour, saved without agent fields', () => {
    const approval = toWorkflowNode(createKindNode('approval', { x: 0, y: 0 }, { id: 'a', now: 'then' }));
    expect(approval.data).toEqual({
      label: 'Approval',
      description: '',
      lastUpdated: 'then',
      title: '',
      message: '',
      policy: 'first',
    });
    const delay = toWorkflowNode(createKindNode('delay', { x: 0, y: 0 }, { id: 'd', now: 'then' }));
    expect(delay.data).toEqual({ label: 'Delay', description: '', lastUpdated: 'then', seconds: 3600 });
  });

  it('gives an approval a handle per outcome, the timeout one only when its timeout takes a path', () => {
    const approval = (timeout?: unknown) => ({
      type: 'approval' as const,
      data: toBuilderNode({
        id: 'a',
        type: 'approval',
        position: { x: 0, y: 0 },
        data: { title: 'Ship?', ...(timeout ? { timeout } : {}) },
      }).data,
    });
    expect(sourceHandlesOf(approval())).toEqual(['approved', 'rejected']);
    expect(sourceHandlesOf(approval({ seconds: 60, onTimeout: 'reject' }))).toEqual(['approved', 'rejected']);
    expect(sourceHandlesOf(approval({ seconds: 60, onTimeout: 'branch' }))).toEqual([
      'approved',
      'rejected',
      'timeout',
    ]);
    expect(handleLabel(approval(), 'rejected')).toBe('Rejected');
    expect(handleLabel(approval(), 'timeout')).toBe('Timeout');
    // A delay has one unnamed path out, as any other step.
    expect(sourceHandlesOf({ type: 'delay', data: approval().data })).toEqual([null]);
  });

  it('starts a guardrail with one PII check that redacts, with its Pass and Fail paths', () => {
    const guardrail = createKindNode('guardrail', { x: 0, y: 0 }, { id: 'g', now: 'then' });
    expect(toWorkflowNode(guardrail).data).toEqual({
      label: 'Guardrail',
      description: '',
      lastUpdated: 'then',
      checks: [{ type: 'pii', enabled: true, action: 'redact' }],
    });
    expect(sourceHandlesOf(guardrail)).toEqual(['pass', 'fail']);
    expect(handleLabel(guardrail, 'pass')).toBe('Pass');
    expect(handleLabel(guardrail, 'fail')).toBe('Fail');
  });
});
