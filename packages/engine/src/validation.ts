import { nodeKindValues, workflowMessages as m, type NodeKind, type WorkflowEdge } from '@crewline/contracts';
import { engineNodeKinds } from './node-kinds';
import { isValidCron, isValidTimezone } from './schedule';

export { stepName } from './step-name';

export type WorkflowDraft = {
  name: string;
  triggerType: 'manual' | 'schedule' | 'webhook' | 'email';
  triggerConfig: { cron?: string; timezone?: string; emailAddress?: string };
  nodes: {
    id: string;
    type: NodeKind;
    agentId?: string | null;
    data?: Record<string, unknown>;
  }[];
  edges: Pick<WorkflowEdge, 'source' | 'target'>[];
};

export type ValidationResult = { errors: string[]; warnings: string[] };

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export { isValidCron };

const label = (node: WorkflowDraft['nodes'][number]) =>
  typeof node.data?.label === 'string' && node.data.label ? node.data.label : node.id;

/**
 * The structural rules of a workflow, used by the server before saving and by the builder's
 * Validate button. Errors block saving; warnings are only reported.
 * `agentExists` says whether an agent id belongs to the workflow's organization.
 */
export function validateWorkflow(
  draft: WorkflowDraft,
  agentExists: (agentId: string) => boolean,
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
  // Each kind checks its own nodes (node-kinds/): a Start, an End, every agent step's agent.
  for (const kind of nodeKindValues) {
    const nodes = draft.nodes.filter((n) => n.type === kind);
    errors.push(...engineNodeKinds[kind].validate(nodes, { agentExists }));
  }
  const start = draft.nodes.find((n) => n.type === 'start');

  const ids = new Set(draft.nodes.map((n) => n.id));
  const edges = draft.edges.filter((e) => ids.has(e.source) && ids.has(e.target));
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);

  const connected = new Set(edges.flatMap((e) => [e.source, e.target]));
  for (const node of draft.nodes) if (!connected.has(node.id)) warnings.push(m.notConnected(label(node)));

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
