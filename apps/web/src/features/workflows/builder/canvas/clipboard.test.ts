import { describe, expect, it } from 'vitest';

import type { BuilderEdge, BuilderNode } from '../types';
import { createAgentNode, createKindNode, defaultNodes } from '../builder-nodes';
import { copySelection, PASTE_OFFSET, pasteClipboard } from './clipboard';

const agent = { id: 'a1', name: 'Writer', role: 'Writes' };
const node = (id: string, x: number, y: number, selected = false): BuilderNode => ({
  ...createAgentNode(agent, { x, y }, { id, color: '#6366f1' }),
  selected,
});

function ids() {
  let i = 0;
  return () => `new-${++i}`;
}

describe('clipboard', () => {
  it('copies the selected agent nodes and only the edges between them, never Start or End', () => {
    const [start, end] = defaultNodes().map((n) => ({ ...n, selected: true }));
    const nodes = [start!, end!, node('a', 0, 0, true), node('b', 300, 0, true), node('c', 600, 0)];
    const edges: BuilderEdge[] = [
      { id: 'e1', source: 'start', target: 'a' },
      { id: 'e2', source: 'a', target: 'b' },
      { id: 'e3', source: 'b', target: 'c' },
    ];
    const clip = copySelection(nodes, edges)!;
    expect(clip.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(clip.edges.map((e) => e.id)).toEqual(['e2']);
  });

  it('has nothing to copy when only Start and End are selected', () => {
    expect(
      copySelection(
        defaultNodes().map((n) => ({ ...n, selected: true })),
        [],
      ),
    ).toBeNull();
  });

  it('pastes with new ids, edges rewired to the copies, offset further each time, and selected', () => {
    const clip = copySelection(
      [node('a', 0, 0, true), node('b', 300, 0, true)],
      [{ id: 'e-a-b', source: 'a', target: 'b' }],
    )!;
    const first = pasteClipboard(clip, [], 1, ids());
    expect(first.nodes.map((n) => [n.id, n.position, n.selected])).toEqual([
      ['new-1', { x: PASTE_OFFSET, y: PASTE_OFFSET }, true],
      ['new-2', { x: 300 + PASTE_OFFSET, y: PASTE_OFFSET }, true],
    ]);
    expect(first.edges).toMatchObject([{ id: 'e-new-1-new-2', source: 'new-1', target: 'new-2' }]);
    const second = pasteClipboard(clip, [], 2, ids());
    expect(second.nodes[0]!.position).toEqual({ x: 2 * PASTE_OFFSET, y: 2 * PASTE_OFFSET });
  });

  it('keeps the copied data but not the original object', () => {
    const clip = copySelection([node('a', 0, 0, true)], [])!;
    const pasted = pasteClipboard(clip, [], 1, ids()).nodes[0]!;
    expect(pasted.data).toMatchObject({ label: 'Writer', agentId: 'a1' });
    pasted.data.label = 'Changed';
    expect(clip.nodes[0]!.data.label).toBe('Writer');
  });

  it('moves a single pasted node to a free spot when its offset spot is taken', () => {
    const clip = copySelection([node('a', 0, 0, true)], [])!;
    const blocker = node('x', PASTE_OFFSET, PASTE_OFFSET);
    const pasted = pasteClipboard(clip, [blocker], 1, ids(), () => 0.5).nodes[0]!;
    expect(pasted.position).not.toEqual({ x: PASTE_OFFSET, y: PASTE_OFFSET });
  });
});

describe('clipboard with the step kinds', () => {
  it('pastes a condition with its branches and its paths still leaving from the same branches', () => {
    const condition = {
      ...createKindNode('condition', { x: 0, y: 0 }, { id: 'c' }),
      data: {
        ...createKindNode('condition', { x: 0, y: 0 }, { id: 'c' }).data,
        branches: [{ id: 'vip', label: 'VIP', when: 'input.vip' }],
      },
      selected: true,
    };
    const merge = { ...createKindNode('merge', { x: 300, y: 0 }, { id: 'm' }), selected: true };
    const edges: BuilderEdge[] = [
      { id: 'e-c-vip-m', source: 'c', target: 'm', sourceHandle: 'vip' },
      { id: 'e-c-else-m', source: 'c', target: 'm', sourceHandle: 'else' },
    ];
    const pasted = pasteClipboard(copySelection([condition, merge], edges)!, [], 1, ids());
    expect(pasted.nodes.map((n) => [n.id, n.type])).toEqual([
      ['new-1', 'condition'],
      ['new-2', 'merge'],
    ]);
    expect(pasted.nodes[0]!.data.branches).toEqual([{ id: 'vip', label: 'VIP', when: 'input.vip' }]);
    expect(pasted.edges.map((e) => [e.id, e.source, e.target, e.sourceHandle])).toEqual([
      ['e-new-1-vip-new-2', 'new-1', 'new-2', 'vip'],
      ['e-new-1-else-new-2', 'new-1', 'new-2', 'else'],
    ]);
  });
});
