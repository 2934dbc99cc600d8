import type { Execution, ExecutionSummary, RealtimeEvent } from '@crewline/contracts';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ExecutionDetailsDialog } from './execution-details-dialog';

const run: Execution = {
  id: 'run-1111-2222',
  workflowId: 'wf-1',
  workflowName: 'Weekly report',
  processType: 'sequential',
  status: 'running',
  workflowVersion: 3,
  input: {},
  dynamicInstructions: null,
  parameters: {},
  output: {
    researcher: {
      content: 'The facts, gathered.',
      metadata: { agentName: 'Researcher', role: 'Finds facts', model: 'gpt-4o' },
      executionTime: 1200,
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
    },
  },
  steps: [],
  metrics: {},
  logs: [],
  result: null,
  error: null,
  failedStep: null,
  untrusted: false,
  waiting: null,
  retryOf: null,
  retriedBy: null,
  trigger: 'manual',
  triggeredBy: 'u1',
  triggeredByName: 'Ada',
  startedAt: '2026-01-01T10:00:00.000Z',
  completedAt: null,
  waitedMs: 0,
  createdAt: '2026-01-01T10:00:00.000Z',
};

const summary = { ...run, output: {}, steps: undefined } as unknown as ExecutionSummary;
const ids = { organizationId: 'org-1', workflowId: 'wf-1', executionId: run.id };

describe('the run details dialog', () => {
  it('shows the fetched run’s status and steps, then a step as it streams from the realtime events', async () => {
    server.use(answerGet<Execution>(`/api/executions/${run.id}`, run));
    const { hub } = renderWithApp(
      <ExecutionDetailsDialog
        execution={summary}
        workflowName="Weekly report"
        open
        onOpenChange={() => {}}
      />,
    );

    const dialog = await screen.findByTestId('execution-details');
    expect(within(dialog).getByText('Execution Details')).toBeTruthy();
    expect(await within(dialog).findByText('The facts, gathered.')).toBeTruthy();
    expect(within(dialog).getByText('Running')).toBeTruthy();
    expect(within(dialog).queryByTestId('live-step')).toBeNull();

    const events: RealtimeEvent[] = [
      { type: 'execution_node_started', ...ids, nodeId: 'writer', baseNodeId: 'writer', agentName: 'Writer' },
      {
        type: 'execution_node_delta',
        ...ids,
        nodeId: 'writer',
        baseNodeId: 'writer',
        offset: 0,
        text: 'Dear team, ',
      },
      {
        type: 'execution_node_delta',
        ...ids,
        nodeId: 'writer',
        baseNodeId: 'writer',
        offset: 11,
        text: 'this week…',
      },
    ];
    act(() => events.forEach((event) => hub.emit(event)));

    const live = await within(dialog).findByTestId('live-step');
    expect(within(live).getByTestId('live-step-name').textContent).toBe('Writer');
    expect(within(live).getByTestId('live-step-text').textContent).toBe('Dear team, this week…');
  });
});
