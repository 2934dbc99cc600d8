import { describe, expect, it } from 'vitest';
import { expressionScopeOf, validateWorkflow, type WorkflowDraft } from '../validation';
import { checkExpression } from './expressions';
import { expressionPaths } from './paths';

const schema = {
  type: 'object',
  properties: {
    category: { type: 'string', enum: ['billing', 'bug'], description: 'What the message is about' },
    urgent: { type: 'boolean' },
    customer: { type: 'object', properties: { email: { type: 'string' }, 'first-name': { type: 'string' } } },
    orders: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
  },
};

/** Start → classify (structured) → agent-2 → tidy (transform) → route → end. */
function draft(): WorkflowDraft {
  return {
    name: 'Triage',
    triggerType: 'manual',
    triggerConfig: {},
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'classify', type: 'agent', agentId: 'a1', data: { label: 'Classify', outputSchema: schema } },
      { id: 'agent-2', type: 'agent', agentId: 'a1', data: { label: 'Reply' } },
      {
        id: 'tidy',
        type: 'transform',
        data: { assignments: [{ name: 'total', value: '1' }] },
      },
      {
        id: 'route',
        type: 'condition',
        data: { label: 'Route', branches: [{ id: 'b', label: 'B', when: 'true' }] },
      },
      { id: 'note', type: 'note', data: { text: 'hi' } },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { source: 'start', target: 'classify' },
      { source: 'classify', target: 'agent-2' },
      { source: 'agent-2', target: 'tidy' },
      { source: 'tidy', target: 'route' },
      { source: 'route', target: 'end', sourceHandle: 'b' },
      { source: 'route', target: 'end', sourceHandle: 'else' },
    ],
  };
}

const pathsOf = (nodeId: string, options?: { iteration?: boolean }) =>
  expressionPaths(expressionScopeOf(draft(), nodeId, options)).map((p) => p.path);

describe('expressionScopeOf', () => {
  it('is the scope validation checks a node’s expressions against: its upstream steps and their vars', () => {
    const scope = expressionScopeOf(draft(), 'route');
    expect(Object.keys(scope.nodes).sort()).toEqual(['agent-2', 'classify', 'tidy']);
    expect(scope.nodes.classify).toEqual({ kind: 'agent', outputSchema: schema });
    expect(scope.nodes.tidy).toEqual({ kind: 'transform' });
    expect(scope.vars).toEqual(['total']);
    expect(scope.iteration).toBeUndefined();
    // Same answer as the validation: a downstream node is not in it.
    expect(expressionScopeOf(draft(), 'classify')).toEqual({ nodes: {}, vars: [] });
    expect(checkExpression('nodes.classify.data.category == "bug"', scope)).toBeNull();
    const bad = draft();
    (bad.nodes[4]!.data!.branches as { when: string }[])[0]!.when = 'nodes.classify.data.nope';
    expect(validateWorkflow(bad, () => true).errors.join()).toContain('has no field "nope"');
  });

  it('adds item, index and last for the fields of a map or loop body', () => {
    expect(expressionScopeOf(draft(), 'route', { iteration: true }).iteration).toBe(true);
  });
});

describe('expressionPaths', () => {
  it('lists input, run, vars and each upstream node’s content, status, data and schema fields', () => {
    expect(pathsOf('route')).toEqual([
      'input',
      'run.id',
      'run.trigger',
      'run.startedAt',
      'vars.total',
      'nodes.tidy.content',
      'nodes.tidy.status',
      'nodes.tidy.data',
      'nodes["agent-2"].content',
      'nodes["agent-2"].status',
      'nodes["agent-2"].data',
      'nodes.classify.content',
      'nodes.classify.status',
      'nodes.classify.data',
      'nodes.classify.data.category',
      'nodes.classify.data.urgent',
      'nodes.classify.data.customer',
      'nodes.classify.data.customer.email',
      'nodes.classify.data.customer["first-name"]',
      // A list is offered as itself, not its items' fields.
      'nodes.classify.data.orders',
    ]);
  });

  it('says what each path is: the kind, the schema type, a field’s description', () => {
    const byPath = new Map(expressionPaths(expressionScopeOf(draft(), 'route')).map((p) => [p.path, p]));
    expect(byPath.get('nodes.classify.data.category')).toEqual({
      path: 'nodes.classify.data.category',
      detail: '"billing" | "bug" · What the message is about',
      nodeId: 'classify',
    });
    expect(byPath.get('nodes.classify.data')?.detail).toBe('object');
    expect(byPath.get('nodes.classify.data.orders')?.detail).toBe('list of object');
    expect(byPath.get('nodes.classify.data.urgent')?.detail).toBe('boolean');
    expect(byPath.get('nodes["agent-2"].data')?.detail).toBe('agent step’s data');
    expect(byPath.get('nodes.tidy.content')?.detail).toContain('transform');
    expect(byPath.get('input')?.nodeId).toBeUndefined();
  });

  it('offers item, index and last only inside a map or loop body', () => {
    expect(pathsOf('route')).not.toContain('item');
    expect(pathsOf('route', { iteration: true }).slice(-3)).toEqual(['item', 'index', 'last']);
  });

  it('has only input and run before any step', () => {
    expect(pathsOf('classify')).toEqual(['input', 'run.id', 'run.trigger', 'run.startedAt']);
  });

  it('every path it offers type-checks in its scope', () => {
    const scope = expressionScopeOf(draft(), 'route', { iteration: true });
    for (const { path } of expressionPaths(scope)) expect(checkExpression(path, scope), path).toBeNull();
  });
});
