import { describe, expect, it } from 'vitest';
import { ExpressionError, checkGraderTarget, evaluateGraderTarget, type GradingContext } from '../index';

const context: GradingContext = {
  run: {
    id: 'run-1',
    status: 'completed',
    result: { answer: 'Paris', items: [{ name: 'a', price: 2.5 }], count: 3 },
    output: { answer: 'Paris' },
    input: { question: 'Capital of France?' },
    costUsd: 0.0125,
    durationMs: 1800,
    error: null,
  },
  nodes: {
    classify: { content: 'It is geography', status: 'completed', data: { category: 'geo', confidence: 0.9 } },
    'agent-2': { content: 'second answer', status: 'completed', data: null },
  },
  input: { question: 'Capital of France?' },
  item: { input: { question: 'Capital of France?' }, expected: { answer: 'Paris' }, tags: ['geo', 'easy'] },
};

function runError(source: string, ctx: GradingContext = context): ExpressionError {
  try {
    evaluateGraderTarget(source, ctx);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`${source} did not fail`);
}

describe('evaluateGraderTarget', () => {
  it('reads the run, its result of any shape, and its cost and time as numbers', () => {
    expect(evaluateGraderTarget('run.result', context)).toEqual(context.run.result);
    expect(evaluateGraderTarget('run.result.answer', context)).toBe('Paris');
    expect(evaluateGraderTarget('run.result.count + 1', context)).toBe(4);
    expect(evaluateGraderTarget('run.result.items.map(i, i.price * 2)', context)).toEqual([5]);
    expect(evaluateGraderTarget('run.costUsd', context)).toBe(0.0125);
    expect(evaluateGraderTarget('run.durationMs > 1000 && run.status == "completed"', context)).toBe(true);
    expect(evaluateGraderTarget('run.error', context)).toBeNull();
    expect(evaluateGraderTarget('run.output.answer', context)).toBe('Paris');
  });

  it('reads a string result as it is', () => {
    const ctx = { ...context, run: { ...context.run, result: 'Paris' } };
    expect(evaluateGraderTarget('run.result', ctx)).toBe('Paris');
    expect(evaluateGraderTarget('run.result.startsWith("Par")', ctx)).toBe(true);
  });

  it("reads a step's data and content, by name or by index", () => {
    expect(evaluateGraderTarget('nodes.classify.data.category', context)).toBe('geo');
    expect(evaluateGraderTarget('nodes.classify.data.confidence > 0.5', context)).toBe(true);
    expect(evaluateGraderTarget('nodes["agent-2"].content', context)).toBe('second answer');
    expect(evaluateGraderTarget('nodes["agent-2"].data', context)).toBeNull();
  });

  it("reads the case: its input, expected answer and tags, and the run's input", () => {
    expect(evaluateGraderTarget('item.expected', context)).toEqual({ answer: 'Paris' });
    expect(evaluateGraderTarget('item.expected.answer == run.result.answer', context)).toBe(true);
    expect(evaluateGraderTarget('"geo" in item.tags', context)).toBe(true);
    expect(evaluateGraderTarget('item.input.question', context)).toBe('Capital of France?');
    expect(evaluateGraderTarget('input.question', context)).toBe('Capital of France?');
  });

  it('fails with the target and a reason a user reads', () => {
    expect(runError('nodes.review.content').message).toBe(
      'nodes.review.content — node "review" has no result in this run',
    );
    expect(runError('run.result.missing').message).toBe(
      'run.result.missing — run.result has no field "missing"',
    );
    expect(runError('vars.total').reason).toBe(
      'unknown name "vars" (a grader reads run, nodes, input and item)',
    );
    expect(runError('run.result +').reason).toBe('syntax error: the expression ends too early');
    expect(runError('1.0 / 0.0').reason).toMatch(/not finite/);
  });
});

describe('checkGraderTarget', () => {
  it('accepts what a grader may read, of any shape', () => {
    expect(checkGraderTarget('run.result')).toBeNull();
    expect(checkGraderTarget('nodes.anything.data.deep[0].field')).toBeNull();
    expect(checkGraderTarget('run.result.items.filter(i, i.price > 2).size()')).toBeNull();
    expect(checkGraderTarget('item.expected')).toBeNull();
    expect(checkGraderTarget('size(input.question) > 3')).toBeNull();
  });

  it('refuses what cannot run, in words', () => {
    expect(checkGraderTarget('')).toBe('is empty');
    expect(checkGraderTarget('run.result +')).toBe('syntax error: the expression ends too early');
    expect(checkGraderTarget('vars.total')).toBe(
      'unknown name "vars" (a grader reads run, nodes, input and item)',
    );
    expect(checkGraderTarget('index + 1')).toBe(
      'unknown name "index" (a grader reads run, nodes, input and item)',
    );
    expect(checkGraderTarget('size(item.tags) > "a"')).toBe('> cannot combine int and string');
    expect(checkGraderTarget('run.result.matches("a+")')).toBe(
      'matches() is not available; use contains(), startsWith() or endsWith()',
    );
    expect(checkGraderTarget('x'.repeat(5001))).toMatch(/longer than 5,000 characters/);
  });
});
