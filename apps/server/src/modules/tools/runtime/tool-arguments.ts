import {
  fieldOf,
  schemaValidator,
  shown,
  valueAt,
  type ErrorObject,
  type ValidateFunction,
} from '../../../platform/json-schema';
import type { LlmTool } from '../../../platform/llm';

/*
 * A tool called directly (a workflow's Tool step) gets its arguments from templates, not from a model
 * that read the tool's input schema: they are checked against that schema before the tool runs, so a
 * mismatch fails the step naming the argument instead of surfacing as the tool's own parse error.
 * This module loads Ajv (platform/json-schema.ts), so the tool runtime imports it on the first direct
 * call only (docs/architecture.md, Runtime).
 */

type Schema = NonNullable<LlmTool['inputSchema']>;

/** As the model gateway sends a tool's schema (gateway.ts, asObjectSchema): no type means an object. */
function asObjectSchema(schema: Schema | undefined): Record<string, unknown> {
  if (!schema || typeof schema !== 'object') return { type: 'object', properties: {} };
  const own = schema as Record<string, unknown>;
  return own.type ? own : { type: 'object', properties: {}, ...own };
}

function validatorFor(schema: Schema | undefined): ValidateFunction {
  return schemaValidator(asObjectSchema(schema));
}

/** One of Ajv's errors as a sentence that names the argument. */
function describe(error: ErrorObject, args: unknown, names: string[]): string {
  const field = fieldOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const argument = `the argument "${field}"`;
  switch (error.keyword) {
    case 'required':
      return field
        ? `${argument} is missing its field "${String(params.missingProperty)}"`
        : `the argument "${String(params.missingProperty)}" is required`;
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      if (field) return `${argument} has the field "${extra}", which the tool does not take`;
      return `the tool takes no argument "${extra}"${names.length ? ` (it takes ${names.map((n) => `"${n}"`).join(', ')})` : ''}`;
    }
    case 'enum':
      return `${argument} must be one of ${(params.allowedValues as unknown[]).map(shown).join(', ')} (it was ${shown(valueAt(args, error.instancePath))})`;
    case 'type':
      return `${argument} must be ${String(params.type)} (it was ${shown(valueAt(args, error.instancePath))})`;
    default:
      return field
        ? `${argument} ${error.message ?? 'does not fit the tool'} (it was ${shown(valueAt(args, error.instancePath))})`
        : `the arguments ${error.message ?? 'do not fit the tool'}`;
  }
}

/**
 * Why these arguments do not fit the tool's input schema, naming the argument, or null when they do.
 * A schema that is not valid JSON Schema (a custom tool's, typed by a user) is a problem too.
 */
export function argumentsProblem(schema: Schema | undefined, args: Record<string, unknown>): string | null {
  let validate: ValidateFunction;
  try {
    validate = validatorFor(schema);
  } catch (error) {
    return `the tool's input schema is not a valid JSON Schema (${error instanceof Error ? error.message : String(error)})`;
  }
  if (validate(args)) return null;
  const [first] = validate.errors ?? [];
  const properties = asObjectSchema(schema).properties;
  const names = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  return first ? describe(first, args, names) : 'the arguments do not fit the tool';
}
