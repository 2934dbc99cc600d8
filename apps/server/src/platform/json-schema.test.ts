import { describe, expect, it } from 'vitest';
import { fieldOf, schemaValidator, valueAt } from './json-schema';

describe('users’ JSON Schemas', () => {
  it('check patterns in linear time: a pattern that backtracks forever in JavaScript answers at once', () => {
    // With JavaScript's RegExp this test would not finish: (a+)+$ against 50,000 a's and a "!".
    const validate = schemaValidator({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(a+)+$' } },
    });
    expect(validate({ code: `${'a'.repeat(50_000)}!` })).toBe(false);
    expect(validate({ code: 'aaaa' })).toBe(true);
  });

  it('refuses a pattern RE2 cannot run in linear time (look-arounds, back-references)', () => {
    expect(() => schemaValidator({ type: 'string', pattern: '(?=a)b' })).toThrow(/regexp/i);
  });

  it('compiles each schema once, and never mixes two schemas that share an $id', () => {
    const first = { $id: 'https://example.com/s', type: 'object', required: ['a'] };
    const second = { $id: 'https://example.com/s', type: 'object', required: ['b'] };
    expect(schemaValidator(first)).toBe(schemaValidator({ ...first }));
    expect(schemaValidator(first)({ a: 1 })).toBe(true);
    expect(schemaValidator(second)({ a: 1 })).toBe(false);
  });

  it('names fields as people write them', () => {
    expect(fieldOf('/items/0/na~1me')).toBe('items[0].na/me');
    expect(valueAt({ items: [{ 'na/me': 3 }] }, '/items/0/na~1me')).toBe(3);
  });
});
