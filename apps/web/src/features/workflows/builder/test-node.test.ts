import { describe, expect, it } from 'vitest';

import { readSample, resultFigures, sampleFor, upstreamStepIds } from './test-node';

const nodes = [
  { id: 'start', type: 'start' },
  { id: 'classify', type: 'agent' },
  { id: 'route', type: 'condition' },
  { id: 'note', type: 'note' },
  { id: 'reply', type: 'agent' },
  { id: 'other', type: 'agent' },
  { id: 'end', type: 'end' },
];
const edges = [
  { source: 'start', target: 'classify' },
  { source: 'classify', target: 'route' },
  { source: 'route', target: 'reply' },
  { source: 'reply', target: 'end' },
  { source: 'other', target: 'end' },
];

describe('test node helpers', () => {
  it('finds the steps upstream of a node, nearest first, without start or later nodes', () => {
    expect(upstreamStepIds('reply', nodes, edges)).toEqual(['route', 'classify']);
    expect(upstreamStepIds('classify', nodes, edges)).toEqual([]);
  });

  it('starts the sample data with an entry for each upstream step', () => {
    expect(JSON.parse(sampleFor('reply', nodes, edges))).toEqual({
      input: {},
      nodes: { classify: { content: '', data: null }, route: { content: '', data: null } },
      vars: {},
    });
  });

  it('reads sample data, and says what is wrong with it', () => {
    expect(readSample('{"input": {"a": 1}, "nodes": {"x": {"content": "hi"}}}')).toEqual({
      context: { input: { a: 1 }, nodes: { x: { content: 'hi' } } },
    });
    expect(readSample('{"input": ')).toMatchObject({ error: expect.stringMatching(/^Not valid JSON/) });
    expect(readSample('[1]')).toMatchObject({ error: expect.stringMatching(/is an object/) });
    expect(readSample('{"nodes": {"x": 3}}')).toEqual({
      error: '"nodes.x" is an object: { "content": …, "data": … }',
    });
    expect(readSample('{"vars": []}')).toEqual({ error: '"vars" is an object of names and values' });
  });

  it('gives tokens and time', () => {
    const done = {
      status: 'completed' as const,
      content: '',
      data: null,
      usage: { promptTokens: 1000, completionTokens: 234, totalTokens: 1234 },
      durationMs: 1234,
      runId: null,
    };
    expect(resultFigures(done)).toBe('1,234 tokens · 1.2 s');
    expect(resultFigures({ status: 'failed', error: 'x', durationMs: 12, runId: null })).toBe('12 ms');
  });
});
