// What the builder's expression fields (components/expression-field.tsx) work out as the user types,
// kept pure for tests: the scope of a node from the editor's draft, the path being typed and the
// paths that complete it, and the last run's context (docs/decisions/0040-cel-expressions.md).
import { stepNodeId, type Execution } from '@crewline/contracts';
import {
  expressionScopeOf,
  type ExpressionContext,
  type ExpressionPath,
  type ExpressionScope,
} from '@crewline/engine';

import type { BuilderEdge, BuilderNode } from './types';

/** How a field's text is read: one CEL expression, a condition (true or false), or a `{{ }}` template. */
export type ExpressionSyntax = 'expression' | 'condition' | 'template';

/** The scope of node `nodeId`'s expressions in the editor's current (possibly unsaved) graph. */
export function draftScope(
  nodes: readonly Pick<BuilderNode, 'id' | 'type' | 'data'>[],
  edges: readonly Pick<BuilderEdge, 'source' | 'target' | 'sourceHandle'>[],
  nodeId: string,
  iteration = false,
  /** The agents' own output schemas, for the agent steps that declare none. */
  agentOutputSchema?: (agentId: string) => Record<string, unknown> | undefined,
): ExpressionScope {
  return expressionScopeOf(
    {
      nodes: nodes.map((n) => ({ id: n.id, type: n.type ?? 'agent', data: n.data })),
      edges: edges.map((e) => ({ source: e.source, target: e.target, sourceHandle: e.sourceHandle })),
    },
    nodeId,
    { iteration, agentOutputSchema },
  );
}

/** The part of a path typed before the caret: `nodes.cl`, `nodes["agent-2"].co`, `vars.`. */
const PATH_TAIL = /[A-Za-z_]\w*(?:\.\w*|\["[^"\n]*"?\]?)*$/;
/** How far back a path is looked for (a long text is not scanned on every keystroke). */
const LOOKBACK = 300;

/** The path being typed at `caret` and where it starts; null outside an expression (a template's text). */
export function typedPath(
  text: string,
  caret: number,
  syntax: ExpressionSyntax,
): { token: string; from: number } | null {
  const before = text.slice(Math.max(0, caret - LOOKBACK), caret);
  if (syntax === 'template') {
    // Only inside the `{{ }}` the caret is in: the last `{{` before it, not closed before it.
    const open = before.lastIndexOf('{{');
    if (open < 0 || before.indexOf('}}', open) >= 0) return null;
  }
  const match = PATH_TAIL.exec(before);
  const token = match?.[0] ?? '';
  return { token, from: caret - token.length };
}

/** Most suggestions listed at once. */
const MAX_SUGGESTIONS = 50;

/** The paths that continue `token` (any case), the token itself left out; all of them for an empty token. */
export function matchingPaths(paths: readonly ExpressionPath[], token: string): ExpressionPath[] {
  const typed = token.toLowerCase();
  return paths
    .filter((p) => p.path.length > typed.length && p.path.toLowerCase().startsWith(typed))
    .slice(0, MAX_SUGGESTIONS);
}

/** The text with the typed path replaced by `path`, and where the caret goes (after it). */
export function insertPath(
  text: string,
  typed: { token: string; from: number },
  path: string,
): { text: string; caret: number } {
  const end = typed.from + typed.token.length;
  return { text: text.slice(0, typed.from) + path + text.slice(end), caret: typed.from + path.length };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the node's expressions read in `run` as the run gave it to them: its input, the upstream
 * nodes' results (of the scope: the draft's upstream, not every node the run had), the vars their
 * transforms set (farthest first, so the nearer value wins as in the run) and the run's facts.
 */
export function lastRunContext(
  run: Pick<Execution, 'id' | 'input' | 'output' | 'trigger' | 'startedAt' | 'createdAt'>,
  scope: ExpressionScope,
): ExpressionContext {
  const byNode = new Map<string, Execution['output'][string]>();
  for (const [stepId, output] of Object.entries(run.output)) {
    // A map's items, a loop's passes and delegations are steps of their own, not their node's result.
    if (stepNodeId(stepId, output) === stepId) byNode.set(stepId, output);
  }
  const nodes: ExpressionContext['nodes'] = {};
  const vars: Record<string, unknown> = {};
  for (const id of Object.keys(scope.nodes).reverse()) {
    const output = byNode.get(id);
    if (!output) continue;
    nodes[id] = { content: output.content, data: output.data ?? null, status: output.status ?? 'completed' };
    if (scope.nodes[id]?.kind === 'transform' && output.status !== 'skipped' && isRecord(output.data))
      Object.assign(vars, output.data);
  }
  return {
    input: run.input,
    nodes,
    vars,
    run: { id: run.id, trigger: run.trigger, startedAt: run.startedAt ?? run.createdAt },
  };
}

/** Longest value shown after "Last run:". */
const SHOWN_LENGTH = 120;

/** A value as the field shows it: strings as they are (quoted for an expression), the rest as JSON, cut short. */
export function shownValue(value: unknown, syntax: ExpressionSyntax): string {
  let text: string;
  if (value === undefined) text = 'nothing';
  else if (value === '') text = '""';
  else if (typeof value === 'string') text = syntax === 'template' ? value : JSON.stringify(value);
  else text = JSON.stringify(value) ?? String(value);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHOWN_LENGTH ? `${line.slice(0, SHOWN_LENGTH - 1)}…` : line;
}
