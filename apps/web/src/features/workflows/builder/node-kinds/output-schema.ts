// An agent step's output schema as the builder's field list edits it: each field a name, a type, enum
// values, required and a description, written as the JSON Schema object the engine and the model's
// structured output read (`{ type: 'object', properties, required, additionalProperties: false }`).
// A schema the list cannot show (nested parts, several types, other keywords at the top) is edited as JSON.

export const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  string: 'Text',
  number: 'Number',
  integer: 'Integer',
  boolean: 'Yes / no',
  array: 'List',
  object: 'Object',
};

export interface SchemaField {
  name: string;
  type: FieldType;
  /** Comma-separated allowed values (text and numbers only); empty for any value. */
  enumValues: string;
  required: boolean;
  description: string;
  /** The property's other keywords (a list's `items`, a format…), kept as they were. */
  extra: Record<string, unknown>;
}

export type JsonSchema = Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isFieldType = (value: unknown): value is FieldType =>
  typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);

/** The keys at the top of a schema the field list writes; any other makes it a JSON-only schema. */
const ROOT_KEYS = new Set(['type', 'properties', 'required', 'additionalProperties']);

export function emptyField(): SchemaField {
  return { name: '', type: 'string', enumValues: '', required: true, description: '', extra: {} };
}

/**
 * The field list of a schema: [] for none, null when the list cannot show it without losing part
 * of it (then it is edited as JSON).
 */
export function fieldsFromSchema(schema: unknown): SchemaField[] | null {
  if (schema === undefined || schema === null) return [];
  if (!isRecord(schema) || schema.type !== 'object') return null;
  if (Object.keys(schema).some((key) => !ROOT_KEYS.has(key))) return null;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return null;
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) return null;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const fields: SchemaField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property) || !isFieldType(property.type)) return null;
    const { type, enum: allowed, description, ...extra } = property;
    if (description !== undefined && typeof description !== 'string') return null;
    if (allowed !== undefined) {
      const values = Array.isArray(allowed) ? allowed : null;
      const fits = (v: unknown) =>
        type === 'string' ? typeof v === 'string' && !v.includes(',') : typeof v === 'number';
      if (!values || (type !== 'string' && type !== 'number' && type !== 'integer') || !values.every(fits))
        return null;
    }
    fields.push({
      name,
      type,
      enumValues: Array.isArray(allowed) ? allowed.join(', ') : '',
      required: required.includes(name),
      description: description ?? '',
      extra,
    });
  }
  return fields;
}

/** What is wrong with a field as the list holds it, or null. */
export function fieldProblem(field: SchemaField, fields: readonly SchemaField[]): string | null {
  const name = field.name.trim();
  if (!name) return null;
  if (fields.filter((f) => f.name.trim() === name).length > 1) return `Two fields are named "${name}".`;
  if (field.type === 'number' || field.type === 'integer') {
    const bad = enumList(field.enumValues).find((v) => !isNumberFor(field.type, v));
    if (bad !== undefined) return `"${bad}" is not ${field.type === 'integer' ? 'an integer' : 'a number'}.`;
  }
  return null;
}

const enumList = (text: string) =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

const isNumberFor = (type: FieldType, text: string) =>
  text !== '' && Number.isFinite(Number(text)) && (type !== 'integer' || Number.isInteger(Number(text)));

/** The JSON Schema of the fields with a name; undefined when there are none (no declared output). */
export function schemaFromFields(fields: readonly SchemaField[]): JsonSchema | undefined {
  const named = fields.filter((f) => f.name.trim());
  if (named.length === 0) return undefined;
  const properties: Record<string, JsonSchema> = {};
  for (const field of named) {
    const property: JsonSchema = { type: field.type };
    const values = enumList(field.enumValues);
    if (field.type === 'string' && values.length > 0) property.enum = values;
    if ((field.type === 'number' || field.type === 'integer') && values.length > 0) {
      const numbers = values.filter((v) => isNumberFor(field.type, v)).map(Number);
      if (numbers.length > 0) property.enum = numbers;
    }
    if (field.description.trim()) property.description = field.description.trim();
    // A list says what it holds: text unless it said otherwise.
    if (field.type === 'array' && !isRecord(field.extra.items)) property.items = { type: 'string' };
    Object.assign(property, field.type === 'array' ? field.extra : withoutItems(field.extra));
    properties[field.name.trim()] = property;
  }
  return {
    type: 'object',
    properties,
    required: named.filter((f) => f.required).map((f) => f.name.trim()),
    additionalProperties: false,
  };
}

/** A property that stops being a list does not keep what the list held. */
function withoutItems(extra: Record<string, unknown>): Record<string, unknown> {
  const { items: _items, ...rest } = extra;
  void _items;
  return rest;
}

/** Reads the JSON editor's text: the schema, undefined when empty, or why it cannot be saved. */
export function parseSchemaText(
  text: string,
): { ok: true; schema: JsonSchema | undefined } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, schema: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isRecord(parsed)) return { ok: false, error: 'The output schema must be a JSON object.' };
  return { ok: true, schema: parsed };
}
