// Pure rules of the workflows list page (docs/product-rules.md).
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
 * are exact matches; 'all' disables a filter.
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

/** Nodes of type 'agent' are the workflow's agents. */
export function countAgents(nodes: readonly { type?: string | null }[] | null | undefined): number {
  if (!Array.isArray(nodes)) return 0;
  return nodes.filter((node) => node?.type === 'agent').length;
}

/** '1 agent', '2 agents', '0 agents'. */
export function agentCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'agent' : 'agents'}`;
}

/**
 * The card's main button, offered only where the server will do it: Execute for an active workflow
 * (the server runs no other), Resume for a paused one, Activate for the rest (draft, completed, failed).
 */
export function primaryAction(status: string | null | undefined): 'activate' | 'execute' | 'resume' {
  if (status === 'active') return 'execute';
  if (status === 'paused') return 'resume';
  return 'activate';
}

/** The card menu's Pause (active) or Resume (paused); the server allows no other way in or out of paused. */
export function pauseMenuAction(status: string | null | undefined): 'pause' | 'resume' | null {
  if (status === 'active') return 'pause';
  if (status === 'paused') return 'resume';
  return null;
}

/** The newest execution (by createdAt, descending) of a workflow, or null: the card's Last Result. */
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

/** Execution ids are shown truncated to 8 characters. */
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
 * Texts
 * -------------------------------------------------------------------------------------------- */

export function deleteConfirmationText(name: string): string {
  return `Are you sure you want to delete "${name}"? This action cannot be undone and will remove all associated executions.`;
}

export function activatedToast(name: string) {
  return { title: 'Workflow Activated', description: `"${name}" is now active and ready to execute` };
}

export function pausedToast(name: string) {
  return { title: 'Workflow Paused', description: `"${name}" is paused: its triggers will not start runs` };
}

export function resumedToast(name: string) {
  return { title: 'Workflow Resumed', description: `"${name}" is active again` };
}

export const PAUSE_FAILED_TOAST = {
  variant: 'destructive',
  title: 'Pause Failed',
  description: 'Failed to pause workflow',
} as const;

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
  role: string;
  model: string;
  executionTime: number;
  totalTokens: number;
}

/** The steps of a run's output map that have text to show, each with its agent and figures. */
export function readableOutputs(output: Execution['output']): ReadableOutput[] {
  return Object.entries(output)
    .filter(([, step]) => step.content.trim() !== '')
    .map(([nodeId, step]) => ({
      nodeId,
      content: step.content,
      agentName: step.metadata.agentName || 'Agent',
      role: step.metadata.role,
      model: step.metadata.model,
      executionTime: step.executionTime,
      totalTokens: step.usage.totalTokens,
    }));
}
