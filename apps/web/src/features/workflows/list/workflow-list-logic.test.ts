import { describe, expect, it } from 'vitest';

import {
  activatedToast,
  agentCountLabel,
  countAgents,
  DEFAULT_WORKFLOW_FILTERS,
  deleteConfirmationText,
  executionWorkflowName,
  filterWorkflows,
  hasActiveFilters,
  latestExecutionOf,
  pauseMenuAction,
  primaryAction,
  readableOutputs,
  shortId,
  type FilterableWorkflow,
} from './workflow-list-logic';

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

describe('countAgents', () => {
  it('counts only nodes of type agent', () => {
    expect(countAgents([{ type: 'start' }, { type: 'agent' }, { type: 'agent' }, { type: 'end' }])).toBe(2);
  });

  it('is 0 for no nodes or a missing list', () => {
    expect(countAgents([])).toBe(0);
    expect(countAgents([{ type: 'start' }, { type: 'end' }])).toBe(0);
    expect(countAgents(undefined)).toBe(0);
    expect(countAgents(null)).toBe(0);
  });

  it('labels the count in singular or plural', () => {
    expect(agentCountLabel(0)).toBe('0 agents');
    expect(agentCountLabel(1)).toBe('1 agent');
    expect(agentCountLabel(2)).toBe('2 agents');
  });
});

describe('card rules', () => {
  it('offers Execute only where the server runs it, Resume on a paused workflow, else Activate', () => {
    const statuses = ['draft', 'active', 'paused', 'completed', 'failed'];
    expect(statuses.map((status) => [status, primaryAction(status)])).toEqual([
      ['draft', 'activate'],
      ['active', 'execute'],
      ['paused', 'resume'],
      ['completed', 'activate'],
      ['failed', 'activate'],
    ]);
    expect(statuses.map((status) => [status, pauseMenuAction(status)])).toEqual([
      ['draft', null],
      ['active', 'pause'],
      ['paused', 'resume'],
      ['completed', null],
      ['failed', null],
    ]);
  });

  it('finds the newest execution of a workflow by createdAt', () => {
    const executions = [
      { id: 'a', workflowId: 'w1', createdAt: '2026-01-01T10:00:00Z' },
      { id: 'b', workflowId: 'w1', createdAt: '2026-01-03T10:00:00Z' },
      { id: 'c', workflowId: 'w2', createdAt: '2026-01-05T10:00:00Z' },
      { id: 'd', workflowId: 'w1', createdAt: '2026-01-02T10:00:00Z' },
    ];
    expect(latestExecutionOf(executions, 'w1')?.id).toBe('b');
    expect(latestExecutionOf(executions, 'w2')?.id).toBe('c');
    expect(latestExecutionOf(executions, 'w3')).toBeNull();
    expect(latestExecutionOf(undefined, 'w1')).toBeNull();
  });

  it('shortens ids to 8 characters and names unknown workflows', () => {
    expect(shortId('0123456789abcdef')).toBe('01234567');
    expect(executionWorkflowName({ workflowId: 'w1', workflowName: 'Named' }, [])).toBe('Named');
    expect(
      executionWorkflowName({ workflowId: 'w1', workflowName: null }, [{ id: 'w1', name: 'From list' }]),
    ).toBe('From list');
    expect(executionWorkflowName({ workflowId: 'gone', workflowName: null }, [])).toBe('Unknown Workflow');
  });

  it('words the delete confirmation and the activation toast with the workflow name', () => {
    expect(deleteConfirmationText('Flow')).toBe(
      'Are you sure you want to delete "Flow"? This action cannot be undone and will remove all associated executions.',
    );
    expect(activatedToast('Flow')).toEqual({
      title: 'Workflow Activated',
      description: '"Flow" is now active and ready to execute',
    });
  });

  it('reads the steps that have text, with their agent and figures', () => {
    const usage = { promptTokens: 30, completionTokens: 12, totalTokens: 42 };
    const metadata = { agentName: 'Writer', role: 'Copywriter', model: 'gpt-4o' };
    expect(
      readableOutputs({
        n1: { content: 'Hello', metadata, executionTime: 120, usage },
        n2: { content: '   ', metadata, executionTime: 5, usage },
        n3: { content: 'Unnamed', metadata: { ...metadata, agentName: '' }, executionTime: 7, usage },
      }),
    ).toEqual([
      {
        nodeId: 'n1',
        content: 'Hello',
        agentName: 'Writer',
        role: 'Copywriter',
        model: 'gpt-4o',
        executionTime: 120,
        totalTokens: 42,
      },
      {
        nodeId: 'n3',
        content: 'Unnamed',
        agentName: 'Agent',
        role: 'Copywriter',
        model: 'gpt-4o',
        executionTime: 7,
        totalTokens: 42,
      },
    ]);
    expect(readableOutputs({})).toEqual([]);
  });
});
