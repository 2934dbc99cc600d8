import type { Execution } from '@crewline/contracts';
import { expressionPaths } from '@crewline/engine';
import { describe, expect, it } from 'vitest';

import {
  draftScope,
  insertPath,
  lastRunContext,
  matchingPaths,
  shownValue,
  typedPath,
} from './expression-assist';
import type { BuilderNode } from './types';

const node = (id: string, type: BuilderNode['type'], data: Record<string, unknown> = {}) =>
  ({ id, type, data }) as Pick<BuilderNode, 'id' | 'type' | 'data'>;

const nodes = [
  node('start', 'start'),
  node('classify', 'agent', {
    label: 'Classify',
    outputSchema: { type: 'object', properties: { category: { type: 'string' } } },
  }),
  node('tidy', 'transform', { assignments: [{ name: 'total', value: '2' }] }),
  node('route', 'condition', { branches: [] }),
];
const edges = [
  { source: 'start', target: 'classify' },
  { source: 'classify', target: 'tidy' },
  { source: 'tidy', target: 'route' },
];

describe('the builder’s expression assistance', () => {
  it('scopes a node to what is upstream of it in the draft', () => {
    const scope = draftScope(nodes, edges, 'route');
    expect(Object.keys(scope.nodes)).toEqual(['tidy', 'classify']);
    expect(scope.vars).toEqual(['total']);
    expect(draftScope(nodes, edges, 'route', true).iteration).toBe(true);
    expect(draftScope(nodes, [], 'route').nodes).toEqual({});
  });

  it('finds the path being typed, and inside a template only within its {{ }}', () => {
    expect(typedPath('size(nodes.cl', 13, 'expression')).toEqual({ token: 'nodes.cl', from: 5 });
    expect(typedPath('nodes["agent-2"].co', 19, 'condition')?.token).toBe('nodes["agent-2"].co');
    expect(typedPath('a == ', 5, 'expression')).toEqual({ token: '', from: 5 });
    expect(typedPath('Hello {{ nodes.c', 16, 'template')?.token).toBe('nodes.c');
    expect(typedPath('Hello {{ input }} nod', 21, 'template')).toBeNull();
    expect(typedPath('Hello nod', 9, 'template')).toBeNull();
  });

  it('lists the paths continuing what was typed, in any case, and inserts the one chosen', () => {
    const paths = expressionPaths(draftScope(nodes, edges, 'route'));
    expect(matchingPaths(paths, 'nodes.cl').map((p) => p.path)).toEqual([
      'nodes.classify.content',
      'nodes.classify.status',
      'nodes.classify.data',
      'nodes.classify.data.category',
    ]);
    expect(matchingPaths(paths, 'VARS').map((p) => p.path)).toEqual(['vars.total']);
    expect(matchingPaths(paths, 'vars.total')).toEqual([]);
    const typed = typedPath('{{ nodes.cl }} done', 11, 'template')!;
    expect(insertPath('{{ nodes.cl }} done', typed, 'nodes.classify.content')).toEqual({
      text: '{{ nodes.classify.content }} done',
      caret: 25,
    });
  });

  it('builds the last run’s context from the upstream nodes’ results, the transforms’ vars and the run', () => {
    const run = {
      id: 'run-1',
      input: { message: 'refund please' },
      trigger: 'manual',
      startedAt: '2026-01-01T10:00:00.000Z',
      createdAt: '2026-01-01T09:59:59.000Z',
      output: {
        classify: step('', { category: 'billing' }),
        tidy: step('', { total: 4 }),
        route: step('', { branch: 'billing' }),
        'map[0]': { ...step('x', null), metadata: { baseNodeId: 'map' } },
      },
    } as unknown as Execution;
    expect(lastRunContext(run, draftScope(nodes, edges, 'route'))).toEqual({
      input: { message: 'refund please' },
      nodes: {
        classify: { content: '', data: { category: 'billing' }, status: 'completed' },
        tidy: { content: '', data: { total: 4 }, status: 'completed' },
      },
      vars: { total: 4 },
      run: { id: 'run-1', trigger: 'manual', startedAt: '2026-01-01T10:00:00.000Z' },
    });
  });

  it('shows values short: strings quoted in expressions, as they are in templates, the rest as JSON', () => {
    expect(shownValue('billing', 'expression')).toBe('"billing"');
    expect(shownValue('Hi Ann', 'template')).toBe('Hi Ann');
    expect(shownValue({ a: [1, 2] }, 'expression')).toBe('{"a":[1,2]}');
    expect(shownValue(true, 'condition')).toBe('true');
    expect(shownValue('x'.repeat(300), 'template')).toHaveLength(120);
  });
});

function step(content: string, data: unknown) {
  return {
    content,
    data,
    status: 'completed',
    metadata: {},
    executionTime: 1,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };
}
