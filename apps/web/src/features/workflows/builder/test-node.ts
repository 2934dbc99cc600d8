// "Test this node" (docs/product-rules.md, Workflows that decide): the sample data the dialog starts
// from, reading what the user typed, and the result's figures. The dialog is components/test-node-dialog.tsx.
import { isStepKind, type NodeKind, type NodeTestContext, type NodeTestResult } from '@crewline/contracts';

type GraphNode = { id: string; type?: string };
type GraphEdge = { source: string; target: string };

/** The step nodes with a path into `nodeId`, nearest first: what its expressions may read as `nodes.<id>`. */
export function upstreamStepIds(nodeId: string, nodes: GraphNode[], edges: GraphEdge[]): string[] {
  const kinds = new Map(nodes.map((n) => [n.id, (n.type ?? 'agent') as NodeKind]));
  const seen = new Set([nodeId]);
  const found: string[] = [];
  const queue = [nodeId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const edge of edges) {
      if (edge.target !== id || seen.has(edge.source) || !kinds.has(edge.source)) continue;
      seen.add(edge.source);
      queue.push(edge.source);
      if (isStepKind(kinds.get(edge.source)!)) found.push(edge.source);
    }
  }
  return found;
}

/** Sample data to start from: the run's input, each upstream step's answer, the transforms' vars. */
export function sampleFor(nodeId: string, nodes: GraphNode[], edges: GraphEdge[]): string {
  const upstream = upstreamStepIds(nodeId, nodes, edges).reverse();
  const sample = {
    input: {},
    nodes: Object.fromEntries(upstream.map((id) => [id, { content: '', data: null }])),
    vars: {},
  };
  return JSON.stringify(sample, null, 2);
}

/** What the user typed as sample data: the context to send, or why it cannot be sent. */
export function readSample(text: string): { context: NodeTestContext } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'Sample data is an object: { "input": …, "nodes": { … }, "vars": { … } }' };
  const { nodes, vars } = value as Record<string, unknown>;
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (nodes !== undefined && !isObject(nodes))
    return { error: '"nodes" is an object of node ids: { "classify": { "content": …, "data": … } }' };
  if (vars !== undefined && !isObject(vars)) return { error: '"vars" is an object of names and values' };
  for (const [id, entry] of Object.entries((nodes ?? {}) as Record<string, unknown>))
    if (!isObject(entry)) return { error: `"nodes.${id}" is an object: { "content": …, "data": … }` };
  return { context: value as NodeTestContext };
}

/** The result's figures: '1,234 tokens · 1.2 s'. */
export function resultFigures(result: NodeTestResult): string {
  const time =
    result.durationMs < 1000
      ? `${Math.round(result.durationMs)} ms`
      : `${(result.durationMs / 1000).toFixed(1)} s`;
  if (result.status === 'failed') return time;
  const tokens = result.usage.totalTokens;
  return `${tokens.toLocaleString('en-US')} token${tokens === 1 ? '' : 's'} · ${time}`;
}
