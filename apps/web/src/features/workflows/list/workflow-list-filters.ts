// The workflows list's filters (docs/product-rules.md): search, status and process type.
import type { Workflow } from '@crewline/contracts';
import { processTypeValues } from '@crewline/contracts/vocabulary';

export const WORKFLOW_STATUS_OPTIONS = ['draft', 'active', 'paused', 'completed', 'failed'] as const;
export const PROCESS_TYPE_OPTIONS = processTypeValues;

type WorkflowStatusOption = (typeof WORKFLOW_STATUS_OPTIONS)[number];
type ProcessTypeOption = (typeof PROCESS_TYPE_OPTIONS)[number];

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
