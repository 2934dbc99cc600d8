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

  it('marks only agent nodes with their run status', () => {
    const result = toGraphNodes(nodes, [], { start: 'completed', n1: 'reused', n2: 'failed' });
    expect(result.map((node) => node.data.status)).toEqual([undefined, 'reused', 'failed', undefined]);
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
});
