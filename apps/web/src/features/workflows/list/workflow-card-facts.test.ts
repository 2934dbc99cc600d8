import { describe, expect, it } from 'vitest';

import { agentCountLabel, countAgents, latestExecutionOf } from './workflow-card-facts';

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

describe('last result', () => {
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
});
