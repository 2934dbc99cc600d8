import { describe, expect, it } from 'vitest';

import {
  emptyField,
  fieldProblem,
  fieldsFromSchema,
  parseSchemaText,
  schemaFromFields,
  type SchemaField,
} from './output-schema';

const field = (patch: Partial<SchemaField>): SchemaField => ({ ...emptyField(), ...patch });

describe('the output schema’s field list', () => {
  it('writes the fields as a JSON Schema object: types, allowed values, required, descriptions', () => {
    const schema = schemaFromFields([
      field({ name: 'category', enumValues: 'billing, technical , ', description: ' The team ' }),
      field({ name: 'score', type: 'integer', enumValues: '1, 2, 3', required: false }),
      field({ name: 'urgent', type: 'boolean', enumValues: 'ignored' }),
      field({ name: 'tags', type: 'array' }),
      field({ name: '' }),
    ]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        category: { type: 'string', enum: ['billing', 'technical'], description: 'The team' },
        score: { type: 'integer', enum: [1, 2, 3] },
        urgent: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['category', 'urgent', 'tags'],
      additionalProperties: false,
    });
  });

  it('has no schema without a named field', () => {
    expect(schemaFromFields([])).toBeUndefined();
    expect(schemaFromFields([field({ name: '  ' })])).toBeUndefined();
  });

  it('reads back what it wrote, keeping the keywords it does not show (a list’s items)', () => {
    const written = schemaFromFields([
      field({ name: 'category', enumValues: 'a, b' }),
      field({ name: 'ids', type: 'array', extra: { items: { type: 'integer' } }, required: false }),
    ]);
    const fields = fieldsFromSchema(written);
    expect(fields?.map((f) => [f.name, f.type, f.enumValues, f.required])).toEqual([
      ['category', 'string', 'a, b', true],
      ['ids', 'array', '', false],
    ]);
    expect(schemaFromFields(fields!)).toEqual(written);
  });

  it('leaves to the JSON editor what the list cannot show without losing part of it', () => {
    expect(fieldsFromSchema(undefined)).toEqual([]);
    expect(fieldsFromSchema({ type: 'array' })).toBeNull();
    expect(fieldsFromSchema({ type: 'object', properties: {}, $defs: {} })).toBeNull();
    expect(fieldsFromSchema({ type: 'object', properties: { a: { type: ['string', 'null'] } } })).toBeNull();
    expect(
      fieldsFromSchema({ type: 'object', properties: { a: { type: 'string', enum: ['x, y'] } } }),
    ).toBeNull();
    expect(fieldsFromSchema({ type: 'object', properties: {}, additionalProperties: true })).toBeNull();
  });

  it('says what is wrong with a field as it is typed', () => {
    const fields = [
      field({ name: 'a' }),
      field({ name: 'a' }),
      field({ name: 'n', type: 'integer', enumValues: '1, 2.5' }),
    ];
    expect(fields.map((f) => fieldProblem(f, fields))).toEqual([
      'Two fields are named "a".',
      'Two fields are named "a".',
      '"2.5" is not an integer.',
    ]);
  });
});

describe('the output schema as JSON', () => {
  it('saves a JSON object, removes the schema when emptied, and refuses anything else with a reason', () => {
    expect(parseSchemaText('{"type":"object"}')).toEqual({ ok: true, schema: { type: 'object' } });
    expect(parseSchemaText('  ')).toEqual({ ok: true, schema: undefined });
    expect(parseSchemaText('[1]')).toEqual({ ok: false, error: 'The output schema must be a JSON object.' });
    const broken = parseSchemaText('{"type": ');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/^Not valid JSON: /);
  });
});
