import { describe, expect, it } from 'vitest';
import { validateWorkflow, type WorkflowDraft } from './validation';

const schema = {
  type: 'object',
  properties: { category: { type: 'string', enum: ['billing', 'bug'] }, urgent: { type: 'boolean' } },
  required: ['category'],
};
type Node = WorkflowDraft['nodes'][number];
const condition = (when: string, id = 'route'): Node => ({
  id,
  type: 'condition',
  data: { label: 'Route', branches: [{ id: 'billing', label: 'Billing', when }] },
});

/** Start → classify (structured) → route → billing | else other → end. */
function triage(
  overrides: Partial<WorkflowDraft> = {},
  when = 'nodes.classify.data.category == "billing"',
): WorkflowDraft {
  return {
    name: 'Triage',
    triggerType: 'manual',
    triggerConfig: {},
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'classify', type: 'agent', agentId: 'a1', data: { label: 'Classify', outputSchema: schema } },
      condition(when),
      { id: 'billing', type: 'agent', agentId: 'a1', data: { label: 'Billing' } },
      { id: 'other', type: 'agent', agentId: 'a1', data: { label: 'Other' } },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { source: 'start', target: 'classify' },
      { source: 'classify', target: 'route' },
      { source: 'route', target: 'billing', sourceHandle: 'billing' },
      { source: 'route', target: 'other', sourceHandle: 'else' },
      { source: 'billing', target: 'end' },
      { source: 'other', target: 'end' },
    ],
    ...overrides,
  };
}
const exists = (id: string) => id === 'a1';
const errorsOf = (draft: WorkflowDraft) => validateWorkflow(draft, exists).errors;

describe('validating workflows that decide', () => {
  it('accepts a condition over a structured field with its else path connected', () => {
    expect(validateWorkflow(triage(), exists)).toEqual({ errors: [], warnings: [] });
  });

  it('requires the else path', () => {
    const draft = triage();
    draft.edges = draft.edges.filter((e) => e.sourceHandle !== 'else');
    expect(errorsOf(draft)).toEqual(['Condition "Route" needs an else path']);
  });

  it('refuses a path from a branch the condition does not have, and a condition without branches', () => {
    const draft = triage();
    draft.edges.push({ source: 'route', target: 'end', sourceHandle: 'gone' });
    expect(errorsOf(draft)).toEqual([
      'Condition "Route" has a path from a branch it does not have: connect each path from a branch or from else',
    ]);
    const empty = triage();
    empty.nodes[2] = { id: 'route', type: 'condition', data: { label: 'Route', branches: [] } };
    empty.edges = empty.edges.filter((e) => e.sourceHandle !== 'billing');
    expect(errorsOf(empty)).toEqual(['Condition "Route" needs at least one branch']);
  });

  it('names the node and the expression when a field of a declared schema does not exist', () => {
    const [error] = errorsOf(triage({}, 'nodes.classify.data.categry == "billing"'));
    expect(error).toMatch(/^Node "Route": nodes\.classify\.data\.categry == "billing" — .*categry/);
  });

  it('refuses a reference to a node that is not upstream', () => {
    const [error] = errorsOf(triage({}, 'nodes.other.content == "x"'));
    expect(error).toMatch(/^Node "Route": nodes\.other\.content == "x" — .*other/);
  });

  it('refuses an expression that does not compile, and an empty one', () => {
    expect(errorsOf(triage({}, 'nodes.classify.data.category ==')).at(0)).toMatch(/^Node "Route": /);
    expect(errorsOf(triage({}, ' '))).toEqual(['Node "Route": "Billing" — is empty']);
  });

  it('checks agent prompt templates and output schemas', () => {
    const draft = triage();
    draft.nodes[3] = {
      id: 'billing',
      type: 'agent',
      agentId: 'a1',
      data: {
        label: 'Billing',
        prompt: 'Refund {{ nodes.classify.data.amount }}',
        outputSchema: { type: 'string' },
      },
    };
    const errors = errorsOf(draft);
    expect(errors[0]).toMatch(/^Step "Billing" has an output schema that must describe an object/);
    expect(errors[1]).toMatch(/^Node "Billing": Refund \{\{ nodes\.classify\.data\.amount \}\} — .*amount/);
  });

  it('checks transform names and lets later expressions read the vars set upstream', () => {
    const draft = triage({}, 'vars.total > 100');
    draft.nodes.splice(2, 0, {
      id: 'sum',
      type: 'transform',
      data: {
        label: 'Sum',
        assignments: [
          { name: 'total', value: '120' },
          { name: 'doubled', value: 'vars.total * 2' },
          { name: '2bad', value: '1' },
          { name: 'total', value: '3' },
        ],
      },
    });
    draft.edges = draft.edges.map((e) =>
      e.source === 'classify' ? { source: 'classify', target: 'sum' } : e,
    );
    draft.edges.push({ source: 'sum', target: 'route' });
    expect(errorsOf(draft)).toEqual([
      'Transform "Sum": "2bad" is not a valid name (letters, digits and _, starting with a letter)',
      'Transform "Sum" sets "total" twice',
    ]);
    const unknownVar = errorsOf(triage({}, 'vars.nothing > 1'));
    expect(unknownVar[0]).toMatch(/^Node "Route": vars\.nothing > 1 — .*nothing/);
  });

  it('refuses the kinds that decide or join in parallel and hierarchical workflows', () => {
    const draft = triage({ processType: 'parallel' });
    draft.nodes.push(
      { id: 'join', type: 'merge', data: {} },
      { id: 'memo', type: 'note', data: { text: 'hi' } },
    );
    expect(errorsOf(draft)).toEqual([
      'Condition "Route" works only in sequential workflows; this one is parallel',
      'Merge "Merge" works only in sequential workflows; this one is parallel',
    ]);
  });

  it('never runs or warns about a note', () => {
    const draft = triage();
    draft.nodes.push({ id: 'memo', type: 'note', data: { text: 'Explains the routing' } });
    expect(validateWorkflow(draft, exists)).toEqual({ errors: [], warnings: [] });
  });

  it('checks a map’s list, what it runs, and its concurrency; a loop’s condition and its passes', () => {
    const draft = triage();
    draft.nodes.push(
      {
        id: 'each',
        type: 'map',
        data: {
          label: 'Each',
          items: 'input.leads',
          run: { agentId: 'a1', prompt: '{{ item.name }}' },
          concurrency: 21,
        },
      },
      {
        id: 'again',
        type: 'loop',
        data: {
          label: 'Again',
          run: { agentId: 'gone', prompt: 'x' },
          until: 'last.data',
          maxIterations: 51,
        },
      },
      { id: 'bad', type: 'map', data: { label: 'Bad', items: 'item', run: { workflowId: 'w1' } } },
    );
    draft.edges.push(
      { source: 'classify', target: 'each' },
      { source: 'each', target: 'again' },
      { source: 'again', target: 'bad' },
    );
    expect(errorsOf(draft)).toEqual([
      'Map "Each" runs 1 to 20 items at a time',
      expect.stringMatching(/^Node "Bad": item — .*map or loop/),
      'Loop "Again" uses an agent that was deleted. Open the workflow and choose another agent.',
      'Loop "Again" runs 1 to 50 times',
    ]);
  });

  it('finds a condition’s else path even when the condition is not reachable from Start', () => {
    const draft = triage();
    draft.edges = draft.edges.filter((e) => e.target !== 'classify');
    expect(errorsOf(draft)).toEqual([]);
  });

  it('checks expressions against the agent’s own output schema when its step declares none', () => {
    const draft = triage({}, 'nodes.classify.data.categry == "billing"');
    draft.nodes[1] = { id: 'classify', type: 'agent', agentId: 'a1', data: { label: 'Classify' } };
    // Without the agents' schemas the data is not checked; with them, the typo is found.
    expect(errorsOf(draft)).toEqual([]);
    const errors = validateWorkflow(draft, exists, {
      agentOutputSchema: (id) => (id === 'a1' ? schema : undefined),
    }).errors;
    expect(errors[0]).toMatch(/^Node "Route": nodes\.classify\.data\.categry == "billing" — .*categry/);
  });
});
