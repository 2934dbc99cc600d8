// Pure rules of the workflows list page (spec part 1 §2, §3, §4, §5, §8, §9).
// No React, so the vitest 'web' project can test them directly.
import type { Execution, Workflow } from '@crewline/contracts';

/* ----------------------------------------------------------------------------------------------
 * Filters
 * -------------------------------------------------------------------------------------------- */

export const WORKFLOW_STATUS_OPTIONS = ['draft', 'active', 'paused', 'completed', 'failed'] as const;
export const PROCESS_TYPE_OPTIONS = ['sequential', 'hierarchical', 'parallel'] as const;

export type WorkflowStatusOption = (typeof WORKFLOW_STATUS_OPTIONS)[number];
export type ProcessTypeOption = (typeof PROCESS_TYPE_OPTIONS)[number];

/** 'all' disables a filter. */
export interface WorkflowFilters {
  search: string;
  status: 'all' | WorkflowStatusOption;
  processType: 'all' | ProcessTypeOption;
}

export const DEFAULT_WORKFLOW_FILTERS: WorkflowFilters = { search: '', status: 'all', processType: 'all' };

/** The fields the list filters look at. */
export type FilterableWorkflow = Pick<Workflow, 'name' | 'status' | 'processType'> & {
  description?: string | null;
};

/** True when the search has text or a select is not 'all' ('No workflows found' vs 'No workflows created yet'). */
export function hasActiveFilters(filters: WorkflowFilters): boolean {
  return filters.search.trim() !== '' || filters.status !== 'all' || filters.processType !== 'all';
}

/**
 * Search is a case-insensitive substring match on name or description; status and process type
 * are exact matches; 'all' disables a filter (spec part 1 §5).
 */
export function filterWorkflows<T extends FilterableWorkflow>(
  workflows: readonly T[],
  filters: WorkflowFilters,
): T[] {
  const needle = filters.search.trim().toLowerCase();
  return workflows.filter((workflow) => {
    if (needle) {
      const name = (workflow.name ?? '').toLowerCase();
      const description = (workflow.description ?? '').toLowerCase();
      if (!name.includes(needle) && !description.includes(needle)) return false;
    }
    if (filters.status !== 'all' && workflow.status !== filters.status) return false;
    if (filters.processType !== 'all' && workflow.processType !== filters.processType) return false;
    return true;
  });
}

/* ----------------------------------------------------------------------------------------------
 * Card
 * -------------------------------------------------------------------------------------------- */

/** Nodes of type 'agent' are the workflow's agents (spec part 1 §3). */
export function countAgents(nodes: readonly { type?: string | null }[] | null | undefined): number {
  if (!Array.isArray(nodes)) return 0;
  return nodes.filter((node) => node?.type === 'agent').length;
}

/** '1 agent', '2 agents', '0 agents'. */
export function agentCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'agent' : 'agents'}`;
}

/** Activate is offered only for drafts; any other status gets Execute (spec part 1 §2). */
export function primaryAction(status: string | null | undefined): 'activate' | 'execute' {
  return status === 'draft' ? 'activate' : 'execute';
}

/** The newest execution (by createdAt, descending) of a workflow, or null (spec part 1 §4). */
export function latestExecutionOf<T extends Pick<Execution, 'workflowId' | 'createdAt'>>(
  executions: readonly T[] | null | undefined,
  workflowId: string,
): T | null {
  let latest: T | null = null;
  let latestTime = -Infinity;
  for (const execution of executions ?? []) {
    if (execution.workflowId !== workflowId) continue;
    const time = Date.parse(execution.createdAt);
    const value = Number.isNaN(time) ? -Infinity : time;
    if (latest === null || value > latestTime) {
      latest = execution;
      latestTime = value;
    }
  }
  return latest;
}

/** Execution ids are shown truncated to 8 characters (spec part 1 §9). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/** The workflow name of an execution card, falling back to 'Unknown Workflow'. */
export function executionWorkflowName(
  execution: Pick<Execution, 'workflowId'> & { workflowName?: string | null },
  workflows: readonly Pick<Workflow, 'id' | 'name'>[] | null | undefined,
): string {
  if (execution.workflowName) return execution.workflowName;
  return workflows?.find((workflow) => workflow.id === execution.workflowId)?.name || 'Unknown Workflow';
}

/* ----------------------------------------------------------------------------------------------
 * Texts (spec part 1 §8)
 * -------------------------------------------------------------------------------------------- */

export function deleteConfirmationText(name: string): string {
  return `Are you sure you want to delete "${name}"? This action cannot be undone and will remove all associated executions.`;
}

export function activatedToast(name: string) {
  return { title: 'Workflow Activated', description: `"${name}" is now active and ready to execute` };
}

export const ACTIVATION_FAILED_TOAST = {
  variant: 'destructive',
  title: 'Activation Failed',
  description: 'Failed to activate workflow',
} as const;

export const DELETED_TOAST = {
  title: 'Workflow Deleted',
  description: 'Workflow has been deleted successfully',
} as const;

export const DELETE_FAILED_TOAST = {
  variant: 'destructive',
  title: 'Error',
  description: 'Failed to delete workflow',
} as const;

/* ----------------------------------------------------------------------------------------------
 * Execution details
 * -------------------------------------------------------------------------------------------- */

export interface ReadableOutput {
  nodeId: string;
  content: string;
  agentName: string;
  /** The agent's role and model when the step recorded them. */
  role: string | null;
  model: string | null;
  executionTime: number | null;
  totalTokens: number | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The per-node outputs of an execution that carry text content (output is keyed by node id; each
 * entry has content, metadata.agentName, executionTime in ms and usage.totalTokens).
 */
export function readableOutputs(output: unknown): ReadableOutput[] {
  if (!isRecord(output)) return [];
  const result: ReadableOutput[] = [];
  for (const [nodeId, entry] of Object.entries(output)) {
    if (!isRecord(entry) || typeof entry.content !== 'string' || entry.content.trim() === '') continue;
    const metadata = isRecord(entry.metadata) ? entry.metadata : {};
    const usage = isRecord(entry.usage) ? entry.usage : {};
    result.push({
      nodeId,
      content: entry.content,
      agentName: typeof metadata.agentName === 'string' && metadata.agentName ? metadata.agentName : 'Agent',
      role: typeof metadata.role === 'string' && metadata.role ? metadata.role : null,
      model: typeof metadata.model === 'string' && metadata.model ? metadata.model : null,
      executionTime: typeof entry.executionTime === 'number' ? entry.executionTime : null,
      totalTokens: typeof usage.totalTokens === 'number' ? usage.totalTokens : null,
    });
  }
  return result;
}
