// Which step a running run is on, for its card: 'Step 2 of 3 · Analyst'. The card reads its run's
// state (lib/runs: the step events heard, by the workflow node each step ran);
// the planned steps come from the definition the run executes (the version it is pinned to) with the
// engine's own planning.
import { isNodeKind, nodeKinds, type NodeKind } from '@crewline/contracts';
import { sequentialOrder } from '@crewline/engine';

import { childStepOf, type StepsHeard } from '@/lib/runs/run-state';

type PlanNode = { id: string; type: NodeKind; data?: Record<string, unknown> };
type PlanGraph = { nodes: readonly PlanNode[]; edges: readonly { source: string; target: string }[] };

/**
 * What a run's stored outputs tell before any event is heard (a card shown mid-run, e.g. after a
 * reload): the nodes whose steps completed. A delegation's entry counts as its co-worker's node; a
 * map's item only says its map started (the map ends with its own entry).
 */
export function heardFromOutput(
  output: Readonly<Record<string, { metadata: { baseNodeId?: string } }>>,
): StepsHeard {
  const started = new Set<string>();
  const ended = new Set<string>();
  for (const [id, step] of Object.entries(output)) {
    const node = step.metadata.baseNodeId ?? id;
    started.add(node);
    // A `#n` entry may be an older delegation stored without `delegatedBy`: only items are sure.
    if (node === id || childStepOf(id, node)?.kind !== 'item') ended.add(node);
  }
  return { started: [...started], ended: [...started].filter((node) => ended.has(node)) };
}

/** The stored outputs' record with the events heard since on top. */
export function mergeHeard(stored: StepsHeard, events: StepsHeard): StepsHeard {
  const again = (id: string) => events.started.includes(id);
  return {
    started: [...stored.started.filter((id) => !again(id)), ...events.started],
    ended: [...stored.ended.filter((id) => !again(id)), ...events.ended],
  };
}

/**
 * The planned steps in the order the engine runs them: sequential and hierarchical runs follow the
 * edges from Start (a hierarchical lead first, then its co-workers); a parallel run starts every
 * agent node in the order they were placed.
 */
export function plannedSteps(
  processType: string | null,
  workflow: { nodes: readonly PlanNode[]; edges: readonly { source: string; target: string }[] },
): string[] {
  if (processType === 'parallel') return workflow.nodes.filter((n) => n.type === 'agent').map((n) => n.id);
  return sequentialOrder([...workflow.nodes], [...workflow.edges]);
}

/** The step a workflow node names: its label (an agent's name), else its kind's name ('Agent', 'Condition'). */
export function agentName(nodes: readonly PlanNode[], id: string): string {
  const node = nodes.find((n) => n.id === id);
  const label = node?.data?.label ?? node?.data?.name;
  if (typeof label === 'string' && label.trim()) return label.trim();
  return node && isNodeKind(node.type) ? nodeKinds[node.type].label : 'Agent';
}

/**
 * The card's line, or null before any step is heard or stored (or when the workflow is unknown).
 * Sequential and hierarchical: the step that started last and has not ended, numbered by its place in
 * the plan (a hierarchical lead is step 1 while no co-worker it delegated to is at work). Parallel:
 * the number of the next step to finish and every agent still at work: 'Step 2 of 3 · Analyst, Writer'.
 */
export function stepProgressLabel(
  processType: string | null,
  workflow: { nodes: readonly PlanNode[]; edges: readonly { source: string; target: string }[] } | undefined,
  heard: StepsHeard,
): string | null {
  if (!workflow || heard.started.length === 0) return null;
  const plan = plannedSteps(processType, workflow);
  if (plan.length === 0) return null;
  let running = heard.started.filter((id) => !heard.ended.includes(id) && plan.includes(id));
  if (running.length === 0) {
    // Between two steps, or known only from the stored outputs: the run is on the first planned step
    // not done yet (a parallel run on every one not done).
    const left = plan.filter((id) => !heard.ended.includes(id));
    if (left.length === 0) return null;
    running = processType === 'parallel' ? left : [left[0]];
  }
  if (processType === 'parallel') {
    const done = plan.filter((id) => heard.ended.includes(id)).length;
    const names = running.map((id) => agentName(workflow.nodes, id)).join(', ');
    return `Step ${Math.min(done + 1, plan.length)} of ${plan.length} · ${names}`;
  }
  const current = running[running.length - 1];
  return `Step ${plan.indexOf(current) + 1} of ${plan.length} · ${agentName(workflow.nodes, current)}`;
}

/** A definition the steps can be planned on, with its process type. */
export type RunPlan = PlanGraph & { processType: string | null };

/**
 * The definition a run's steps are counted and named on. A run executes the version it was pinned to
 * when it started, so an edit saved since (an agent added, removed or renamed) must not change its
 * count: the pinned version, once read. The workflow's current definition only stands in for a run
 * with no version (from before versions were kept) or whose version cannot be read; while the
 * version loads there is no plan, so a wrong count never shows first.
 */
export function runPlanOf(
  run: { workflowVersion: number | null; processType: string | null },
  pinned: { data?: RunPlan; failed: boolean },
  current: PlanGraph | undefined,
): RunPlan | undefined {
  if (run.workflowVersion !== null && pinned.data) return pinned.data;
  if (run.workflowVersion !== null && !pinned.failed) return undefined;
  return current && { ...current, processType: run.processType };
}
