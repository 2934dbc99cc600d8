import { AGENT_BLOCKED_PATH, isStepKind, type NodeOutput } from '@crewline/contracts';
import { noStep, WorkflowRunError } from './errors';
import { workflowGraph } from './graph';
import { engineNodeKinds, type StepTask } from './node-kinds';
import { buildUserPrompt, type PromptInput } from './prompt';
import { nodeName } from './step-name';
import type { RunDefinition, StepAsk } from './run-workflow';

type Edge = RunDefinition['edges'][number];

/**
 * A sequential run walks the graph (docs/architecture.md, Runs): a node runs once every path into
 * it is resolved — taken and finished, or skipped — and at least one was taken (a merge in `first`
 * mode as soon as one is taken); when none was, it is skipped, and so is what lies only beyond it.
 * A condition takes the path of its chosen branch and no other. Steps run one at a time, in the
 * order they became ready (breadth-first from the start, as a line of agents always ran). The run's
 * answer is the last finished step's that speaks (not a condition's or a transform's).
 */
export async function runGraph(
  definition: RunDefinition,
  run: {
    base: PromptInput;
    step(nodeId: string, baseNodeId: string, ask: StepAsk): Promise<NodeOutput>;
    skip(nodeId: string): Promise<void>;
    output: Record<string, NodeOutput>;
  },
): Promise<string> {
  const graph = workflowGraph(definition.nodes, definition.edges);
  const { byId } = graph;
  const { output } = run;
  const state = new Map<string, 'queued' | 'done' | 'skipped'>();
  const queue: string[] = [];
  /** Each node's place in the order nodes finished: a step's inputs come in that order. */
  const finished = new Map<string, number>();
  const kindOf = (id: string) => engineNodeKinds[byId.get(id)!.type];

  const edgeState = (edge: Edge): 'taken' | 'dead' | 'open' => {
    const source = state.get(edge.source);
    if (source === 'skipped') return 'dead';
    if (source !== 'done') return 'open';
    const takes = kindOf(edge.source).takes;
    return !takes || takes(output[edge.source], edge.sourceHandle) ? 'taken' : 'dead';
  };

  /** Skips what can no longer be reached, and queues what is ready. */
  const consider = async (id: string): Promise<void> => {
    if (state.has(id)) return;
    const states = graph.incoming(id).map(edgeState);
    const taken = states.includes('taken');
    const resolved = !states.includes('open');
    const waitsForAll = kindOf(id).waitsForAll?.(byId.get(id)!) ?? true;
    if (taken && (resolved || !waitsForAll)) {
      state.set(id, 'queued');
      queue.push(id);
    } else if (resolved && !taken) {
      state.set(id, 'skipped');
      if (isStepKind(byId.get(id)!.type)) await run.skip(id);
      await leave(id);
    }
  };
  const leave = async (id: string) => {
    for (const edge of graph.outgoing(id)) await consider(edge.target);
  };

  /**
   * The finished steps whose answers a step receives, in the order they finished: on its taken
   * paths, through the kinds that relay theirs.
   */
  const inputsOf = (id: string, seen = new Set<string>()): StepTask['inputs'] => {
    const sources = graph
      .incoming(id)
      .filter((e) => edgeState(e) === 'taken')
      .map((e) => e.source);
    return sources
      .flatMap((source) => stepInputs(source, seen))
      .sort((a, b) => finished.get(a.nodeId)! - finished.get(b.nodeId)!);
  };
  const stepInputs = (source: string, seen: Set<string>): StepTask['inputs'] => {
    if (seen.has(source) || !output[source]) return [];
    seen.add(source);
    const relays = kindOf(source).relays?.(output[source]);
    if (relays === 'incoming') return inputsOf(source, seen);
    if (relays) return relays.flatMap((id) => stepInputs(id, seen));
    return [{ nodeId: source, output: output[source] }];
  };

  const steps = definition.nodes.filter((n) => isStepKind(n.type));
  const first = graph.start
    ? [graph.start.id]
    : steps.filter((n) => graph.incoming(n.id).length === 0).map((n) => n.id);
  if (!steps.some((n) => !graph.start || graph.reachable.has(n.id))) throw new WorkflowRunError(noStep);

  let answer = '';
  // What the default messages show as the run's input: a guardrail that screened it (one with no
  // target and no step before it) hands on its text, redacted where it redacts, instead.
  let base = run.base;
  const screens = new Set<string>();
  for (const id of first) {
    if (byId.get(id)!.type === 'start') {
      state.set(id, 'done');
      await leave(id);
    } else {
      state.set(id, 'queued');
      queue.push(id);
    }
  }
  while (queue.length > 0) {
    const id = queue.shift()!;
    const node = byId.get(id)!;
    if (isStepKind(node.type)) {
      // The answers on its taken paths: what its default message says came before it.
      const inputs = inputsOf(id);
      const context = inputs
        .filter((i) => i.output.content && !screens.has(i.nodeId))
        .map((i) => ({
          agentName: i.output.metadata.agentName ?? nodeName(byId.get(i.nodeId)!),
          content: i.output.content,
        }));
      // An agent with a Blocked path goes on along it when its guardrails block.
      const routesBlocks = graph.outgoing(id).some((e) => e.sourceHandle === AGENT_BLOCKED_PATH);
      const result = await run.step(id, id, {
        user: buildUserPrompt({ ...base, context }),
        inputs,
        ...(routesBlocks ? { extra: { routesBlocks } } : {}),
      });
      if (kindOf(id).relays?.(result) !== 'incoming') answer = result.content;
      if (kindOf(id).screensInput?.(node, inputs.length > 0)) {
        base = { ...base, input: result.content };
        screens.add(id);
      }
    }
    state.set(id, 'done');
    finished.set(id, finished.size);
    await leave(id);
  }
  return answer;
}
