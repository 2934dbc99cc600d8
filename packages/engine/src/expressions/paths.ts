// The paths an expression may read in a scope, for the builder's autocompletion: the same names the
// check environment declares (environment.ts), written as a user types them.
import { accessor } from './environment';
import type { ExpressionScope } from './types';

export type ExpressionPath = {
  /** As typed: `nodes.classify.data.category`, `nodes["agent-2"].content`, `vars.total`. */
  path: string;
  /** What it is, in a few words (`string`, `agent step's output`); the builder adds the node's label. */
  detail: string;
  /** The upstream node it belongs to, if any (the builder names it by its label). */
  nodeId?: string;
};

/** Nested schemas past this depth are not listed (the check treats them as dynamic too). */
const MAX_DEPTH = 8;
/** A hostile schema cannot make the list unbounded. */
const MAX_PATHS = 2000;

/**
 * Every path an expression may read in `scope`, roots first: `input`, `run.*`, `vars.<name>`, each
 * upstream node's `content`, `status`, `data` and the fields of its declared output schema
 * (objects recursively; a list only as itself), then `item`, `index`, `last` inside map/loop bodies.
 */
export function expressionPaths(scope: ExpressionScope): ExpressionPath[] {
  const paths: ExpressionPath[] = [
    { path: 'input', detail: 'what the run started with' },
    { path: 'run.id', detail: 'string · the run’s id' },
    { path: 'run.trigger', detail: 'string · how the run started' },
    { path: 'run.startedAt', detail: 'string · when the run started (ISO)' },
  ];
  for (const name of new Set(scope.vars)) {
    paths.push({ path: `vars${accessor(name)}`, detail: 'set by a transform' });
  }
  for (const [id, node] of Object.entries(scope.nodes)) {
    const base = `nodes${accessor(id)}`;
    paths.push(
      { path: `${base}.content`, detail: `string · ${node.kind} step’s text`, nodeId: id },
      { path: `${base}.status`, detail: 'string · completed, failed or skipped', nodeId: id },
      {
        path: `${base}.data`,
        detail: node.outputSchema ? typeName(node.outputSchema) : `${node.kind} step’s data`,
        nodeId: id,
      },
    );
    if (node.outputSchema) addFields(paths, `${base}.data`, node.outputSchema, id, 0);
  }
  if (scope.iteration) {
    paths.push(
      { path: 'item', detail: 'the item (a loop’s last pass’s data)' },
      { path: 'index', detail: 'int · the item’s place, from 0' },
      {
        path: 'last',
        detail: 'the pass that just finished (loops), or whether this is the last item (maps)',
      },
    );
  }
  return paths.slice(0, MAX_PATHS);
}

function addFields(
  paths: ExpressionPath[],
  prefix: string,
  schema: Record<string, unknown>,
  nodeId: string,
  depth: number,
): void {
  if (depth >= MAX_DEPTH || paths.length >= MAX_PATHS) return;
  if (schema.type !== 'object' && schema.type !== undefined) return;
  const properties = schema.properties;
  if (!isRecord(properties)) return;
  for (const [key, property] of Object.entries(properties)) {
    const path = `${prefix}${accessor(key)}`;
    const description =
      isRecord(property) && typeof property.description === 'string' ? property.description.trim() : '';
    paths.push({
      path,
      detail: description ? `${typeName(property)} · ${description}` : typeName(property),
      nodeId,
    });
    if (isRecord(property)) addFields(paths, path, property, nodeId, depth + 1);
  }
}

/** A JSON Schema's type in a few words: `string`, `"billing" | "sales"`, `list of string`, `object`. */
function typeName(schema: unknown): string {
  if (!isRecord(schema)) return 'any';
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.length <= 6) {
    return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  }
  const type = schema.type;
  if (Array.isArray(type)) return type.join(' or ');
  if (type === 'array') {
    return isRecord(schema.items) ? `list of ${typeName(schema.items)}` : 'list';
  }
  if (type === 'integer') return 'int';
  if (typeof type === 'string') return type;
  return isRecord(schema.properties) ? 'object' : 'any';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
