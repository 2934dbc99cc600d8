import {
  isStepKind,
  NODE_TEST_ITEMS,
  nodeKinds,
  type EvaluationRecord,
  type NodeOutput,
  type TokenUsage,
} from '@crewline/contracts';
import type { ExpressionContext } from './expressions';
import { workflowGraph } from './graph';
import { engineNodeKinds, type StepTask } from './node-kinds';
import { buildUserPrompt, inputText } from './prompt';
import { addUsage, noUsage } from './usage';
import type { RunDefinition, RunPorts, StepRef } from './run-workflow';
import { nodeName } from './step-name';

/** What a tested node reads: what its expressions read in a run, as far as the test knows it. */
export type NodeTestContext = {
  input: unknown;
  nodes: ExpressionContext['nodes'];
  vars: Record<string, unknown>;
  /** What expressions read as `run`; a test that names none reads an empty id, `manual`, now. */
  run?: ExpressionContext['run'];
};

export type NodeTest = {
  /** The workflow the node is tested in (the builder's copy of the node already in it), with its agents. */
  definition: RunDefinition;
  nodeId: string;
  context: NodeTestContext;
  /** What the run that gave the context was started with (an agent's default message shows them). */
  instructions?: string | null;
  parameters?: Record<string, unknown>;
};

export type NodeTestResult =
  | {
      status: 'completed';
      content: string;
      data: unknown;
      evaluation?: EvaluationRecord;
      /** The node's tokens, its map items' or loop passes' included. */
      usage: TokenUsage;
      durationMs: number;
      /** What the test left out (a map's items past the first few). */
      note?: string;
    }
  | { status: 'failed'; error: string; durationMs: number };

export type NodeTestPorts = Pick<
  RunPorts,
  'callAgent' | 'callTool' | 'runCode' | 'guard' | 'runWorkflow' | 'stops' | 'now'
> & {
  /** The failure as the user reads it (the run's Error box words); the error's message without it. */
  readable?(error: unknown): string;
};

/** A node that cannot be tested: there is none with that id, or it is not a step (Start, End, Note). */
export class NodeTestRefused extends Error {
  constructor(
    readonly reason: 'unknown' | 'not-step',
    message: string,
  ) {
    super(message);
  }
}

/** A node's entry in the context as the output a kind's `takes` and `relays` read. */
const outputOf = (entry: ExpressionContext['nodes'][string], kind: NodeOutput['kind']): NodeOutput => ({
  content: entry.content,
  metadata: {},
  executionTime: 0,
  usage: noUsage,
  kind,
  data: entry.data,
  status: entry.status === 'failed' || entry.status === 'skipped' ? entry.status : 'completed',
});

/**
 * The finished steps whose answers the node receives, as a run would hand them (run-graph.ts): on the
 * paths the context says were taken, through the kinds that relay theirs, in the order a run reaches them.
 */
function inputsFromContext(definition: RunDefinition, nodeId: string, context: NodeTestContext) {
  const graph = workflowGraph(definition.nodes, definition.edges);
  const found = new Map<string, StepTask['inputs'][number]>();
  const seen = new Set<string>();
  const visit = (id: string) => {
    for (const edge of graph.incoming(id)) {
      const source = graph.byId.get(edge.source)!;
      if (seen.has(source.id)) continue;
      const kind = engineNodeKinds[source.type];
      const entry = context.nodes[source.id];
      if (!entry) {
        // Sample data may leave out a condition or transform: the answers before it still reach the node.
        const passing = kind.relays?.(
          outputOf({ content: '', data: null, status: 'completed' }, source.type),
        );
        seen.add(source.id);
        if (passing === 'incoming') visit(source.id);
        continue;
      }
      const output = outputOf(entry, source.type);
      if (output.status !== 'completed') continue;
      if (kind.takes && !kind.takes(output, edge.sourceHandle)) continue;
      seen.add(source.id);
      const relays = kind.relays?.(output);
      if (relays === 'incoming') visit(source.id);
      else if (relays) {
        for (const relayed of relays) {
          const other = context.nodes[relayed];
          const node = graph.byId.get(relayed);
          if (other && node) found.set(relayed, { nodeId: relayed, output: outputOf(other, node.type) });
        }
      } else found.set(source.id, { nodeId: source.id, output });
    }
  };
  visit(nodeId);
  const order = graph
    .upstream(nodeId)
    .map((n) => n.id)
    .reverse();
  return [...found.values()].sort((a, b) => order.indexOf(a.nodeId) - order.indexOf(b.nodeId));
}

/**
 * What the node would read from a run that finished everything upstream of it (its newest run): the
 * run's input, the upstream nodes' outputs and the values upstream transforms set; not what ran after it.
 */
export function contextFromRun(
  definition: RunDefinition,
  nodeId: string,
  run: { input: unknown; output: Record<string, NodeOutput>; run?: ExpressionContext['run'] },
): NodeTestContext {
  const upstream = workflowGraph(definition.nodes, definition.edges).upstream(nodeId);
  const nodes: NodeTestContext['nodes'] = {};
  const vars: Record<string, unknown> = {};
  // Farthest first, so a nearer transform's value wins as it would in the run.
  for (const node of [...upstream].reverse()) {
    const output = run.output[node.id];
    if (!output) continue;
    nodes[node.id] = {
      content: output.content,
      data: output.data ?? null,
      status: output.status ?? 'completed',
    };
    if (output.status !== 'skipped') Object.assign(vars, engineNodeKinds[node.type].sets?.(output));
  }
  return { input: run.input, nodes, vars, ...(run.run ? { run: run.run } : {}) };
}

/** What a test left out: a map's items past the first few, a loop's passes past the first few. */
function leftOut(kind: NodeOutput['kind'], done: { data?: unknown; evaluation?: EvaluationRecord }) {
  const ran = Array.isArray(done.data) ? done.data.length : 0;
  if (kind === 'map') {
    const total = done.evaluation?.evaluated.find((e) => e.name === 'items')?.value;
    if (typeof total === 'number' && total > ran)
      return { note: `Tested on the first ${ran} of ${total} items` };
  }
  if (kind === 'loop' && ran === NODE_TEST_ITEMS && done.evaluation?.evaluated.at(-1)?.value === false)
    return { note: `Tested on the first ${NODE_TEST_ITEMS} passes; a run goes on until its condition holds` };
  return undefined;
}

/**
 * Runs one step node outside a run ("Test this node", docs/product-rules.md): its kind's executor
 * with the run's ports and the given context, but no events and nothing stored; its children (a
 * map's items, a loop's passes) run directly. A map or a loop runs only its first NODE_TEST_ITEMS
 * items or passes, and says so. A failure of the node is a `failed` result; an error that `stops` says stops runs
 * (the database away) is thrown, as is a node that cannot be tested (NodeTestRefused).
 */
export async function testNode(test: NodeTest, ports: NodeTestPorts): Promise<NodeTestResult> {
  const { definition, nodeId, context } = test;
  const node = definition.nodes.find((n) => n.id === nodeId);
  if (!node) throw new NodeTestRefused('unknown', `There is no node "${nodeId}" in this workflow`);
  const executor = engineNodeKinds[node.type].executor;
  if (!isStepKind(node.type) || !executor)
    throw new NodeTestRefused(
      'not-step',
      `Only steps can be tested: ${nodeKinds[node.type].label} nodes never run as steps`,
    );

  const started = ports.now();
  const failed = (error: unknown): NodeTestResult => {
    if (ports.stops?.(error)) throw error;
    const message = ports.readable
      ? ports.readable(error)
      : error instanceof Error
        ? error.message
        : String(error);
    return { status: 'failed', error: message, durationMs: Math.max(0, ports.now() - started) };
  };

  try {
    const { agentId = null, agent } = executor.agentOf?.(node, definition.agents) ?? {};
    const inputs = inputsFromContext(definition, nodeId, context);
    const expressions: ExpressionContext = {
      input: context.input,
      nodes: context.nodes,
      vars: context.vars,
      run: context.run ?? { id: '', trigger: 'manual', startedAt: new Date(started).toISOString() },
    };
    let childUsage = noUsage;
    const step: StepRef = { nodeId, baseNodeId: nodeId, agentId, kind: node.type };
    const task: StepTask = {
      step,
      node,
      agent,
      user: buildUserPrompt({
        input: inputText(context.input),
        instructions: test.instructions,
        parameters: test.parameters,
        context: inputs
          .filter((i) => i.output.content)
          .map((i) => {
            const from = definition.nodes.find((n) => n.id === i.nodeId);
            return {
              agentName: i.output.metadata.agentName ?? (from ? nodeName(from) : i.nodeId),
              content: i.output.content,
            };
          }),
      }),
      expressions,
      inputs,
      run: {
        agentById: (id) => definition.agents[id],
        limit: NODE_TEST_ITEMS,
        async child(parent, childId, ref, work) {
          const childStarted = ports.now();
          const done = await work({ nodeId: childId, baseNodeId: parent.baseNodeId, ...ref });
          childUsage = addUsage(childUsage, done.usage);
          return {
            content: done.content,
            metadata: done.metadata,
            executionTime: Math.max(0, ports.now() - childStarted),
            usage: done.usage,
            kind: ref.kind,
            ...(done.data !== undefined ? { data: done.data } : {}),
            status: 'completed',
          };
        },
      },
    };
    const done = await executor.execute(task, ports);
    return {
      status: 'completed',
      content: done.content,
      data: done.data ?? null,
      ...(done.evaluation ? { evaluation: done.evaluation } : {}),
      usage: addUsage(done.usage, childUsage),
      durationMs: Math.max(0, ports.now() - started),
      ...(leftOut(node.type, done) ?? {}),
    };
  } catch (error) {
    return failed(error);
  }
}
