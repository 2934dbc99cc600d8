// The CEL of graders' targets (evaluations, issue 39): what a grader reads of a finished run. Same
// library, limits and value conversions as the workflows' expressions
// (docs/decisions/0040-cel-expressions.md), in an environment of its own: a run's result, a case's
// expected answer and a node's data are any JSON, where a step's `run` is three strings.
import type { ParseResult } from '@marcbachmann/cel-js';
import { base } from './environment';
import { compileExpression, runAsJson } from './expressions';
import { describeError } from './reasons';
import { ExpressionError } from './types';
import { toCel } from './values';

/** What a grader's target reads: the finished run, its steps, its input and the dataset's case. */
export type GradingContext = {
  run: {
    id: string;
    status: string;
    /** The run's answer (what the result table shows as the output). */
    result: unknown;
    output: Record<string, unknown>;
    input: Record<string, unknown>;
    costUsd: number | null;
    durationMs: number | null;
    error: string | null;
  };
  /** Finished steps by node id. */
  nodes: Record<string, { content: string; data: unknown; status: string }>;
  /** What the run started with (the case's input). */
  input: Record<string, unknown>;
  /** The dataset's case. */
  item: { input: Record<string, unknown>; expected: unknown; tags: string[] };
};

/** The names a target may read. */
const GRADING_NAMES = ['run', 'nodes', 'input', 'item'] as const;
type GradingName = (typeof GRADING_NAMES)[number];

/** Checks and runs targets: everything is dynamic, so `run.result.items[0].price > 2` checks whatever the run answered. */
const gradingEnvironment = base
  .clone()
  .registerVariable('run', 'dyn')
  .registerVariable('nodes', 'map<string, dyn>')
  .registerVariable('input', 'dyn')
  .registerVariable('item', 'dyn');

/** Compiled targets kept (least recently used dropped first): an eval run grades every item with the same few. */
const GRADER_TARGET_CACHE_SIZE = 200;

type CompiledTarget = {
  readonly run: ParseResult;
  /** Root names it reads (and the list functions' own variables). */
  readonly reads: ReadonlySet<string>;
  /** The node ids it reads, or 'all'. */
  readonly nodeIds: ReadonlySet<string> | 'all';
};

const cache = new Map<string, CompiledTarget | ExpressionError>();

function compileTarget(source: string): CompiledTarget {
  const hit = cache.get(source);
  if (hit !== undefined) {
    cache.delete(source);
    cache.set(source, hit);
    if (hit instanceof ExpressionError) throw hit;
    return hit;
  }
  let entry: CompiledTarget | ExpressionError;
  try {
    // The workflows' compilation applies the limits (length, size, list functions, no matches())
    // and finds what the target reads; the graders' environment parses what runs.
    const { reads, nodeIds } = compileExpression(source);
    entry = { run: gradingEnvironment.parse(source), reads, nodeIds };
  } catch (error) {
    entry = error instanceof ExpressionError ? error : failure(source, describe(error, 'check'));
  }
  cache.set(source, entry);
  if (cache.size > GRADER_TARGET_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  if (entry instanceof ExpressionError) throw entry;
  return entry;
}

/** Compiles and type-checks a grader's target: null when fine, else the reason a user reads (one line). */
export function checkGraderTarget(source: string): string | null {
  try {
    compileTarget(source);
  } catch (error) {
    return error instanceof ExpressionError ? error.reason : describe(error, 'check');
  }
  const result = gradingEnvironment.check(source);
  return result.valid ? null : describe(result.error, 'check');
}

/** The target's value for one graded run, as JSON. Throws ExpressionError (the target, then why). */
export function evaluateGraderTarget(source: string, context: GradingContext): unknown {
  const compiled = compileTarget(source);
  return runAsJson(source, () => compiled.run(activation(compiled, context)), describe);
}

/** Only what the target reads enters CEL (converted by the number rule). */
function activation(compiled: CompiledTarget, context: GradingContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of compiled.reads) {
    if (name === 'nodes') {
      const nodes = context.nodes ?? {};
      const ids = compiled.nodeIds === 'all' ? Object.keys(nodes) : [...compiled.nodeIds];
      const picked: Record<string, unknown> = {};
      for (const id of ids) if (Object.hasOwn(nodes, id)) picked[id] = toCel(nodes[id]);
      out.nodes = picked;
    } else if (isGradingName(name)) {
      out[name] = toCel(context[name] ?? null);
    }
  }
  return out;
}

function isGradingName(name: string): name is Exclude<GradingName, 'nodes'> {
  return (GRADING_NAMES as readonly string[]).includes(name);
}

/** The workflows' wording, with what a grader (not a step) can read. */
function describe(error: unknown, phase: 'check' | 'run'): string {
  const e = (error ?? {}) as { code?: string; summary?: string; message?: string };
  if (e.code === 'unknown_variable') {
    const name = (e.summary ?? e.message ?? '').split('\n')[0].replace(/^Unknown variable:\s*/, '');
    return `unknown name "${name.trim()}" (a grader reads run, nodes, input and item)`;
  }
  return describeError(error, phase).replace(' (it did not run before this step)', '');
}

function failure(source: string, reason: string): ExpressionError {
  const line = source.replace(/\s+/g, ' ').trim();
  const shown = line.length > 200 ? `${line.slice(0, 199)}…` : line;
  return new ExpressionError(`${shown} — ${reason}`, { expression: source, reason });
}
