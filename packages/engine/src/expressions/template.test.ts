import { describe, expect, it } from 'vitest';
import {
  ExpressionError,
  checkTemplate,
  renderTemplate,
  templateExpressions,
  type ExpressionContext,
  type ExpressionScope,
} from './index';

const context: ExpressionContext = {
  input: {
    topic: 'CEL',
    count: 3,
    score: 0.5,
    tags: ['a', 'b'],
    meta: { lang: 'en' },
    nothing: null,
    yes: true,
  },
  nodes: { 'agent-2': { content: 'draft', status: 'completed', data: { words: 120 } } },
  vars: {},
  run: { id: 'run-1', trigger: 'manual', startedAt: '2026-03-01T10:00:00.000Z' },
};

const scope: ExpressionScope = { nodes: { 'agent-2': { kind: 'agent' } }, vars: [] };

describe('renderTemplate', () => {
  it('keeps the type of a template that is exactly one expression', () => {
    expect(renderTemplate('{{ input.tags }}', context)).toEqual(['a', 'b']);
    expect(renderTemplate('  {{ input.count }}\n', context)).toBe(3);
    expect(renderTemplate('{{input.meta}}', context)).toEqual({ lang: 'en' });
    expect(renderTemplate('{{ input.nothing }}', context)).toBeNull();
  });

  it('inserts values as text otherwise', () => {
    expect(
      renderTemplate(
        'About {{ input.topic }}: {{ input.count }} items, score {{ input.score }}, {{ input.yes }}, tags {{ input.tags }}, meta {{ input.meta }}, [{{ input.nothing }}]',
        context,
      ),
    ).toBe('About CEL: 3 items, score 0.5, true, tags ["a","b"], meta {"lang":"en"}, []');
    expect(renderTemplate('Improve: {{ nodes["agent-2"].content }}', context)).toBe('Improve: draft');
  });

  it('leaves text without expressions as it is', () => {
    expect(renderTemplate('no braces } here }}', context)).toBe('no braces } here }}');
    expect(renderTemplate('', context)).toBe('');
  });

  it('does not end an expression at "}}" inside a string or a map', () => {
    expect(renderTemplate('a {{ "}}" + input.topic }} b', context)).toBe('a }}CEL b');
    expect(renderTemplate("{{ {'k': {'v': 1}} }}", context)).toEqual({ k: { v: 1 } });
  });

  it('throws a readable error naming the failing expression', () => {
    expect(() => renderTemplate('Hi {{ input.nope }}', context)).toThrow(ExpressionError);
    expect(() => renderTemplate('Hi {{ input.nope }}', context)).toThrow(
      'input.nope — input has no field "nope"',
    );
    expect(() => renderTemplate('Hi {{ input.topic', context)).toThrow('has no matching "}}"');
  });
});

describe('checkTemplate', () => {
  it('accepts a template whose expressions check', () => {
    expect(
      checkTemplate('Write about {{ input.topic }} using {{ nodes["agent-2"].content }}', scope),
    ).toBeNull();
    expect(checkTemplate('plain text', scope)).toBeNull();
  });

  it('gives the first failing expression with its reason', () => {
    expect(checkTemplate('{{ input.topic }} and {{ nodes.writer.content }} and {{ foo }}', scope)).toBe(
      '{{ nodes.writer.content }}: "writer" is not a node before this one',
    );
  });

  it('refuses an unbalanced or empty {{', () => {
    expect(checkTemplate('Hello {{ input.topic', scope)).toBe('a "{{" at character 7 has no matching "}}"');
    expect(checkTemplate('Hello {{ "}} ', scope)).toBe('a "{{" at character 7 has no matching "}}"');
    expect(checkTemplate('Hello {{ }}', scope)).toBe('"{{ }}" at character 7 is empty');
  });
});

describe('templateExpressions', () => {
  it('lists the expressions in order', () => {
    expect(templateExpressions('a {{ input.x }} b {{ "}}" + y }} {{z}}')).toEqual([
      'input.x',
      '"}}" + y',
      'z',
    ]);
    expect(templateExpressions('none')).toEqual([]);
  });
});
