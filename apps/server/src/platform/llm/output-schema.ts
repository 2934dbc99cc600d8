import { outputSchemaProblem as shapeProblem } from '@crewline/contracts';
import type { JSONSchema7 } from 'ai';
import { fieldOf, schemaValidator, shown, valueAt, type ErrorObject } from '../json-schema';

/*
 * Structured output: the JSON Schema an agent's answer must follow (a node's or the agent's
 * `outputSchema`), checked with Ajv (platform/json-schema.ts). This module loads Ajv, so the gateway
 * imports it on the first call that has a schema, as it does the AI SDK (docs/architecture.md, Runtime).
 */

export type OutputSchema = Record<string, unknown>;

/** How an answer measured against its schema: its parsed value, or what is wrong with it. */
export type AnswerCheck = { ok: true; data: unknown } | { ok: false; problem: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why a schema cannot be asked for, or null: providers take an object schema (the contracts' rule,
 * which the engine applies to a node's schema), and it must be a JSON Schema that compiles.
 */
export function outputSchemaProblem(schema: unknown): string | null {
  const shape = shapeProblem(schema);
  if (shape) return shape;
  try {
    schemaValidator(schema as OutputSchema);
  } catch (error) {
    return `is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  return null;
}

/** One of Ajv's errors in a sentence a user (and the model, on its retry) can act on. */
function describe(error: ErrorObject, data: unknown): string {
  const field = fieldOf(error.instancePath);
  const at = (name: string) => (name ? `"${name}"` : 'the answer');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${at(field)} is missing the required field "${String(params.missingProperty)}"`;
    case 'additionalProperties':
      return `${at(field)} has the field "${String(params.additionalProperty)}", which the schema does not allow`;
    case 'enum':
      return `${at(field)} must be one of ${(params.allowedValues as unknown[]).map(shown).join(', ')} (it was ${shown(valueAt(data, error.instancePath))})`;
    case 'type':
      return `${at(field)} must be ${String(params.type)} (it was ${shown(valueAt(data, error.instancePath))})`;
    default:
      return `${at(field)} ${error.message ?? 'does not follow the schema'}`;
  }
}

/**
 * The answer's text parsed and validated against the schema: the value, or its first problem in
 * words. A model may wrap its JSON in a Markdown code fence; that is taken off first. `strict`: the
 * schema was sent rewritten by strictSchema, so the nulls of optional fields are taken out first.
 */
export function checkAnswer(
  schema: OutputSchema,
  text: string,
  options: { strict?: boolean } = {},
): AnswerCheck {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(text);
  const json = (fenced ? fenced[1] : text).trim();
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problem: json ? `the answer is not JSON (${reason})` : 'the answer is empty, not a JSON object',
    };
  }
  if (options.strict) data = withoutNullOptionals(data, schema);
  const validate = schemaValidator(schema);
  if (validate(data)) return { ok: true, data };
  const [first] = validate.errors ?? [];
  return { ok: false, problem: first ? describe(first, data) : 'the answer does not follow the schema' };
}

/*
 * OpenAI's strict structured outputs (which the AI SDK asks for, and OpenAI-compatible servers take
 * the same way) accept only schemas whose every object lists all its properties as required and
 * allows no others. A schema with optional fields is sent rewritten the way OpenAI documents it:
 * every field required, an optional one nullable; the null a model then gives for a field it had
 * nothing for is taken out of the answer again (withoutNullOptionals) before it is checked.
 */

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions'] as const;

/** Whether the schema lets a value be null (as far as the keywords that say so go). */
function acceptsNull(schema: unknown): boolean {
  if (!isObject(schema)) return schema === true;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  return ['anyOf', 'oneOf'].some(
    (k) => Array.isArray(schema[k]) && (schema[k] as unknown[]).some(acceptsNull),
  );
}

function nullable(schema: unknown): unknown {
  if (!isObject(schema) || acceptsNull(schema)) return schema;
  const { type } = schema;
  if (typeof type === 'string' && !schema.anyOf && !schema.oneOf) {
    const enumerated = Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {};
    return { ...schema, type: [type, 'null'], ...enumerated };
  }
  if (Array.isArray(type) && !schema.enum) return { ...schema, type: [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

const isObjectSchema = (schema: Record<string, unknown>) =>
  schema.type === 'object' ||
  (Array.isArray(schema.type) && schema.type.includes('object')) ||
  isObject(schema.properties);

/**
 * The schema as OpenAI's strict mode takes it, or null when it cannot be (an object that allows
 * other fields than it names: a map, free-form data), which is then sent as is, not strict.
 */
export function strictSchema(schema: OutputSchema): JSONSchema7 | null {
  const rewrite = (node: unknown): unknown => {
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = { ...node };
    for (const key of SUBSCHEMA_MAPS) {
      if (isObject(node[key]))
        out[key] = Object.fromEntries(Object.entries(node[key]).map(([name, sub]) => [name, rewrite(sub)]));
    }
    for (const key of SUBSCHEMA_LISTS) {
      if (Array.isArray(node[key])) out[key] = (node[key] as unknown[]).map(rewrite);
    }
    if (node.items !== undefined)
      out.items = Array.isArray(node.items) ? node.items.map(rewrite) : rewrite(node.items);
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) {
      throw new NotStrict();
    }
    if (isObjectSchema(node)) {
      const properties = isObject(out.properties) ? out.properties : {};
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      out.properties = Object.fromEntries(
        Object.entries(properties).map(([name, sub]) => [name, required.has(name) ? sub : nullable(sub)]),
      );
      out.required = Object.keys(properties);
      out.additionalProperties = false;
    }
    return out;
  };
  try {
    return rewrite(schema) as JSONSchema7;
  } catch (error) {
    if (error instanceof NotStrict) return null;
    throw error;
  }
}

class NotStrict extends Error {}

/** The answer to a schema rewritten by strictSchema, with the nulls of optional fields taken out. */
export function withoutNullOptionals(value: unknown, schema: unknown): unknown {
  if (!isObject(schema)) return value;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (Array.isArray(items)) return value.map((item, i) => withoutNullOptionals(item, items[i]));
    return value.map((item) => withoutNullOptionals(item, items));
  }
  if (!isObject(value) || !isObject(schema.properties)) return value;
  const properties = schema.properties;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    const sub = properties[name];
    if (item === null && sub !== undefined && !required.has(name) && !acceptsNull(sub)) continue;
    out[name] = withoutNullOptionals(item, sub);
  }
  return out;
}
