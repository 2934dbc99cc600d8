// Pure rules of reviewing a run (docs/product-rules.md, "Run review"): its final result, the version
// badge, the steps a retry reused, each step's status on the version's graph, and Retry's toasts.
// No React, so the vitest 'web' project can test them directly.
import {
  ELSE_BRANCH,
  isNodeKind,
  nodeKinds,
  stepNodeId,
  type Execution,
  type WorkflowEdge,
  type WorkflowNode,
} from '@crewline/contracts';
import { sequentialOrder } from '@crewline/engine';

import type { GraphNodeStatus } from '@/components/workflow-graph/graph-elements';
import { edgePathMarks, type EdgePathMark } from '@/lib/runs/run-paths';
import {
  branchOf,
  childStepOf,
  itemProgress,
  itemsOfRead,
  mergeItems,
  type ItemProgress,
  type NodeItems,
} from '@/lib/runs/run-state';

import { shortId } from './execution-facts';

/**
 * 'v7': the workflow version a run executed; 'Draft' for an evaluation's run of a snapshot of the
 * working copy (a version below zero); null for runs from before versions existed.
 */
export function versionLabel(version: number | null | undefined): string | null {
  if (typeof version !== 'number') return null;
  return version > 0 ? `v${version}` : 'Draft';
}

/* ----------------------------------------------------------------------------------------------
 * The result
 * -------------------------------------------------------------------------------------------- */

export interface ResultEntry {
  key: string;
  /** The agent that wrote it (parallel runs); null for the single result of a sequential run. */
  agentName: string | null;
  text: string;
}

/**
 * The run's final result as the details show it first: one text, or for a parallel run one text per
 * agent (the result is keyed by node id; the name comes from that step's output). Empty texts are left out.
 */
export function resultEntries(
  result: Execution['result'] | undefined,
  output: Execution['output'],
): ResultEntry[] {
  if (typeof result === 'string')
    return result.trim() ? [{ key: 'result', agentName: null, text: result }] : [];
  if (!result) return [];
  return Object.entries(result)
    .filter(([, text]) => text.trim() !== '')
    .map(([nodeId, text]) => ({
      key: nodeId,
      agentName: output[nodeId]?.metadata.agentName || 'Agent',
      text,
    }));
}

/* ----------------------------------------------------------------------------------------------
 * Reused steps
 * -------------------------------------------------------------------------------------------- */

export interface ReusedStep {
  /** The run the output was taken from (its id), when the server said so. */
  from: string | null;
}

/** The steps of the output map that a retry reused (no model call), by step id. */
export function reusedSteps(output: Execution['output']): Record<string, ReusedStep> {
  const reused: Record<string, ReusedStep> = {};
  for (const [stepId, step] of Object.entries(output)) {
    if (step.metadata.reused === true) reused[stepId] = { from: step.metadata.reusedFrom || null };
  }
  return reused;
}

/** The reused badge's words: 'Reused from run 1a2b3c4d'. */
export function reusedFromLabel(step: ReusedStep): string {
  return step.from ? `Reused from run ${shortId(step.from)}` : 'Reused from an earlier run';
}

/* ----------------------------------------------------------------------------------------------
 * The version's graph
 * -------------------------------------------------------------------------------------------- */

type RunDefinition = { nodes: readonly WorkflowNode[]; edges: readonly WorkflowEdge[] };

/** Whether a node of this type runs as a step (agents, conditions, transforms, merges; not Start, End or notes). */
const isStepNode = (node: Pick<WorkflowNode, 'type'>) => isNodeKind(node.type) && nodeKinds[node.type].step;

/** Each condition node's branch taken in the run (a branch id, or `else`), from its stored output. */
export function runBranches(output: Execution['output']): Record<string, string> {
  const branches: Record<string, string> = {};
  for (const [stepId, step] of Object.entries(output)) {
    const branch = branchOf(step);
    if (branch !== undefined) branches[stepNodeId(stepId, step)] = branch;
  }
  return branches;
}

/** A condition's branch as people read it: its label (else its id), or 'Else'. */
export function branchLabel(node: Pick<WorkflowNode, 'data'> | undefined, branch: string): string {
  if (branch === ELSE_BRANCH) return 'Else';
  const branches = Array.isArray(node?.data?.branches) ? (node.data.branches as unknown[]) : [];
  const found = branches.find(
    (b): b is { id: string; label?: unknown } =>
      typeof b === 'object' && b !== null && (b as { id?: unknown }).id === branch,
  );
  return typeof found?.label === 'string' && found.label.trim() ? found.label.trim() : branch;
}

/**
 * Each step node's status in the run: steps in its output map are completed (or reused), or skipped
 * when their path was not taken (a map's items and a loop's passes count for their node's progress
 * only, never its status); a failed run's failing step is the one an error log names, else the
 * first missing step of a sequential run that a finished step leads to, else the only missing one; an
 * active sequential run is running that step, a waiting run waits at the step it names; every other
 * step did not run (yet). Nothing is derived
 * from the branches taken: a run read mid-way marks skipped only the steps stored as skipped.
 */
export function runNodeStatuses(
  execution: Pick<Execution, 'status' | 'processType' | 'output' | 'logs'> &
    Partial<Pick<Execution, 'waiting'>>,
  definition: RunDefinition,
): Record<string, GraphNodeStatus> {
  const steps = definition.nodes.filter(isStepNode).map((node) => node.id);
  const loops = new Set(definition.nodes.filter((node) => node.type === 'loop').map((node) => node.id));
  const reused = reusedSteps(execution.output);
  const statuses: Record<string, GraphNodeStatus> = {};
  for (const [stepId, step] of Object.entries(execution.output)) {
    const nodeId = stepNodeId(stepId, step);
    if (!steps.includes(nodeId)) continue;
    // A map's item or a loop's pass is its node's progress, not its status (its own entry is).
    const child = childStepOf(stepId, nodeId);
    if (child && (child.kind === 'item' || loops.has(nodeId))) continue;
    if (step.status === 'skipped') {
      statuses[nodeId] ??= 'skipped';
      continue;
    }
    // A node with a fresh step (e.g. a co-worker asked again) ran in this run.
    statuses[nodeId] = reused[stepId] && statuses[nodeId] !== 'completed' ? 'reused' : 'completed';
  }
  const missing = steps.filter((id) => !statuses[id]);
  const sequential = execution.processType === 'sequential';
  const branches = runBranches(execution.output);
  const firstMissingInOrder = () => {
    const order = sequentialOrder(
      definition.nodes.map((node) => ({ id: node.id, type: node.type })),
      definition.edges.map((edge) => ({ source: edge.source, target: edge.target })),
    ).filter((id) => !statuses[id]);
    // The step a finished one leads to (along the branch a condition took), not one on a path not taken.
    const marks = Object.fromEntries(
      Object.entries(statuses).map(([id, status]) => [id, { status, branch: branches[id] }]),
    );
    const paths = edgePathMarks(definition.edges, definition.nodes, {
      ...marks,
      ...Object.fromEntries(order.map((id) => [id, { status: 'running' }])),
    });
    const ready = new Set(
      definition.edges.filter((edge) => paths[edge.id] === 'taken').map((edge) => edge.target),
    );
    return order.find((id) => ready.has(id)) ?? order[0];
  };

  let current: { id: string; status: GraphNodeStatus } | null = null;
  if (execution.status === 'failed') {
    // The runner logs a failed step's error with the step's id (a delegation's is not a node's).
    const logged = execution.logs
      .filter((line) => line.level === 'error' && line.nodeId)
      .map((line) => line.nodeId!)
      .find((id) => missing.includes(id));
    const failed =
      logged ?? (sequential ? firstMissingInOrder() : missing.length === 1 ? missing[0] : undefined);
    if (failed) current = { id: failed, status: 'failed' };
  } else if (execution.status === 'waiting' && execution.waiting) {
    // A waiting run waits at the step it names (an approval, a delay).
    if (missing.includes(execution.waiting.nodeId))
      current = { id: execution.waiting.nodeId, status: 'waiting' };
  } else if (execution.status === 'running' && sequential) {
    const running = firstMissingInOrder();
    if (running) current = { id: running, status: 'running' };
  }
  for (const id of missing) statuses[id] = current?.id === id ? current.status : 'pending';
  return statuses;
}

/**
 * Each map's items done (of its total) and each loop's pass, by node id: what the run's live state
 * knows (its events, `live`) with what the read holds (itemsOfRead) added.
 */
export function runItemProgress(
  execution: Pick<Execution, 'output' | 'steps'>,
  live: Readonly<Record<string, NodeItems>> = {},
): Record<string, ItemProgress> {
  const items = mergeItems(live, itemsOfRead(execution));
  return Object.fromEntries(Object.entries(items).map(([id, node]) => [id, itemProgress(node)]));
}

/** The version's edges the run went along (taken) and those it did not (into or out of a skipped step, another branch). */
export function runEdgeMarks(
  statuses: Readonly<Record<string, GraphNodeStatus>>,
  branches: Readonly<Record<string, string>>,
  definition: RunDefinition,
): Record<string, EdgePathMark> {
  const marks = Object.fromEntries(
    Object.entries(statuses).map(([id, status]) => [id, { status, branch: branches[id] }]),
  );
  return edgePathMarks(definition.edges, definition.nodes, marks);
}

/* ----------------------------------------------------------------------------------------------
 * Retry
 * -------------------------------------------------------------------------------------------- */

/**
 * Only a failed or cancelled run can be retried, and only once (the server refuses the others): a run
 * already retried links to its retry instead, which can be retried in turn if it failed too.
 */
export function canRetry(execution: Pick<Execution, 'status' | 'retriedBy'>): boolean {
  return (execution.status === 'failed' || execution.status === 'cancelled') && !execution.retriedBy;
}

/** 'Retry from this step' needs the run's order of steps: sequential runs only. */
export function canRetryFromStep(
  execution: Pick<Execution, 'status' | 'processType' | 'retriedBy'>,
): boolean {
  return canRetry(execution) && execution.processType === 'sequential';
}

/**
 * 'Retry from this approval': a completed run's approval step that said no (rejected, or timed out)
 * can be asked again, once (the server refuses the others). The new run reuses the steps before it
 * and waits on a new approval.
 */
export function canRetryFromApproval(
  execution: Pick<Execution, 'status' | 'processType' | 'retriedBy' | 'output'>,
  nodeId: string,
): boolean {
  const step = execution.output[nodeId];
  if (execution.status !== 'completed' || execution.retriedBy || execution.processType !== 'sequential')
    return false;
  if (step?.kind !== 'approval' || step.status === 'skipped') return false;
  const decision = (step.data as { decision?: unknown } | null | undefined)?.decision;
  return decision === 'rejected' || decision === 'timeout';
}

/** The Error box's text: the step that failed and its error, 'Step "Summarize" failed: …', when known. */
export function runErrorText(execution: Pick<Execution, 'error' | 'failedStep'>): string | null {
  if (!execution.error) return null;
  return execution.failedStep ? `Step "${execution.failedStep}" failed: ${execution.error}` : execution.error;
}

/** The links between a retried run and its retry: 'Retried as run 1a2b3c4d' and 'Retry of run 1a2b3c4d'. */
export function retryLinks(execution: Pick<Execution, 'retryOf' | 'retriedBy'>): {
  retriedAs: { id: string; label: string } | null;
  retryOf: { id: string; label: string } | null;
} {
  return {
    retriedAs: execution.retriedBy
      ? { id: execution.retriedBy, label: `Retried as run #${shortId(execution.retriedBy)}` }
      : null,
    retryOf: execution.retryOf
      ? { id: execution.retryOf, label: `Retry of run #${shortId(execution.retryOf)}` }
      : null,
  };
}

export function retryStartedToast(workflowName: string, fromStep?: string | null) {
  return {
    title: 'Retry Started',
    description: fromStep
      ? `"${workflowName}" is running again from ${fromStep}; the steps before it are reused`
      : `"${workflowName}" is running again; the steps that completed are reused`,
  };
}

const RETRY_FAILED_DESCRIPTION = 'Failed to retry the execution';

/** The server's reason (a run that is not failed or cancelled, a step it does not know) when it gave one. */
export function retryFailedToast(serverMessage?: string | null) {
  return {
    variant: 'destructive',
    title: 'Retry Failed',
    description: serverMessage || RETRY_FAILED_DESCRIPTION,
  } as const;
}

/* ----------------------------------------------------------------------------------------------
 * Step order
 * -------------------------------------------------------------------------------------------- */

/**
 * The steps in the order they finished: the stored output map does not keep it (the database orders
 * an object's keys by length). Reused steps come first (they finished in the earlier run), then each
 * step by its first log line in this run; steps without one keep their place after those.
 */
export function inRunOrder<T extends { nodeId: string }>(
  steps: readonly T[],
  execution: Pick<Execution, 'output' | 'logs'>,
): T[] {
  const reused = reusedSteps(execution.output);
  const firstLog = new Map<string, number>();
  execution.logs.forEach((line, index) => {
    if (line.nodeId && !firstLog.has(line.nodeId)) firstLog.set(line.nodeId, index);
  });
  const rank = (step: T) =>
    reused[step.nodeId] ? -1 : (firstLog.get(step.nodeId) ?? Number.MAX_SAFE_INTEGER);
  return steps
    .map((step, index) => ({ step, index }))
    .sort((a, b) => rank(a.step) - rank(b.step) || a.index - b.index)
    .map(({ step }) => step);
}
