import { describe, expect, it } from 'vitest';
import { workflowEdgeSchema, workflowNodeSchema } from '../workflows';
import { isNodeKind, nodeKindList, nodeKinds, nodeKindValues } from './index';

const node = { id: 'n1', agentId: 'a1', position: { x: 1, y: 2 } };

describe('node kinds', () => {
  it('declares each kind once, with its label, whether it can be deleted, runs as a step, and needs a sequential workflow', () => {
    expect(nodeKindValues).toEqual([
      'start',
      'end',
      'agent',
      'condition',
      'guardrail',
      'tool',
      'transform',
      'code',
      'map',
      'loop',
      'merge',
      'approval',
      'delay',
      'note',
    ]);
    expect(nodeKindList.map((k) => [k.kind, k.label, k.removable, k.step, k.sequentialOnly])).toEqual([
      ['start', 'Start', false, false, false],
      ['end', 'End', false, false, false],
      ['agent', 'Agent', true, true, false],
      ['condition', 'Condition', true, true, true],
      ['guardrail', 'Guardrail', true, true, true],
      ['tool', 'Tool', true, true, true],
      ['transform', 'Transform', true, true, true],
      ['code', 'Code', true, true, true],
      ['map', 'Map', true, true, true],
      ['loop', 'Loop', true, true, true],
      ['merge', 'Merge', true, true, true],
      ['approval', 'Approval', true, true, true],
      ['delay', 'Delay', true, true, true],
      ['note', 'Note', true, false, false],
    ]);
    for (const kind of nodeKindList) expect(kind.help).toMatch(/\.$/);
    expect(nodeKinds.agent.label).toBe('Agent');
    expect([isNodeKind('end'), isNodeKind('switch'), isNodeKind('toString'), isNodeKind(3)]).toEqual([
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
    const unknown = workflowNodeSchema.safeParse({ ...node, type: 'switch' });
    expect(unknown.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'type',
        'Invalid option: expected one of "start"|"end"|"agent"|"condition"|"guardrail"|"tool"|"transform"|"code"|"map"|"loop"|"merge"|"approval"|"delay"|"note"',
      ],
    ]);
    const notObject = workflowNodeSchema.safeParse({ ...node, type: 'agent', data: 'text' });
    expect(notObject.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['data', 'Invalid input: expected record, received string'],
    ]);
  });

  it('types each kind’s own fields and keeps every other key as it came', () => {
    const condition = {
      ...node,
      type: 'condition',
      data: { label: 'Route', color: 'red', branches: [{ id: 'b1', label: 'Billing', when: 'true' }] },
    };
    expect(workflowNodeSchema.parse(condition).data).toEqual(condition.data);
    const wrong = workflowNodeSchema.safeParse({
      ...node,
      type: 'condition',
      data: { branches: [{ id: 'b1', label: 'Billing' }] },
    });
    expect(wrong.error?.issues.map((i) => i.path.join('.'))).toEqual(['data.branches.0.when']);
    const merge = workflowNodeSchema.safeParse({ ...node, type: 'merge', data: { mode: 'some' } });
    expect(merge.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['data.mode', 'Invalid option: expected one of "all"|"first"'],
    ]);
    const schema = workflowNodeSchema.safeParse({ ...node, type: 'agent', data: { outputSchema: 'text' } });
    expect(schema.error?.issues.map((i) => i.path.join('.'))).toEqual(['data.outputSchema']);
  });

  it('keeps the path an edge leaves from', () => {
    const edge = { id: 'e1', source: 'route', target: 'billing', sourceHandle: 'b1' };
    expect(workflowEdgeSchema.parse(edge)).toEqual(edge);
    expect(workflowEdgeSchema.parse({ id: 'e2', source: 'a', target: 'b' })).toEqual({
      id: 'e2',
      source: 'a',
      target: 'b',
    });
  });
});
