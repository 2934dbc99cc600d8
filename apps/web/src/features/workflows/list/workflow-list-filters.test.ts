import { describe, expect, it } from 'vitest';

import {
  DEFAULT_WORKFLOW_FILTERS,
  filterWorkflows,
  hasActiveFilters,
  type FilterableWorkflow,
} from './workflow-list-filters';

const workflows: (FilterableWorkflow & { id: string })[] = [
  {
    id: '1',
    name: 'Customer Support Triage',
    description: 'Routes tickets',
    status: 'draft',
    processType: 'sequential',
  },
  {
    id: '2',
    name: 'Research Crew',
    description: 'Market RESEARCH and summaries',
    status: 'active',
    processType: 'hierarchical',
  },
  { id: '3', name: 'Content Pipeline', description: null, status: 'paused', processType: 'parallel' },
  { id: '4', name: 'Nightly Report', status: 'failed', processType: 'sequential' },
];

const ids = (list: { id: string }[]) => list.map((item) => item.id);

describe('filterWorkflows', () => {
  it('returns everything with the default filters', () => {
    expect(ids(filterWorkflows(workflows, DEFAULT_WORKFLOW_FILTERS))).toEqual(['1', '2', '3', '4']);
  });

  it('searches name or description, case-insensitively, as a substring', () => {
    expect(ids(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, search: 'research' }))).toEqual([
      '2',
    ]);
    expect(ids(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, search: 'TICKETS' }))).toEqual([
      '1',
    ]);
    expect(ids(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, search: 'pipe' }))).toEqual(['3']);
    expect(ids(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, search: '  report ' }))).toEqual([
      '4',
    ]);
    expect(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, search: 'nothing like this' })).toEqual(
      [],
    );
  });

  it('treats a missing description as empty', () => {
    expect(ids(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, search: 'null' }))).toEqual([]);
  });

  it('matches status and process type exactly', () => {
    expect(ids(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, status: 'draft' }))).toEqual(['1']);
    expect(ids(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, status: 'completed' }))).toEqual([]);
    expect(
      ids(filterWorkflows(workflows, { ...DEFAULT_WORKFLOW_FILTERS, processType: 'sequential' })),
    ).toEqual(['1', '4']);
  });

  it('combines all three filters', () => {
    expect(
      ids(filterWorkflows(workflows, { search: 'n', status: 'failed', processType: 'sequential' })),
    ).toEqual(['4']);
    expect(filterWorkflows(workflows, { search: 'research', status: 'draft', processType: 'all' })).toEqual(
      [],
    );
  });
});

describe('hasActiveFilters', () => {
  it('is false for the defaults and for a blank search', () => {
    expect(hasActiveFilters(DEFAULT_WORKFLOW_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_WORKFLOW_FILTERS, search: '   ' })).toBe(false);
  });

  it('is true when any filter is set', () => {
    expect(hasActiveFilters({ ...DEFAULT_WORKFLOW_FILTERS, search: 'a' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_WORKFLOW_FILTERS, status: 'active' })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_WORKFLOW_FILTERS, processType: 'parallel' })).toBe(true);
  });
});
