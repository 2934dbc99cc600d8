import type { Execution, ExecutionSummary } from '@crewline/contracts';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';

import {
  executionPlaceholder,
  executionResultText,
  executionSummaryOf,
  refreshOneExecution,
  upsertExecutionSummary,
} from './execution-summaries';
import { invalidateForRealtimeEvent } from './realtime-invalidation';

function run(id: string, fields: Partial<Execution> = {}): Execution {
  return {
    id,
    workflowId: 'w1',
    workflowName: 'Flow',
    processType: 'sequential',
    workflowVersion: 2,
    status: 'running',
    input: {},
    dynamicInstructions: null,
    parameters: {},
    output: {
      writer: {
        content: 'long',
        metadata: { agentName: 'Writer', role: 'Writes', model: 'gpt-4o' },
        executionTime: 5,
        usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      },
    },
    metrics: { totalTokens: 3 },
    logs: [{ at: 'x', level: 'info', message: 'm' }],
    result: null,
    error: null,
    failedStep: null,
    waiting: null,
    untrusted: false,
    retryOf: null,
    retriedBy: null,
    triggeredBy: null,
    trigger: 'manual',
    triggerDetail: null,
    triggeredByName: null,
    startedAt: null,
    completedAt: null,
    waitedMs: 0,
    createdAt: `2026-01-01T00:00:0${id.length}.000Z`,
    ...fields,
  };
}
const summary = (id: string, fields: Partial<Execution> = {}) => executionSummaryOf(run(id, fields));

describe('execution summaries', () => {
  it('give the result as text: strings as they are, anything else as JSON, cut at 2,000 characters', () => {
    expect(executionResultText('Done.')).toBe('Done.');
    expect(executionResultText({ a: 'x' })).toBe('{"a":"x"}');
    expect(executionResultText(null)).toBeNull();
    expect(executionResultText('y'.repeat(2500))).toHaveLength(2000);
    const light = summary('e1', { result: 'Done.' });
    expect(light).not.toHaveProperty('output');
    expect(light).not.toHaveProperty('logs');
    expect(light.result).toBe('Done.');
    expect(executionPlaceholder(light)).toMatchObject({ id: 'e1', output: {}, logs: [], result: 'Done.' });
  });

  it('patch one run into a list: replaced in place, added newest first within the filter and limit', () => {
    const list = [summary('eee'), summary('ee'), summary('e')];
    const done = summary('ee', { status: 'completed', result: 'ok' });
    expect(upsertExecutionSummary(list, done, {}, false).map((r) => [r.id, r.status])).toEqual([
      ['eee', 'running'],
      ['ee', 'completed'],
      ['e', 'running'],
    ]);
    const newest = summary('eeee');
    expect(upsertExecutionSummary(list, newest, {}, false).map((r) => r.id)).toEqual(['eee', 'ee', 'e']);
    expect(upsertExecutionSummary(list, newest, {}, true).map((r) => r.id)).toEqual([
      'eeee',
      'eee',
      'ee',
      'e',
    ]);
    expect(upsertExecutionSummary(list, newest, { limit: 1 }, true).map((r) => r.id)).toEqual(['eeee']);
    expect(upsertExecutionSummary(list, newest, { workflowId: 'w2' }, true).map((r) => r.id)).toEqual([
      'eee',
      'ee',
      'e',
    ]);
    expect(upsertExecutionSummary(list, done, { status: 'running' }, false).map((r) => r.id)).toEqual([
      'eee',
      'e',
    ]);
  });

  it('a realtime event reads only that run and updates it in every cached list', async () => {
    const requested: string[] = [];
    const client = new QueryClient({
      defaultOptions: {
        queries: {
          staleTime: Infinity,
          queryFn: ({ queryKey }) => {
            requested.push(queryKey.join('/'));
            return run('ee', {
              status: 'completed',
              result: 'The answer',
              metrics: { totalTokens: 42, costUsd: 0.0042 },
            });
          },
        },
      },
    });
    const lists: [readonly unknown[], ExecutionSummary[]][] = [
      [['/api/executions'], [summary('eee'), summary('ee')]],
      [['/api/executions', { workflowId: 'w1', limit: 1 }], [summary('ee')]],
    ];
    for (const [key, data] of lists) client.setQueryData(key, data);

    invalidateForRealtimeEvent(client, {
      type: 'workflow_execution_completed',
      organizationId: 'o1',
      executionId: 'ee',
      workflowId: 'w1',
    });
    await vi.waitFor(() =>
      expect(client.getQueryData<ExecutionSummary[]>(['/api/executions'])![1].status).toBe('completed'),
    );

    expect(requested).toEqual(['/api/executions/ee']);
    const general = client.getQueryData<ExecutionSummary[]>(['/api/executions'])!;
    expect(general.map((r) => [r.id, r.status, r.result, r.costUsd])).toEqual([
      ['eee', 'running', null, undefined],
      ['ee', 'completed', 'The answer', 0.0042],
    ]);
    expect(client.getQueryState(['/api/executions'])!.isInvalidated).toBe(false);
    const last = client.getQueryData<ExecutionSummary[]>([
      '/api/executions',
      { workflowId: 'w1', limit: 1 },
    ])!;
    expect(last[0]).toMatchObject({ id: 'ee', status: 'completed' });
    expect(client.getQueryData<Execution>(['/api/executions', 'ee'])!.output).toHaveProperty('writer');
  });

  it('events in quick succession end on the newest state, not on a slower earlier read', async () => {
    let calls = 0;
    const client = new QueryClient({
      defaultOptions: {
        queries: {
          staleTime: Infinity,
          queryFn: async () => {
            calls += 1;
            if (calls === 1) {
              await new Promise((resolve) => setTimeout(resolve, 30));
              return run('ee', { status: 'running' });
            }
            return run('ee', { status: 'failed', error: 'overloaded' });
          },
        },
      },
    });
    client.setQueryData(['/api/executions'], [summary('ee', { status: 'pending' })]);
    const event = { organizationId: 'o1', executionId: 'ee', workflowId: 'w1' };
    invalidateForRealtimeEvent(client, { type: 'workflow_execution_started', ...event });
    invalidateForRealtimeEvent(client, { type: 'workflow_execution_failed', ...event, error: 'overloaded' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(client.getQueryData<ExecutionSummary[]>(['/api/executions'])![0]).toMatchObject({
      status: 'failed',
      error: 'overloaded',
    });
  });

  it('reads nothing when no run list is cached', async () => {
    const client = new QueryClient({
      defaultOptions: { queries: { queryFn: () => Promise.reject(new Error('no request expected')) } },
    });
    await refreshOneExecution(client, 'ee', { add: true });
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });
});
