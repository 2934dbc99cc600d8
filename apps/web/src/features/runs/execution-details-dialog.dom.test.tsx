import type { Execution, ExecutionSummary, RealtimeEvent } from '@crewline/contracts';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { anExecution } from '@/testing/executions';
import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ExecutionDetailsDialog } from './execution-details-dialog';

const run: Execution = anExecution({
  id: 'run-1111-2222',
  workflowName: 'Weekly report',
  status: 'running',
  workflowVersion: 3,
  output: {
    researcher: {
      content: 'The facts, gathered.',
      metadata: { agentName: 'Researcher', role: 'Finds facts', model: 'gpt-4o' },
      executionTime: 1200,
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
    },
  },
});

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

describe('what a run cost, in its details', () => {
  const step = run.output.researcher!;
  const ended: Execution = {
    ...run,
    status: 'completed',
    completedAt: '2026-01-01T10:00:05.000Z',
    output: {
      researcher: { ...step, usage: { ...step.usage, costUsd: 0.0042 } },
      writer: {
        ...step,
        content: 'The report.',
        metadata: { agentName: 'Writer', model: 'my-fine-tune' },
        usage: { ...step.usage, costUsd: null, unpricedModels: ['my-fine-tune'] },
      },
    },
  };
  const open = async (execution: Execution) => {
    server.use(answerGet<Execution>(`/api/executions/${execution.id}`, execution));
    renderWithApp(
      <ExecutionDetailsDialog
        execution={summary}
        workflowName="Weekly report"
        open
        onOpenChange={() => {}}
      />,
    );
    const dialog = await screen.findByTestId('execution-details');
    await within(dialog).findByText('The report.');
    return dialog;
  };
  const tokensOf = (dialog: HTMLElement) =>
    within(dialog)
      .getAllByTestId('agent-output-tokens')
      .map((tokens) => tokens.textContent);

  it('shows the run’s cost beside its tokens, and each step’s after its tokens', async () => {
    const dialog = await open({ ...ended, metrics: { totalTokens: 30, steps: 2, costUsd: 0.0042 } });
    expect(within(dialog).getByTestId('execution-cost').textContent).toBe('$0.0042');
    expect(within(dialog).queryByTestId('execution-cost-note')).toBeNull();
    expect(tokensOf(dialog)).toEqual(['15 tokens · $0.0042', '15 tokens · cost unknown']);
  });

  it('says Unknown and names the models without a price', async () => {
    const dialog = await open({
      ...ended,
      metrics: { totalTokens: 30, steps: 2, costUsd: null, unpricedModels: ['my-fine-tune'] },
    });
    expect(within(dialog).getByTestId('execution-cost').textContent).toBe('Unknown');
    expect(within(dialog).getByTestId('execution-cost-note').textContent).toBe('No price for my-fine-tune');
  });

  it('shows no cost for a run without one (no model call, or from before costs)', async () => {
    const before = { ...ended, output: { writer: { ...step, content: 'The report.' } } };
    const dialog = await open({ ...before, metrics: { totalTokens: 15, steps: 1 } });
    expect(within(dialog).getByTestId('execution-tokens').textContent).toBe('15');
    expect(within(dialog).queryByTestId('execution-cost')).toBeNull();
    expect(within(dialog).queryByText('Cost')).toBeNull();
    expect(tokensOf(dialog)).toEqual(['15 tokens']);
  });
});
