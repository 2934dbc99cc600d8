import {
  createWorkflowSchema,
  executionSchema,
  nodeKinds,
  nodeKindValues,
  workflowNodeSchema,
} from '@crewline/contracts';
import { validateWorkflow, type WorkflowDraft } from '@crewline/engine';
import { describe, expect, it } from 'vitest';

import {
  exampleNode,
  expressionExamples,
  formatJson,
  nodeJson,
  triageEdges,
  triageExecution,
  triageNodes,
  triageWorkflow,
} from './workflow-examples';

const draftOf = (body: unknown): WorkflowDraft => {
  const parsed = createWorkflowSchema.parse(body);
  return { ...parsed, processType: parsed.processType };
};

describe('the Workflow nodes guide’s examples', () => {
  it('is a workflow the API accepts and the engine validates without an error or a warning', () => {
    const parsed = createWorkflowSchema.safeParse(triageWorkflow);
    expect(parsed.error?.issues).toBeUndefined();
    expect(validateWorkflow(draftOf(triageWorkflow), () => true, { toolExists: () => true })).toEqual({
      errors: [],
      warnings: [],
    });
  });

  it('shows every node kind once, each the same example the API document gives', () => {
    expect([...new Set(triageNodes.map((n) => n.type))].sort()).toEqual([...nodeKindValues].sort());
    for (const kind of nodeKindValues) {
      const node = exampleNode(kind);
      expect(workflowNodeSchema.safeParse(node).error?.issues, kind).toBeUndefined();
      // packages/contracts/src/node-kinds/<kind>.ts: `.meta({ examples })`, shown by /api/openapi.json.
      const [apiExample] = (nodeKinds[kind].data.meta()?.examples ?? []) as unknown[];
      expect({ kind, data: node.data }).toEqual({ kind, data: apiExample });
      expect(JSON.parse(nodeJson(kind))).toEqual({ ...node, position: undefined });
    }
  });

  it('prints JSON that parses back to the same value, short values on one line', () => {
    for (const value of [triageWorkflow, triageExecution]) {
      expect(JSON.parse(formatJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    }
    expect(formatJson({ position: { x: 1, y: 2 }, list: ['a', 'b'] }, 40)).toBe(
      '{\n  "position": { "x": 1, "y": 2 },\n  "list": ["a", "b"]\n}',
    );
    expect(formatJson({ position: { x: 1, y: 2 } })).toBe('{ "position": { "x": 1, "y": 2 } }');
    expect(formatJson([])).toBe('[]');
  });

  it('would be refused if a branch lost its else path, so the example is checked for real', () => {
    const withoutElse = { ...triageWorkflow, edges: triageEdges.filter((e) => e.sourceHandle !== 'else') };
    expect(validateWorkflow(draftOf(withoutElse), () => true).errors).toEqual([
      'Condition "Route" needs an else path',
    ]);
  });

  it('shows a run’s answer as GET /api/executions/:id gives it: a branch taken, a skipped node, items', () => {
    const parsed = executionSchema.safeParse(triageExecution);
    expect(parsed.error?.issues).toBeUndefined();
    const output = parsed.data!.output;
    expect(output.route.data).toEqual({ branch: 'billing' });
    expect(triageEdges.some((e) => e.source === 'route' && e.sourceHandle === 'billing')).toBe(true);
    expect(output.reply.status).toBe('skipped');
    // Every node that is a step appears under its id, and map items and loop passes under theirs.
    const steps = triageNodes
      .filter((n) => nodeKinds[n.type as keyof typeof nodeKinds].step)
      .map((n) => n.id);
    expect(
      Object.keys(output)
        .filter((id) => !/[[#]/.test(id))
        .sort(),
    ).toEqual(steps.sort());
    expect(Object.keys(output).filter((id) => /[[#]/.test(id))).toEqual([
      'perOrder[0]',
      'perOrder[1]',
      'draft#1',
    ]);
    for (const [id, entry] of Object.entries(output)) {
      const node = triageNodes.find((n) => n.id === (entry.metadata.baseNodeId ?? id))!;
      expect({ id, kind: entry.kind }).toEqual({ id, kind: /[[#]/.test(id) ? 'agent' : node.type });
    }
  });

  it('lists expressions that pass the save-time check where they may be written', () => {
    // A workflow whose transform (workflow scope), map prompt and loop condition use each expression.
    const cut = ['perOrder', 'draft', 'screen', 'approve', 'wait'];
    const template = (scope: string) =>
      expressionExamples
        .filter((e) => e.scope === scope)
        .map((e) => `{{ ${e.expression} }}`)
        .join(' ');
    const body = {
      ...triageWorkflow,
      nodes: [
        ...triageNodes.filter((n) => !cut.includes(n.id)),
        {
          id: 'totals',
          type: 'transform',
          position: { x: 0, y: 0 },
          data: { label: 'Totals', assignments: [{ name: 'total', value: '3' }] },
        },
        {
          id: 'checks',
          type: 'transform',
          position: { x: 0, y: 0 },
          data: {
            label: 'Checks',
            assignments: expressionExamples
              .filter((e) => e.scope === 'workflow')
              .map((e, i) => ({ name: `check${i}`, value: e.expression })),
          },
        },
        {
          id: 'perItem',
          type: 'map',
          position: { x: 0, y: 0 },
          data: { items: 'input.items', run: { agentId: 'a1', prompt: template('map') } },
        },
        {
          id: 'again',
          type: 'loop',
          position: { x: 0, y: 0 },
          data: {
            run: { agentId: 'a1', prompt: 'Go' },
            until: expressionExamples.find((e) => e.scope === 'loop')!.expression,
          },
        },
      ],
      edges: [
        ...triageEdges.filter((e) => !cut.includes(e.source) && !cut.includes(e.target)),
        { id: 'x1', source: 'prepare', target: 'totals' },
        { id: 'x2', source: 'totals', target: 'checks' },
        { id: 'x3', source: 'checks', target: 'perItem' },
        { id: 'x4', source: 'perItem', target: 'again' },
        { id: 'x5', source: 'again', target: 'end' },
      ],
    };
    expect(validateWorkflow(draftOf(body), () => true, { toolExists: () => true })).toEqual({
      errors: [],
      warnings: [],
    });
    const broken = structuredClone(body);
    (broken.nodes.find((n) => n.id === 'checks')!.data.assignments as { value: string }[])[0].value =
      'nodes.classify.data.categry == "billing"';
    expect(validateWorkflow(draftOf(broken), () => true, { toolExists: () => true }).errors).toEqual([
      expect.stringMatching(/^Node "Checks": nodes\.classify\.data\.categry/),
    ]);
  });

  it('lets the steps after an approval read its form’s answers by name, as the guide says', () => {
    const after = (when: string) => ({
      ...triageWorkflow,
      nodes: [
        ...triageNodes,
        {
          id: 'big',
          type: 'condition',
          position: { x: 0, y: 0 },
          data: { label: 'Big refund', branches: [{ id: 'yes', label: 'Yes', when }] },
        },
      ],
      edges: [
        ...triageEdges.filter((e) => e.source !== 'wait'),
        { id: 'y1', source: 'wait', target: 'big' },
        { id: 'y2', source: 'big', target: 'end', sourceHandle: 'yes' },
        { id: 'y3', source: 'big', target: 'end', sourceHandle: 'else' },
      ],
    });
    const check = (when: string) =>
      validateWorkflow(draftOf(after(when)), () => true, { toolExists: () => true }).errors;
    expect(check('nodes.approve.data.fields.amount > 100.0')).toEqual([]);
    expect(check('nodes.approve.data.decision == "approved"')).toEqual([]);
    expect(check('nodes.approve.data.fields.amout > 100.0')).toEqual([
      expect.stringMatching(/^Node "Big refund": nodes\.approve\.data\.fields\.amout/),
    ]);
  });
});
