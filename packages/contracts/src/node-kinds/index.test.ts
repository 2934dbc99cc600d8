import { describe, expect, it } from 'vitest';
import { workflowNodeSchema } from '../workflows';
import { isNodeKind, nodeKindList, nodeKinds, nodeKindValues } from './index';

const node = { id: 'n1', agentId: 'a1', position: { x: 1, y: 2 } };

describe('node kinds', () => {
  it('declares start, end and agent once, with their labels and whether they can be deleted', () => {
    expect(nodeKindValues).toEqual(['start', 'end', 'agent']);
    expect(nodeKindList.map((k) => [k.kind, k.label, k.removable])).toEqual([
      ['start', 'Start', false],
      ['end', 'End', false],
      ['agent', 'Agent', true],
    ]);
    expect(nodeKinds.agent.label).toBe('Agent');
    expect([isNodeKind('end'), isNodeKind('tool'), isNodeKind('toString'), isNodeKind(3)]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('builds the node schema: each kind on the wire as before, its data any object, {} when absent', () => {
    for (const type of nodeKindValues) {
      expect(workflowNodeSchema.parse({ ...node, type })).toEqual({ ...node, type, data: {} });
    }
    const data = { label: 'Research', anything: [1, { deep: true }], count: 3 };
    expect(workflowNodeSchema.parse({ ...node, type: 'agent', data }).data).toEqual(data);
  });

  it('refuses an unknown kind and data that is not an object with the messages it always gave', () => {
    const unknown = workflowNodeSchema.safeParse({ ...node, type: 'tool' });
    expect(unknown.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['type', 'Invalid option: expected one of "start"|"end"|"agent"'],
    ]);
    const notObject = workflowNodeSchema.safeParse({ ...node, type: 'agent', data: 'text' });
    expect(notObject.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['data', 'Invalid input: expected record, received string'],
    ]);
  });
});
