import {
  nodeKinds,
  nodeKindValues,
  workflowMessages as m,
  type NodeKind,
  type WorkflowEdge,
} from '@crewline/contracts';
import type { ExpressionScope } from './expressions';
import { workflowGraph } from './graph';
import { engineNodeKinds, nodeAgentId } from './node-kinds';
import { assignmentsOf } from './node-kinds/transform';
import { isValidCron, isValidTimezone } from './schedule';
import { nodeName } from './step-name';

export { stepName } from './step-name';

export type WorkflowDraft = {
  name: string;
  triggerType: 'manual' | 'schedule' | 'webhook' | 'email';
  /** Sequential when absent. */
  processType?: 'sequential' | 'hierarchical' | 'parallel';
  triggerConfig: { cron?: string; timezone?: string; emailAddress?: string };
  nodes: {
    id: string;
    type: NodeKind;
    agentId?: string | null;
    data?: Record<string, unknown>;
  }[];
  edges: Pick<WorkflowEdge, 'source' | 'target' | 'sourceHandle'>[];
};

export type ValidationResult = { errors: string[]; warnings: string[] };

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export { isValidCron };

const label = (node: WorkflowDraft['nodes'][number]) =>
  typeof node.data?.label === 'string' && node.data.label ? node.data.label : node.id;

/** What validation may also check, when the caller knows it (the server does; the builder in part). */
export type ValidationOptions = {
  /** Whether a tool id belongs to the organization; tools are not checked without it. */
  toolExists?: (toolId: string) => boolean;
  /**
   * Whether a workflow id belongs to the organization (a map or loop running another workflow);
   * such targets are not checked without it.
   */
  workflowExists?: (workflowId: string) => boolean;
  /** The id of the workflow being validated, once it has one: a map or loop may not run it. */
  workflowId?: string;
  /**
   * An agent's own output schema (its default), for the agent steps that declare none: expressions
   * over their data are then checked against it too. Without it, such data is not checked.
   */
  agentOutputSchema?: (agentId: string) => Record<string, unknown> | undefined;
};

/**
 * The structural rules of a workflow, used by the server before saving and by the builder's
 * Validate button. Errors block saving; warnings are only reported.
 * `agentExists` says whether an agent id belongs to the workflow's organization.
 */
export function validateWorkflow(
  draft: WorkflowDraft,
  agentExists: (agentId: string) => boolean,
  { toolExists, workflowExists, workflowId, agentOutputSchema }: ValidationOptions = {},
): ValidationResult {
  const errors: string[] = [];
  const warnings: string[] = [];

  if (!draft.name.trim()) errors.push(m.nameRequired);
  if (draft.triggerType === 'schedule') {
    if (!isValidCron(draft.triggerConfig.cron)) errors.push(m.cronRequired);
    const timezone = draft.triggerConfig.timezone?.trim();
    if (timezone && !isValidTimezone(timezone)) errors.push(m.unknownTimezone(timezone));
  }
  if (draft.triggerType === 'email' && !emailPattern.test(draft.triggerConfig.emailAddress?.trim() ?? '')) {
    errors.push(m.emailRequired);
  }
  // Each kind checks its own nodes (node-kinds/): a Start, an End, every agent step's agent, every
  // condition's else path, every expression against what is upstream of it.
  const processType = draft.processType ?? 'sequential';
  const graph = workflowGraph(draft.nodes, draft.edges, { unreachable: true });
  const ids = new Set(draft.nodes.map((n) => n.id));
  const edges = draft.edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  // Every edge leaving a node counts here, reachable or not: a condition's else path is its own rule.
  const leaving = new Map<string, typeof edges>();
  for (const e of edges) leaving.set(e.source, [...(leaving.get(e.source) ?? []), e]);
  const context = {
    agentExists,
    toolExists,
    workflowExists,
    workflowId,
    processType,
    outgoing: (nodeId: string) => leaving.get(nodeId) ?? [],
    scopeOf: (nodeId: string) => scopeOf(graph.upstream(nodeId), agentOutputSchema),
  };
  for (const kind of nodeKindValues) {
    const nodes = draft.nodes.filter((n) => n.type === kind);
    if (processType !== 'sequential' && nodeKinds[kind].sequentialOnly)
      errors.push(...nodes.map((n) => m.sequentialOnly(nodeKinds[kind].label, nodeName(n), processType)));
    errors.push(...engineNodeKinds[kind].validate(nodes, context));
  }
  const start = draft.nodes.find((n) => n.type === 'start');

  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);

  const connected = new Set(edges.flatMap((e) => [e.source, e.target]));
  // A note is text on the canvas: it is never connected, and never needs to be.
  for (const node of draft.nodes)
    if (!connected.has(node.id) && node.type !== 'note') warnings.push(m.notConnected(label(node)));

  if (
    hasCycle(
      draft.nodes.map((n) => n.id),
      next,
    )
  )
    warnings.push(m.cycles);

  if (start) {
    const reached = new Set([start.id]);
    const queue = [start.id];
    while (queue.length > 0) {
      for (const target of next.get(queue.shift()!) ?? []) {
        if (!reached.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    for (const node of draft.nodes) {
      if (!reached.has(node.id) && connected.has(node.id)) warnings.push(m.unreachable(label(node)));
    }
  }
  return { errors, warnings };
}

/**
 * What an expression of node `nodeId` may read, as the validation checks it: the steps upstream of it
 * (with their declared output schemas) and the vars they set. `iteration` is for the fields of a map's
 * or loop's body (its prompt, a loop's until), which also read item, index and last. The builder's
 * expression fields complete and check against it as they are typed.
 */
export function expressionScopeOf(
  draft: Pick<WorkflowDraft, 'nodes' | 'edges'>,
  nodeId: string,
  options: { iteration?: boolean } & Pick<ValidationOptions, 'agentOutputSchema'> = {},
): ExpressionScope {
  const upstream = workflowGraph(draft.nodes, draft.edges, { unreachable: true }).upstream(nodeId);
  const scope = scopeOf(upstream, options.agentOutputSchema);
  return options.iteration ? { ...scope, iteration: true } : scope;
}

/** What an expression may read: the steps upstream (with their declared output schemas) and the vars they set. */
function scopeOf(
  upstream: WorkflowDraft['nodes'],
  agentOutputSchema?: ValidationOptions['agentOutputSchema'],
): ExpressionScope {
  const nodes: ExpressionScope['nodes'] = {};
  const vars: string[] = [];
  for (const node of upstream) {
    if (node.type === 'start' || node.type === 'end' || node.type === 'note') continue;
    const agentId = node.type === 'agent' ? nodeAgentId(node) : undefined;
    // The node's own schema, else its agent's (the one its answers follow).
    const schema =
      node.type === 'agent'
        ? (node.data?.outputSchema ?? (agentId && agentOutputSchema?.(agentId)))
        : engineNodeKinds[node.type]?.outputSchema?.(node);
    nodes[node.id] = {
      kind: node.type,
      ...(schema && typeof schema === 'object' ? { outputSchema: schema as Record<string, unknown> } : {}),
    };
    if (node.type === 'transform') vars.push(...assignmentsOf(node.data).map((a) => a.name));
  }
  return { nodes, vars };
}

function hasCycle(nodes: string[], next: Map<string, string[]>): boolean {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string): boolean => {
    if (state.get(id) === 'visiting') return true;
    if (state.get(id) === 'done') return false;
    state.set(id, 'visiting');
    for (const target of next.get(id) ?? []) if (visit(target)) return true;
    state.set(id, 'done');
    return false;
  };
  return nodes.some((id) => visit(id));
}
