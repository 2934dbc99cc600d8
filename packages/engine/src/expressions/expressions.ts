// Compiling, checking and evaluating CEL expressions and `{{ expr }}` templates
// (docs/decisions/0040-cel-expressions.md).
import type { ASTNode, ParseResult } from '@marcbachmann/cel-js';
import { formatNumber } from '@crewline/contracts/format-number';
import {
  MAX_EXPRESSION_LENGTH,
  checkEnvironment,
  runtimeEnvironment,
  type CheckEnvironment,
} from './environment';
import { describeError } from './reasons';
import { soleExpression, splitTemplate } from './template';
import { ExpressionError, type ExpressionContext, type ExpressionScope } from './types';
import { ResultError, describeKind, fromCel, toCel } from './values';

/** Compiled expressions kept (least recently used dropped first). */
export const EXPRESSION_CACHE_SIZE = 500;
/** List macros (map, filter, all, exists, exists_one, cel.bind) in one expression, and how deep inside each other. */
const MAX_MACROS = 8;
const MAX_MACRO_NESTING = 2;

const MACROS = new Set(['map', 'filter', 'all', 'exists', 'exists_one', 'bind']);

/** A compiled expression: what to run, and which parts of the context it reads. */
type CompiledExpression = {
  readonly source: string;
  readonly run: ParseResult;
  /** Root names it reads (input, nodes, vars, run, item, index, last). */
  readonly reads: ReadonlySet<string>;
  /** The node ids it reads, or 'all' when it reads `nodes` as a whole or by a computed key. */
  readonly nodeIds: ReadonlySet<string> | 'all';
};

const cache = new Map<string, CompiledExpression | ExpressionError>();

/** Compiles (parses and applies the limits) once per source; throws ExpressionError. */
export function compileExpression(source: string): CompiledExpression {
  const hit = cache.get(source);
  if (hit !== undefined) {
    cache.delete(source);
    cache.set(source, hit);
    if (hit instanceof ExpressionError) throw hit;
    return hit;
  }
  let entry: CompiledExpression | ExpressionError;
  try {
    entry = compileUncached(source);
  } catch (error) {
    entry = error instanceof ExpressionError ? error : failure(source, describeError(error, 'check'));
  }
  cache.set(source, entry);
  if (cache.size > EXPRESSION_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  if (entry instanceof ExpressionError) throw entry;
  return entry;
}

function compileUncached(source: string): CompiledExpression {
  if (!source.trim()) throw failure(source, 'is empty');
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw failure(source, `is longer than ${formatNumber(MAX_EXPRESSION_LENGTH)} characters`);
  }
  const run = runtimeEnvironment.parse(source);
  const reads = new Set<string>();
  let nodeIds: Set<string> | 'all' = new Set();
  let macros = 0;

  const visit = (node: unknown, nesting: number, parent?: ASTNode): void => {
    if (Array.isArray(node)) return node.forEach((child) => visit(child, nesting, parent));
    if (!isAst(node)) return;
    if (node.op === 'id') {
      reads.add(node.args);
      if (node.args === 'nodes' && nodeIds !== 'all') {
        const key = parent && (parent.args as unknown[])[0] === node ? accessedKey(parent) : undefined;
        if (key === undefined) nodeIds = 'all';
        else nodeIds.add(key);
      }
      return;
    }
    if (node.op === 'rcall' || node.op === 'call') {
      const name = node.args[0];
      if (name === 'matches') {
        // JavaScript regular expressions can backtrack for minutes on a crafted input.
        throw failure(source, 'matches() is not available; use contains(), startsWith() or endsWith()');
      }
      if (node.op === 'rcall' && MACROS.has(name)) {
        macros += 1;
        if (macros > MAX_MACROS) throw failure(source, `uses more than ${MAX_MACROS} list functions`);
        if (nesting + 1 > MAX_MACRO_NESTING) {
          throw failure(source, `nests list functions more than ${MAX_MACRO_NESTING} deep`);
        }
        visit(node.args[1], nesting, node);
        visit(node.args[2], nesting + 1, node);
        return;
      }
    }
    visit(node.args, nesting, node);
  };
  visit(run.ast, 0);
  return { source, run, reads, nodeIds };
}

/** The literal key of `nodes.x` / `nodes["x"]`, if that is what `parent` is. */
function accessedKey(parent: ASTNode): string | undefined {
  if (parent.op === '.' || parent.op === '.?') return parent.args[1];
  if ((parent.op === '[]' || parent.op === '[?]') && parent.args[1].op === 'value') {
    const key = parent.args[1].args;
    return typeof key === 'string' ? key : undefined;
  }
  return undefined;
}

function isAst(value: unknown): value is ASTNode {
  return value !== null && typeof value === 'object' && 'op' in value && 'args' in value;
}

/** Compiles and type-checks; returns null when fine, else a readable reason (one line). */
export function checkExpression(source: string, scope: ExpressionScope): string | null {
  return checkTyped(source, scope).reason;
}

/** As checkExpression, and the result must be a bool (or dynamic, checked when it runs). */
export function checkCondition(source: string, scope: ExpressionScope): string | null {
  const { reason, type } = checkTyped(source, scope);
  if (reason) return reason;
  return !type || type === 'bool' || type === 'dyn' ? null : `gives ${article(type)}, not true or false`;
}

function checkTyped(source: string, scope: ExpressionScope): { reason: string | null; type?: string } {
  try {
    compileExpression(source);
  } catch (error) {
    return { reason: reasonOf(error) };
  }
  const { env, types } = scopeEnvironment(scope);
  const result = env.check(source);
  if (!result.valid) return { reason: describeError(result.error, 'check', types) };
  return { reason: null, type: result.type ?? 'dyn' };
}

const scopeCache = new Map<string, CheckEnvironment>();
const SCOPE_CACHE_SIZE = 32;

/** A save checks many expressions against a few scopes: their environments are reused. */
function scopeEnvironment(scope: ExpressionScope): CheckEnvironment {
  const key = JSON.stringify([scope.nodes, scope.vars, Boolean(scope.iteration), Boolean(scope.text)]);
  const hit = scopeCache.get(key);
  if (hit) return hit;
  const built = checkEnvironment(scope);
  scopeCache.set(key, built);
  if (scopeCache.size > SCOPE_CACHE_SIZE) scopeCache.delete(scopeCache.keys().next().value as string);
  return built;
}

/** Same for a template: every `{{ expr }}` inside; null when fine, else the first reason. */
export function checkTemplate(template: string, scope: ExpressionScope): string | null {
  const split = splitTemplate(template);
  if ('error' in split) return split.error;
  for (const part of split.parts) {
    if (!('expression' in part)) continue;
    const reason = checkExpression(part.expression, scope);
    if (reason) return `{{ ${shown(part.expression)} }}: ${reason}`;
  }
  return null;
}

/** The expressions inside a template, in order (for records and autocompletion). */
export function templateExpressions(template: string): string[] {
  const split = splitTemplate(template);
  if ('error' in split) return [];
  return split.parts.flatMap((part) => ('expression' in part ? [part.expression] : []));
}

/** Evaluates (compiled once per source and cached, bounded cache). Throws ExpressionError. */
export function evaluate(source: string, context: ExpressionContext): unknown {
  const compiled = compileExpression(source);
  return runAsJson(source, () => compiled.run(activation(compiled, context)), describeError);
}

/**
 * Runs a compiled expression (`run`) and answers its value as JSON; a failure is an ExpressionError
 * naming the source, its reason told by `describe` (graders word theirs their own way).
 */
export function runAsJson(
  source: string,
  run: () => unknown,
  describe: (error: unknown, phase: 'run') => string,
): unknown {
  let value: unknown;
  try {
    value = run();
  } catch (error) {
    throw failure(source, describe(error, 'run'));
  }
  try {
    return fromCel(value);
  } catch (error) {
    if (error instanceof ResultError) throw failure(source, error.message);
    throw error;
  }
}

/** Evaluates a condition: must give a bool, else ExpressionError ('… gave a string, not true or false'). */
export function evaluateCondition(source: string, context: ExpressionContext): boolean {
  const value = evaluate(source, context);
  if (typeof value !== 'boolean')
    throw failure(source, `gave ${article(describeKind(value))}, not true or false`);
  return value;
}

/**
 * Renders a template: a template that is exactly `{{ expr }}` (whitespace around allowed) keeps the
 * expression's type; otherwise a string where each value is inserted as text (strings as they are,
 * null as empty, numbers/bools as text, objects/lists as JSON). Throws ExpressionError.
 */
export function renderTemplate(template: string, context: ExpressionContext): unknown {
  const split = splitTemplate(template);
  if ('error' in split) throw new ExpressionError(split.error, { reason: split.error });
  const sole = soleExpression(split.parts);
  if (sole !== null) return evaluate(sole, context);
  return split.parts
    .map((part) => ('expression' in part ? asText(evaluate(part.expression, context)) : part.text))
    .join('');
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Only the parts of the context the expression reads enter CEL (converted by the number rule). */
function activation(compiled: CompiledExpression, context: ExpressionContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of compiled.reads) {
    if (name === 'nodes') {
      const nodes = context.nodes ?? {};
      const ids = compiled.nodeIds === 'all' ? Object.keys(nodes) : [...compiled.nodeIds];
      const picked: Record<string, unknown> = {};
      for (const id of ids) if (Object.hasOwn(nodes, id)) picked[id] = toCel(nodes[id]);
      out.nodes = picked;
    } else if (
      name === 'input' ||
      name === 'vars' ||
      name === 'run' ||
      name === 'item' ||
      name === 'index' ||
      name === 'last' ||
      name === 'text'
    ) {
      const value = context[name];
      if (value !== undefined) out[name] = toCel(value);
      else if (name === 'vars') out.vars = {};
      else if (name === 'input') out.input = null;
    }
  }
  return out;
}

function failure(source: string, reason: string): ExpressionError {
  return new ExpressionError(`${shown(source)} — ${reason}`, { expression: source, reason });
}

function reasonOf(error: unknown): string {
  if (error instanceof ExpressionError) return error.reason;
  return describeError(error, 'check');
}

/** The expression as a message shows it: one line, at most 200 characters. */
function shown(source: string): string {
  const line = source.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function article(kind: string): string {
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}
