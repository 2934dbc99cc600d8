import { describe, expect, it } from 'vitest';
import { checkAnswer, outputSchemaProblem, strictSchema, withoutNullOptionals } from './output-schema';

const order = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    note: { type: 'string' },
    status: { type: 'string', enum: ['open', 'closed'] },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
        required: ['sku'],
      },
    },
  },
  required: ['id', 'lines'],
};

describe('output schemas', () => {
  it('are object schemas that compile; anything else is named', () => {
    expect(outputSchemaProblem(order)).toBeNull();
    expect(outputSchemaProblem([])).toBe('is not a JSON object');
    expect(outputSchemaProblem({ type: 'string' })).toBe('must describe an object ("type": "object")');
    expect(outputSchemaProblem({ type: 'object', properties: 'a' })).toBe(
      'has "properties" that are not an object',
    );
    expect(outputSchemaProblem({ type: 'object', properties: { a: { type: 'text' } } })).toMatch(
      /^is not a valid JSON Schema: .*type/,
    );
    expect(outputSchemaProblem({ type: 'object', required: 'a' })).toMatch(/^is not a valid JSON Schema: /);
  });

  it('compile whatever draft they name and whatever $id they carry, each on its own', () => {
    const a = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://x/s',
      type: 'object',
      required: ['a'],
    };
    const b = { $id: 'https://x/s', type: 'object', required: ['b'] };
    expect(outputSchemaProblem(a)).toBeNull();
    expect(outputSchemaProblem(b)).toBeNull();
    expect(checkAnswer(a, '{"a":1}')).toEqual({ ok: true, data: { a: 1 } });
    expect(checkAnswer(b, '{"a":1}')).toEqual({
      ok: false,
      problem: 'the answer is missing the required field "b"',
    });
  });

  it('check an answer and name its first problem as a user reads it', () => {
    const check = (text: string) => checkAnswer(order, text);
    expect(check('{"id":"A1","lines":[{"sku":"X","qty":2}]}')).toEqual({
      ok: true,
      data: { id: 'A1', lines: [{ sku: 'X', qty: 2 }] },
    });
    // A Markdown fence around the JSON is taken off.
    expect(check('```json\n{"id":"A1","lines":[]}\n```')).toMatchObject({ ok: true });
    expect(check('')).toEqual({ ok: false, problem: 'the answer is empty, not a JSON object' });
    expect(check('Here it is: {"id"')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^the answer is not JSON \(/),
    });
    expect(check('{"id":7,"lines":[]}')).toEqual({ ok: false, problem: '"id" must be string (it was 7)' });
    expect(check('{"id":"A1","lines":[],"status":"lost"}')).toEqual({
      ok: false,
      problem: '"status" must be one of "open", "closed" (it was "lost")',
    });
    expect(check('{"id":"A1","lines":[{"sku":"X","qty":0}]}')).toEqual({
      ok: false,
      problem: '"lines[0].qty" must be >= 1',
    });
    expect(check('{"id":"A1","lines":[{"qty":1}]}')).toEqual({
      ok: false,
      problem: '"lines[0]" is missing the required field "sku"',
    });
    const contact = { type: 'object', properties: { email: { type: 'string', format: 'email' } } };
    expect(checkAnswer(contact, '{"email":"ada@example.com"}')).toMatchObject({ ok: true });
    expect(checkAnswer(contact, '{"email":"ada at home"}')).toEqual({
      ok: false,
      problem: '"email" must match format "email"',
    });
    const closed = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
    expect(checkAnswer(closed, '{"a":"x","b":1}')).toEqual({
      ok: false,
      problem: 'the answer has the field "b", which the schema does not allow',
    });
  });

  it("are rewritten for OpenAI's strict mode: every field required, optional ones nullable, no others", () => {
    expect(strictSchema(order)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        note: { type: ['string', 'null'] },
        status: { type: ['string', 'null'], enum: ['open', 'closed', null] },
        lines: {
          type: 'array',
          items: {
            type: 'object',
            properties: { sku: { type: 'string' }, qty: { type: ['integer', 'null'], minimum: 1 } },
            required: ['sku', 'qty'],
            additionalProperties: false,
          },
        },
      },
      required: ['id', 'note', 'status', 'lines'],
      additionalProperties: false,
    });
    // A field without a plain type becomes nullable with anyOf; definitions are rewritten too.
    const withRef = {
      type: 'object',
      properties: { who: { $ref: '#/$defs/person' } },
      $defs: { person: { type: 'object', properties: { name: { type: 'string' } } } },
    };
    expect(strictSchema(withRef)).toEqual({
      type: 'object',
      properties: { who: { anyOf: [{ $ref: '#/$defs/person' }, { type: 'null' }] } },
      required: ['who'],
      additionalProperties: false,
      $defs: {
        person: {
          type: 'object',
          properties: { name: { type: ['string', 'null'] } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    });
    // An object open to other fields cannot be strict.
    expect(
      strictSchema({ type: 'object', properties: { meta: { type: 'object', additionalProperties: true } } }),
    ).toBeNull();
    expect(strictSchema({ type: 'object', additionalProperties: { type: 'number' } })).toBeNull();
  });

  it('take the nulls of optional fields out of a strict answer, keeping the nulls a field allows', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: ['string', 'null'] },
        c: { type: 'string' },
        items: { type: 'array', items: { type: 'object', properties: { x: { type: 'number' } } } },
      },
      required: ['c'],
    };
    expect(
      withoutNullOptionals({ a: null, b: null, c: null, items: [{ x: null }, { x: 1 }] }, schema),
    ).toEqual({
      b: null,
      c: null,
      items: [{}, { x: 1 }],
    });
    expect(checkAnswer(schema, '{"a":null,"c":"ok","items":[{"x":null}]}', { strict: true })).toEqual({
      ok: true,
      data: { c: 'ok', items: [{}] },
    });
    // Not strict: a null is the model's answer, and checked as one.
    expect(checkAnswer(schema, '{"a":null,"c":"ok"}')).toEqual({
      ok: false,
      problem: '"a" must be string (it was null)',
    });
  });

  it('are compiled once and forgotten when many others came after', () => {
    const schemas = Array.from({ length: 520 }, (_, i) => ({ type: 'object', required: [`f${i}`] }));
    for (const schema of schemas) expect(checkAnswer(schema, '{}')).toMatchObject({ ok: false });
    // The first ones were dropped from the cache and are compiled again without trouble.
    expect(checkAnswer(schemas[0], '{"f0":1}')).toEqual({ ok: true, data: { f0: 1 } });
  });
});
