import { describe, expect, it } from 'vitest';
import {
  EXPRESSION_CACHE_SIZE,
  ExpressionError,
  checkCondition,
  checkExpression,
  compileExpression,
  evaluate,
  evaluateCondition,
  type ExpressionContext,
  type ExpressionScope,
} from './index';

const context: ExpressionContext = {
  input: { count: 3, price: 2.5, score: 0.7, tags: ['a', 'b'], name: 'Ada', empty: [] },
  nodes: {
    classify: {
      content: 'It is a bug',
      status: 'completed',
      data: { category: 'bug', confidence: 0.9, items: [{ name: 'x', qty: 2 }] },
    },
    'agent-2': { content: 'second answer', status: 'completed', data: null },
  },
  vars: { total: 4, label: 'urgent' },
  run: { id: 'run-1', trigger: 'webhook', startedAt: '2026-03-01T10:00:00.000Z' },
};

const classifySchema = {
  type: 'object',
  properties: {
    category: { type: 'string', enum: ['bug', 'feature'] },
    confidence: { type: 'number' },
    items: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, qty: { type: 'integer' } } },
    },
    urgent: { type: 'boolean' },
  },
  required: ['category'],
};

const scope: ExpressionScope = {
  nodes: { classify: { kind: 'agent', outputSchema: classifySchema }, 'agent-2': { kind: 'agent' } },
  vars: ['total', 'label'],
};

function runError(source: string, ctx: ExpressionContext = context): ExpressionError {
  try {
    evaluate(source, ctx);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`${source} did not fail`);
}

describe('evaluate: each variable', () => {
  it('reads input, nodes, vars and run', () => {
    expect(evaluate('input.name', context)).toBe('Ada');
    expect(evaluate('nodes.classify.data.category', context)).toBe('bug');
    expect(evaluate('nodes.classify.content', context)).toBe('It is a bug');
    expect(evaluate('nodes.classify.status', context)).toBe('completed');
    expect(evaluate('vars.label', context)).toBe('urgent');
    expect(evaluate('run.trigger + ":" + run.id', context)).toBe('webhook:run-1');
    expect(evaluate('timestamp(run.startedAt).getFullYear()', context)).toBe(2026);
  });

  it('reads a string input as a string', () => {
    expect(evaluate('input.startsWith("Hi")', { ...context, input: 'Hi there' })).toBe(true);
  });

  it('reads a node whose id has a dash by index', () => {
    expect(evaluate('nodes["agent-2"].content', context)).toBe('second answer');
    expect(evaluate('nodes["agent-2"].data == null', context)).toBe(true);
  });

  it('reads item, index and last inside map and loop bodies only', () => {
    const body = { ...context, item: { title: 'T' }, index: 2, last: { data: { done: true } } };
    expect(evaluate('item.title + string(index)', body)).toBe('T2');
    expect(evaluate('index + 1', body)).toBe(3);
    expect(evaluate('last.data.done', body)).toBe(true);
    expect(runError('item').reason).toBe('item is only available inside a map or loop');
  });

  it('gives JSON: ints as numbers, maps as objects, timestamps as ISO text', () => {
    expect(evaluate('{"n": 1, "list": [1, 2.5, "x"], "ok": true, "none": null}', context)).toEqual({
      n: 1,
      list: [1, 2.5, 'x'],
      ok: true,
      none: null,
    });
    expect(evaluate('nodes.classify.data.items.map(i, i.name)', context)).toEqual(['x']);
    expect(evaluate('timestamp(run.startedAt) + duration("1h")', context)).toBe('2026-03-01T11:00:00.000Z');
  });
});

describe('evaluate: the number rule (integral numbers are ints, others doubles)', () => {
  it('makes everyday arithmetic and comparisons work', () => {
    expect(evaluate('input.count + 1', context)).toBe(4);
    expect(evaluate('input.score > 0.5', context)).toBe(true);
    expect(evaluate('input.count > 0.5', context)).toBe(true);
    expect(evaluate('input.price > 1', context)).toBe(true);
    expect(evaluate('size(input.tags) > 0', context)).toBe(true);
    expect(evaluate('size(input.empty) == 0', context)).toBe(true);
    expect(evaluate('input.price * 2', context)).toBe(5);
    expect(evaluate('input.count * 1.5', context)).toBe(4.5);
    expect(evaluate('input.price + input.count', context)).toBe(5.5);
    expect(evaluate('vars.total / 2.0', context)).toBe(2);
    expect(evaluate('input.count == 3.0', context)).toBe(true);
  });

  it('keeps CEL integer division between two ints', () => {
    expect(evaluate('input.count / 2', context)).toBe(1);
    expect(evaluate('double(input.count) / 2', context)).toBe(1.5);
  });

  it('refuses a result that JSON cannot hold', () => {
    expect(runError('1.0 / 0.0').reason).toMatch(/not finite/);
    expect(runError('input.count / 0').reason).toBe('division by zero');
  });
});

describe('evaluate: readable errors that name the expression', () => {
  it('names a missing field, node or var', () => {
    const missing = runError('input.nope == 1');
    expect(missing).toBeInstanceOf(ExpressionError);
    expect(missing.message).toBe('input.nope == 1 — input has no field "nope"');
    expect(missing.expression).toBe('input.nope == 1');
    expect(runError('nodes.later.content').reason).toBe(
      'node "later" has no result in this run (it did not run before this step)',
    );
    expect(runError('vars.unset').reason).toBe('"unset" was not set by a transform in this run');
    expect(runError('input.tags[5]').reason).toBe('input.tags has no item 5 (size 2)');
  });

  it('names wrong types without the library internals', () => {
    expect(runError('input.name + 1').reason).toBe('+ cannot combine string and int');
  });

  it('tells a syntax error', () => {
    expect(runError('input.count +').reason).toBe('syntax error: the expression ends too early');
    expect(runError('(input.count').reason).toBe('syntax error: expected ")" but the expression ended');
  });

  it('lets has() test for a field that may be absent', () => {
    expect(evaluate('has(input.nope) ? input.nope : "none"', context)).toBe('none');
    expect(evaluate('has(nodes.later) ? nodes.later.content : "skipped"', context)).toBe('skipped');
  });
});

describe('evaluateCondition', () => {
  it('gives the bool', () => {
    expect(evaluateCondition('nodes.classify.data.category == "bug" && input.count > 2', context)).toBe(true);
    expect(evaluateCondition('"x" in input.tags', context)).toBe(false);
  });

  it('refuses a value that is not true or false', () => {
    expect(() => evaluateCondition('nodes.classify.content', context)).toThrow(
      'nodes.classify.content — gave a string, not true or false',
    );
    expect(() => evaluateCondition('input.count', context)).toThrow('gave a number, not true or false');
    expect(() => evaluateCondition('input.tags', context)).toThrow('gave a list, not true or false');
  });
});

describe('checkExpression: type-checking at save time', () => {
  it('accepts valid expressions over the scope', () => {
    for (const source of [
      'nodes.classify.data.category == "bug"',
      'nodes.classify.data.confidence > 0.5',
      'nodes.classify.data.confidence > 1',
      'nodes.classify.data.items.exists(i, i.qty + 1 > 2)',
      'nodes.classify.data.urgent || input.anything.goes',
      'nodes["agent-2"].content.contains("x")',
      'nodes["agent-2"].data.anything',
      'vars.total + 1',
      'run.trigger == "webhook"',
      'has(nodes.classify.data.urgent)',
      '{"name": input.name, "count": 2}',
    ]) {
      expect(checkExpression(source, scope), source).toBeNull();
    }
  });

  it('names an unknown field of a declared output schema', () => {
    expect(checkExpression('nodes.classify.data.categry == "bug"', scope)).toBe(
      'nodes.classify.data has no field "categry" (its fields: category, confidence, items, urgent)',
    );
    expect(checkExpression('nodes.classify.data.items.map(i, i.nam)', scope)).toBe(
      'i has no field "nam" (its fields: name, qty)',
    );
    expect(checkExpression('nodes.classify.dta', scope)).toBe(
      'nodes.classify has no field "dta" (its fields: content, status, data)',
    );
  });

  it('names a node that is not before this one', () => {
    expect(checkExpression('nodes.summarize.content', scope)).toBe(
      '"summarize" is not a node before this one',
    );
    expect(checkExpression('nodes["agent-3"].content', scope)).toBe(
      '"agent-3" is not a node before this one',
    );
  });

  it('names a var no transform before sets', () => {
    expect(checkExpression('vars.totl', scope)).toBe('"totl" is not set by a transform before this one');
  });

  it('checks types from the schema', () => {
    expect(checkExpression('nodes.classify.data.category + 1', scope)).toBe(
      '+ cannot combine string and int',
    );
    expect(checkExpression('nodes.classify.data.urgent == "yes"', scope)).toBe(
      '== cannot combine bool and string',
    );
  });

  it('defines item, index and last only in map and loop bodies', () => {
    expect(checkExpression('item.title', scope)).toBe('item is only available inside a map or loop');
    expect(
      checkExpression('item.title + string(index) + string(last)', { ...scope, iteration: true }),
    ).toBeNull();
  });

  it('refuses unknown names and syntax errors', () => {
    expect(checkExpression('foo > 1', scope)).toBe(
      'unknown name "foo" (expressions read input, nodes, vars and run)',
    );
    expect(checkExpression('input.count >', scope)).toBe('syntax error: the expression ends too early');
    expect(checkExpression('"abc', scope)).toBe('syntax error: unterminated string');
    expect(checkExpression('  ', scope)).toBe('is empty');
  });

  it('checkCondition refuses a condition that gives something else than a bool', () => {
    expect(checkCondition('nodes.classify.content', scope)).toBe('gives a string, not true or false');
    expect(checkCondition('nodes.classify.data.urgent', scope)).toBeNull();
    expect(checkCondition('input.flag', scope)).toBeNull();
  });
});

describe('limits', () => {
  it('refuses an expression longer than 5,000 characters', () => {
    const long = `input.name == "${'x'.repeat(5000)}"`;
    expect(checkExpression(long, scope)).toBe('is longer than 5,000 characters');
    expect(() => evaluate(long, context)).toThrow(ExpressionError);
  });

  it('refuses too many parts or too deep nesting', () => {
    const wide = Array.from({ length: 1000 }, (_, i) => `${i}`).join('+');
    expect(checkExpression(wide, scope)).toBe('is too complex (too many parts or too deeply nested)');
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;
    expect(checkExpression(deep, scope)).toBe('is too complex (too many parts or too deeply nested)');
  });

  it('refuses list functions nested three deep, and regular expressions', () => {
    expect(checkExpression('input.tags.map(a, input.tags.map(b, b + a))', scope)).toBeNull();
    expect(checkExpression('input.tags.map(a, input.tags.map(b, input.tags.map(c, c)))', scope)).toBe(
      'nests list functions more than 2 deep',
    );
    expect(checkExpression('input.name.matches("(a+)+$")', scope)).toMatch(/^matches\(\) is not available/);
  });
});

describe('the compile cache', () => {
  it('compiles a source once and drops the least recently used past its size', () => {
    const first = compileExpression('input.count + 41');
    expect(compileExpression('input.count + 41')).toBe(first);
    for (let i = 0; i < EXPRESSION_CACHE_SIZE; i++) compileExpression(`input.count + ${1000 + i}`);
    expect(compileExpression('input.count + 41')).not.toBe(first);
    expect(evaluate('input.count + 41', context)).toBe(44);
  });

  it('remembers a failure as well', () => {
    expect(() => compileExpression('input +')).toThrow('syntax error');
    expect(() => compileExpression('input +')).toThrow('syntax error');
  });
});
