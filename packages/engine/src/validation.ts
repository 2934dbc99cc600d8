import { workflowMessages as m, type WorkflowEdge } from '@crewline/contracts';
import { nodeAgentId } from './plan';
import { isValidCron, isValidTimezone } from './schedule';

export type WorkflowDraft = {
  name: string;
  triggerType: 'manual' | 'schedule' | 'webhook' | 'email';
  triggerConfig: { cron?: string; timezone?: string; emailAddress?: string };
  nodes: {
    id: string;
    type: 'start' | 'end' | 'agent';
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

/** An agent step as the canvas shows it: its label, else its agent's name (never the node's id). */
export const stepName = (node: WorkflowDraft['nodes'][number]) => {
  const text = (key: string) =>
    typeof node.data?.[key] === 'string' ? (node.data[key] as string).trim() : '';
  return text('label') || text('name') || 'Untitled';
};

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
  const start = draft.nodes.find((n) => n.type === 'start');
  if (!start) errors.push(m.noStart);
  if (!draft.nodes.some((n) => n.type === 'end')) errors.push(m.noEnd);
  for (const node of draft.nodes) {
    if (node.type !== 'agent') continue;
    const agentId = nodeAgentId(node);
    // Named as the canvas names the step, never by ids: this text reaches the user (Execute, triggers).
    if (!agentId) errors.push(m.noAgent(stepName(node)));
    else if (!agentExists(agentId)) errors.push(m.deletedAgent(stepName(node)));
  }

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
