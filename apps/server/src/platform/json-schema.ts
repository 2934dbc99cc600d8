import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';

/*
 * JSON Schemas that users write (agents' output schemas, custom tools' input schemas), checked with
 * Ajv. Their `pattern`s run on RE2 (re2js), in time linear in the text: a pattern such as `(a+)+$`
 * cannot stall the server on a crafted answer or argument (docs/security.md). Loading this module
 * loads Ajv, so its users import it on first use (docs/architecture.md, Runtime).
 */

export type { ErrorObject, ValidateFunction };

const linearRegExp = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(pattern);
    return { test: (text: string) => compiled.test(text) };
  },
  { code: 'require("re2js").RE2JS' },
);

// `strict: false`: schemas are written by users and other tools, with keywords Ajv does not know
// (`title`, `examples`, vendors' own); `addUsedSchema: false` keeps nested `$id`s out of the instance.
const ajv = new Ajv({ allErrors: true, strict: false, addUsedSchema: false, code: { regExp: linearRegExp } });
addFormats(ajv);

/** Compiled schemas, by their JSON: runs check the same few shapes over and over. */
const COMPILED_KEPT = 500;
const compiled = new Map<string, { schema: object; validate: ValidateFunction }>();

/**
 * The schema's validator, compiled once (throws when it is not a JSON Schema Ajv can compile). A
 * schema is compiled on its own: `$schema` would make Ajv look for that draft's meta-schema, and the
 * `$id`s of two organizations' schemas must not meet in one Ajv.
 */
export function schemaValidator(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  const found = compiled.get(key);
  if (found) {
    // Most recently used last, so the oldest is the one dropped.
    compiled.delete(key);
    compiled.set(key, found);
    return found.validate;
  }
  const { $schema: _draft, $id: _id, ...own } = schema;
  const validate = ajv.compile(own);
  compiled.set(key, { schema: own, validate });
  if (compiled.size > COMPILED_KEPT) {
    const [oldestKey, oldest] = compiled.entries().next().value!;
    compiled.delete(oldestKey);
    // Ajv keeps every schema it compiled, by object: let it forget this one too.
    ajv.removeSchema(oldest.schema);
  }
  return validate;
}

/** A value as an error message quotes it: JSON, cut at 80 characters. */
export const shown = (value: unknown) => {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
};

/** A JSON pointer (`/items/0/name`) as people name the field: `items[0].name`. */
export function fieldOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

/** The value a JSON pointer names in `data`. */
export function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const part of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}
