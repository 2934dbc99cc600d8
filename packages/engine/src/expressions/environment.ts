// The CEL environments: one for running expressions, and one per scope for checking them at save
// time (docs/decisions/0040-cel-expressions.md).
import { Environment } from '@marcbachmann/cel-js';
import type { ExpressionScope } from './types';

/** Longest expression accepted, in characters. */
export const MAX_EXPRESSION_LENGTH = 5000;
/** Parse-time limits: a hostile expression is refused before it runs. */
const EXPRESSION_LIMITS = {
  maxAstNodes: 1500,
  maxDepth: 32,
  maxListElements: 500,
  maxMapEntries: 500,
  maxCallArguments: 16,
} as const;

/** Names defined only inside map and loop bodies. */
export const ITERATION_NAMES = ['item', 'index', 'last'] as const;

/**
 * Shared by both: mixed literals (`{"name": "a", "count": 2}` builds a map, as JSON would) and
 * int/double arithmetic that gives a double, so `price * 2` works whether price came in as 3 or 2.5
 * (CEL itself refuses `double * int`; the number rule in values.ts makes that common). The
 * graders' environment (grading.ts) is built from it too.
 */
export const base = new Environment({ homogeneousAggregateLiterals: false, limits: EXPRESSION_LIMITS });
const arithmetic: Record<string, (a: number, b: number) => number> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
};
for (const [op, apply] of Object.entries(arithmetic)) {
  base.registerOperator(`double ${op} int: double`, (a: number, b: bigint) => apply(a, Number(b)));
  base.registerOperator(`int ${op} double: double`, (a: bigint, b: number) => apply(Number(a), b));
}

/** Runs every expression: all the data is dynamic, the check at save time has typed it already. */
export const runtimeEnvironment = base
  .clone()
  .registerVariable('input', 'dyn')
  .registerVariable('nodes', 'map<string, dyn>')
  .registerVariable('vars', 'map<string, dyn>')
  .registerVariable('run', 'map<string, string>')
  .registerVariable('item', 'dyn')
  .registerVariable('index', 'int')
  .registerVariable('last', 'dyn')
  .registerVariable('text', 'string');

/** A declared object type of the check environment: its fields and how an error names it. */
export type DeclaredType = { label: string; fields: string[] };

export type CheckEnvironment = {
  env: Environment;
  /** Generated type name → what it is, for readable errors ("nodes.classify.data"). */
  types: Map<string, DeclaredType>;
};

const TYPE_PREFIX = 'CrewlineType';
/** Generated names in the library's messages, replaced by their labels. */
export const TYPE_NAME_PATTERN = new RegExp(`\\b${TYPE_PREFIX}\\d+\\b`, 'g');

/** A schema deeper or wider than this is checked as dynamic past that point. */
const MAX_SCHEMA_DEPTH = 8;
const MAX_DECLARED_TYPES = 300;

/**
 * The check environment of one scope: `nodes` is a type whose fields are exactly the upstream node
 * ids, each `{content: string, status: string, data: <from its output schema, else dyn>}`; `vars`
 * has exactly the names upstream transforms set; `run` has id, trigger and startedAt.
 */
export function checkEnvironment(scope: ExpressionScope): CheckEnvironment {
  const env = base.clone();
  const types = new Map<string, DeclaredType>();
  let next = 0;

  const declare = (label: string, fields: Record<string, string>): string => {
    const name = `${TYPE_PREFIX}${next++}`;
    env.registerType(name, { fields });
    types.set(name, { label, fields: Object.keys(fields) });
    return name;
  };

  /** JSON Schema → CEL type (see the decision record for the table). */
  const typeOf = (schema: unknown, label: string, depth: number): string => {
    if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH || next >= MAX_DECLARED_TYPES) return 'dyn';
    const type = schema.type;
    if (Array.isArray(type)) return 'dyn'; // a union such as ["string", "null"]: may be null
    if (type === undefined && Array.isArray(schema.enum)) {
      return schema.enum.every((v) => typeof v === 'string') ? 'string' : 'dyn';
    }
    if (type === undefined && typeof schema.const === 'string') return 'string';
    switch (type) {
      case 'string':
        return 'string';
      case 'integer':
        return 'int';
      // Dynamic: a number may arrive as 3 (an int) or 2.5 (a double), and `x > 1`, `x > 0.5` and
      // `x * 2` must all be valid.
      case 'number':
        return 'dyn';
      case 'boolean':
        return 'bool';
      case 'array': {
        if (!isRecord(schema.items)) return 'list<dyn>';
        return `list<${typeOf(schema.items, `${label}[]`, depth + 1)}>`;
      }
      case 'object':
      case undefined: {
        const properties = schema.properties;
        if (!isRecord(properties) || Object.keys(properties).length === 0) {
          return type === 'object' ? 'map<string, dyn>' : 'dyn';
        }
        // Open objects (additionalProperties true or a schema) may hold any field.
        const extra = schema.additionalProperties;
        if (extra === true || isRecord(extra)) return 'map<string, dyn>';
        const fields: Record<string, string> = {};
        for (const [key, property] of Object.entries(properties)) {
          fields[key] = typeOf(property, `${label}${accessor(key)}`, depth + 1);
        }
        return declare(label, fields);
      }
      default:
        return 'dyn';
    }
  };

  const nodeFields: Record<string, string> = {};
  for (const [id, node] of Object.entries(scope.nodes)) {
    const path = `nodes${accessor(id)}`;
    const data = node.outputSchema ? typeOf(node.outputSchema, `${path}.data`, 0) : 'dyn';
    nodeFields[id] = declare(path, { content: 'string', status: 'string', data });
  }
  env.registerVariable('nodes', declare('nodes', nodeFields));
  env.registerVariable('vars', declare('vars', Object.fromEntries(scope.vars.map((name) => [name, 'dyn']))));
  env.registerVariable('run', declare('run', { id: 'string', trigger: 'string', startedAt: 'string' }));
  env.registerVariable('input', 'dyn');
  if (scope.iteration) {
    env.registerVariable('item', 'dyn');
    env.registerVariable('index', 'int');
    env.registerVariable('last', 'dyn');
  }
  if (scope.text) env.registerVariable('text', 'string');
  return { env, types };
}

/** `.name` when the key is an identifier, else `["agent-2"]`: how a user writes the access. */
export function accessor(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
