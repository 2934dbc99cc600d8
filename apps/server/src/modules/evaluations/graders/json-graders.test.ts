import { graderSchema, type Grader, type GraderInput } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';
import { gradeJsonEquals, gradeJsonSchema } from './json-graders';

const grader = <T extends Grader['type']>(input: GraderInput & { type: T }) =>
  graderSchema.parse(input) as Extract<Grader, { type: T }>;

describe('json_equals', () => {
  it('compares whole values, in any key order, parsing text that holds JSON on either side', () => {
    const g = grader({ type: 'json_equals' });
    expect(gradeJsonEquals(g, '{"b": [1, 2], "a": {"x": true}}', { a: { x: true }, b: [1, 2] }).score).toBe(
      1,
    );
    expect(gradeJsonEquals(g, { a: 1 }, '{"a":1}')).toEqual({
      score: 1,
      reason: 'The answer equals {"a":1}',
    });
    expect(gradeJsonEquals(g, { a: 1 }, { a: 2 })).toEqual({
      score: 0,
      reason: 'The answer is {"a":1}, expected {"a":2}',
    });
    // Lists keep their order.
    expect(gradeJsonEquals(g, [1, 2], [2, 1]).score).toBe(0);
  });

  it('reads a field by its dotted path, list indexes included', () => {
    const answer = { order: { items: [{ sku: 'A1', qty: 2 }], status: 'paid' } };
    expect(
      gradeJsonEquals(grader({ type: 'json_equals', field: 'order.items.0.sku' }), answer, 'A1'),
    ).toEqual({
      score: 1,
      reason: 'order.items.0.sku equals "A1"',
    });
    expect(
      gradeJsonEquals(grader({ type: 'json_equals', field: 'order.items.0.qty' }), answer, 2).score,
    ).toBe(1);
    expect(gradeJsonEquals(grader({ type: 'json_equals', field: 'order.status' }), answer, 'open')).toEqual({
      score: 0,
      reason: 'order.status is "paid", expected "open"',
    });
    expect(
      gradeJsonEquals(grader({ type: 'json_equals', field: 'order.items.3.sku' }), answer, 'A1'),
    ).toEqual({
      score: 0,
      reason: 'order.items.3.sku is missing (expected "A1")',
    });
  });

  it('scores 0 when the answer is text that holds no JSON', () => {
    expect(gradeJsonEquals(grader({ type: 'json_equals' }), 'Sure! Here it is: {"a":1}', { a: 1 })).toEqual({
      score: 0,
      reason: 'The answer is not JSON: "Sure! Here it is: {\\"a\\":1}"',
    });
  });
});

describe('json_schema', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
    required: ['name', 'age'],
  };

  it('passes an answer (object or JSON text) that follows the schema', async () => {
    const g = grader({ type: 'json_schema', schema });
    expect(await gradeJsonSchema(g, { name: 'Ada', age: 36 })).toEqual({
      score: 1,
      reason: 'The answer follows the schema',
    });
    expect((await gradeJsonSchema(g, '{"name":"Ada","age":36}')).score).toBe(1);
  });

  it('lists the first errors of one that does not', async () => {
    const g = grader({ type: 'json_schema', schema });
    expect(await gradeJsonSchema(g, { age: -1 })).toEqual({
      score: 0,
      reason: `Does not follow the schema: the answer must have required property 'name'; "age" must be >= 0`,
    });
  });

  it('scores 0 for text that is not JSON, and for a schema that does not compile', async () => {
    expect((await gradeJsonSchema(grader({ type: 'json_schema', schema }), 'not json')).reason).toBe(
      'The answer is not JSON: "not json"',
    );
    const broken = grader({ type: 'json_schema', schema: { type: 'nonsense' } });
    expect((await gradeJsonSchema(broken, {})).reason).toMatch(
      /^The grader's schema is not a valid JSON Schema: /,
    );
  });
});
