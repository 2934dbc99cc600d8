import type { WorkflowNode } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { toGraphEdges, toGraphNodes } from './graph-elements';

const nodes: WorkflowNode[] = [
  { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
  {
    id: 'n1',
    type: 'agent',
    agentId: 'a1',
    position: { x: 200, y: 0 },
    data: { label: 'Research step', name: 'Researcher', model: 'gpt-4o', color: '#0ea5e9' },
  },
  { id: 'n2', type: 'agent', position: { x: 400, y: 0 }, data: { agentId: 'a2' } },
  { id: 'end', type: 'end', position: { x: 600, y: 0 }, data: {} },
];

describe('toGraphNodes', () => {
  it('names agent nodes from their data, else from their agent', () => {
    const result = toGraphNodes(nodes, [{ id: 'a2', name: 'Writer', role: 'Editor', llmModel: 'claude' }]);
    expect(result.map((node) => node.data.title)).toEqual(['Start', 'Researcher', 'Writer', 'End']);
    expect(result[1]?.data.subtitle).toBe('Research step');
    expect(result[2]?.data).toMatchObject({ role: 'Editor', model: 'claude', color: '#6366f1' });
  });

  it('marks only step nodes with their run status', () => {
    const result = toGraphNodes(nodes, [], { start: 'completed', n1: 'reused', n2: 'failed' });
    expect(result.map((node) => node.data.status)).toEqual([undefined, 'reused', 'failed', undefined]);
  });

  it("names other kinds by their label or kind, lists a condition's paths and marks the one taken", () => {
    const decide: WorkflowNode[] = [
      {
        id: 'c',
        type: 'condition',
        position: { x: 0, y: 0 },
        data: { branches: [{ id: 'b1', label: 'Billing', when: 'true' }] },
      },
      { id: 'm', type: 'merge', position: { x: 0, y: 0 }, data: { label: 'Join' } },
      { id: 'x', type: 'note', position: { x: 0, y: 0 }, data: { text: 'Why this flow' } },
    ];
    const [condition, merge, note] = toGraphNodes(
      decide,
      [],
      { c: 'completed', m: 'skipped', x: 'completed' },
      {
        c: 'b1',
      },
    );
    expect(condition?.data).toMatchObject({
      title: 'Condition',
      status: 'completed',
      branches: [
        { id: 'b1', label: 'Billing' },
        { id: 'else', label: 'Else' },
      ],
      branchTaken: 'Billing',
    });
    expect(merge?.data).toMatchObject({ title: 'Join', status: 'skipped' });
    // A note is never run: no status.
    expect(note?.data).toMatchObject({ title: 'Note', text: 'Why this flow' });
    expect(note?.data.status).toBeUndefined();
  });

  it("carries a map's items done and a loop's pass, and no other node's", () => {
    const repeat: WorkflowNode[] = [
      { id: 'each', type: 'map', position: { x: 0, y: 0 }, data: { label: 'Enrich leads' } },
      { id: 'draft', type: 'loop', position: { x: 0, y: 0 }, data: {} },
      { id: 't', type: 'transform', position: { x: 0, y: 0 }, data: {} },
    ];
    const counts = { total: 100, done: 37, failed: 3, pass: null };
    const pass = { total: null, done: 1, failed: 0, pass: 2 };
    const [map, loop, transform] = toGraphNodes(
      repeat,
      [],
      { each: 'running', draft: 'running', t: 'completed' },
      {},
      { each: counts, draft: pass, t: counts },
    );
    expect(map?.data).toMatchObject({ title: 'Enrich leads', status: 'running', progress: counts });
    expect(loop?.data).toMatchObject({ title: 'Loop', progress: pass });
    expect(transform?.data.progress).toBeUndefined();
  });
});

describe('toGraphEdges', () => {
  it('drops edges to nodes that are not in the graph', () => {
    const edges = [
      { id: 'e1', source: 'start', target: 'n1' },
      { id: 'e2', source: 'n1', target: 'gone' },
    ];
    expect(toGraphEdges(edges, nodes).map((edge) => edge.id)).toEqual(['e1']);
  });

  it("leaves a condition's edges from their branch's handle, and carries the run's path marks", () => {
    const decide: WorkflowNode[] = [
      {
        id: 'c',
        type: 'condition',
        position: { x: 0, y: 0 },
        data: { branches: [{ id: 'b1', label: '', when: 'true' }] },
      },
      ...nodes,
    ];
    const result = toGraphEdges(
      [
        { id: 'e1', source: 'c', target: 'n1', sourceHandle: 'b1' },
        { id: 'e2', source: 'c', target: 'n2', sourceHandle: 'else' },
        { id: 'e3', source: 'c', target: 'end', sourceHandle: 'gone' },
      ],
      decide,
      { e1: 'taken', e2: 'not-taken' },
    );
    expect(result.map((edge) => [edge.id, edge.sourceHandle, edge.data?.path])).toEqual([
      ['e1', 'b1', 'taken'],
      ['e2', 'else', 'not-taken'],
      // A branch the condition no longer has: no handle, so React Flow still draws the edge.
      ['e3', undefined, undefined],
    ]);
  });

  it("lists an approval's outcomes as its paths, the timeout one only when its timeout takes it", () => {
    const approval = (timeout?: unknown): WorkflowNode => ({
      id: 'a',
      type: 'approval',
      position: { x: 0, y: 0 },
      data: { label: 'Sign-off', title: 'Ship?', policy: 'first', ...(timeout ? { timeout } : {}) },
    });
    const pathIds = (node: WorkflowNode) => toGraphNodes([node])[0]!.data.branches?.map((b) => b.id);
    expect(pathIds(approval())).toEqual(['approved', 'rejected']);
    expect(pathIds(approval({ seconds: 60, onTimeout: 'branch' }))).toEqual([
      'approved',
      'rejected',
      'timeout',
    ]);
    const edges = toGraphEdges(
      [
        { id: 'e1', source: 'a', target: 'n1', sourceHandle: 'approved' },
        { id: 'e2', source: 'a', target: 'n2', sourceHandle: 'timeout' },
      ],
      [approval(), ...nodes],
    );
    // Without a timeout path, its edge leaves from no handle (React Flow still draws it).
    expect(edges.map((e) => [e.id, e.sourceHandle])).toEqual([
      ['e1', 'approved'],
      ['e2', undefined],
    ]);
  });
});
