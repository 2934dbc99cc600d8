import type { ExecutionSummary } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '@/testing/render';

import { ExecutionCard } from './execution-card';

const waitingRun: ExecutionSummary = {
  id: 'run-3333-4444',
  workflowId: 'wf-1',
  workflowName: 'Refunds',
  processType: 'sequential',
  workflowVersion: null,
  status: 'waiting',
  error: null,
  failedStep: null,
  untrusted: false,
  waiting: {
    kind: 'approval',
    nodeId: 'approve',
    title: 'Refund over 500 €',
    since: '2026-01-01T10:00:00.000Z',
    until: null,
    approvalId: 'ap-1',
  },
  retryOf: null,
  retriedBy: null,
  result: null,
  trigger: 'manual',
  triggerDetail: null,
  triggeredBy: 'u1',
  triggeredByName: 'Ada',
  startedAt: '2026-01-01T10:00:00.000Z',
  completedAt: null,
  createdAt: '2026-01-01T10:00:00.000Z',
};

describe('the execution card of a waiting run', () => {
  it('says what the run waits for, shows Waiting, and offers Cancel', () => {
    renderWithApp(<ExecutionCard execution={waitingRun} workflowName="Refunds" onViewDetails={() => {}} />);
    const card = screen.getByTestId('execution-card');
    expect(within(card).getByTestId('execution-waiting').textContent).toBe(
      'Waiting for approval · Refund over 500 €',
    );
    expect(within(card).getByTestId('execution-status').textContent).toBe('Waiting');
    expect(within(card).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('says until when a delay waits', () => {
    const delayed: ExecutionSummary = {
      ...waitingRun,
      waiting: { ...waitingRun.waiting!, kind: 'delay', title: 'Delay', until: '2026-03-04T15:30:00.000Z' },
    };
    renderWithApp(<ExecutionCard execution={delayed} workflowName="Refunds" onViewDetails={() => {}} />);
    expect(screen.getByTestId('execution-waiting').textContent).toMatch(/^Waiting until .*2026/);
  });

  it('marks a run started from outside the organization as untrusted, and only such a run', () => {
    const { unmount } = renderWithApp(
      <ExecutionCard
        execution={{ ...waitingRun, untrusted: true, trigger: 'webhook', triggeredBy: null }}
        workflowName="Refunds"
        onViewDetails={() => {}}
      />,
    );
    expect(screen.getByTestId('execution-untrusted').textContent).toBe('Untrusted');
    unmount();
    renderWithApp(<ExecutionCard execution={waitingRun} workflowName="Refunds" onViewDetails={() => {}} />);
    expect(screen.queryByTestId('execution-untrusted')).toBeNull();
  });
});

describe('who started the run, on its card', () => {
  it("names an MCP client after the trigger, and a person's run by the person", () => {
    const { unmount } = renderWithApp(
      <ExecutionCard
        execution={{
          ...waitingRun,
          trigger: 'mcp',
          triggerDetail: 'Claude',
          triggeredBy: null,
          triggeredByName: null,
        }}
        workflowName="Refunds"
        onViewDetails={() => {}}
      />,
    );
    expect(screen.getByTestId('execution-triggered-by').textContent).toBe('MCP · Claude');
    unmount();
    renderWithApp(<ExecutionCard execution={waitingRun} workflowName="Refunds" onViewDetails={() => {}} />);
    expect(screen.getByTestId('execution-triggered-by').textContent).toBe('Ada');
  });
});

describe('what a run cost, on its card', () => {
  const ended: ExecutionSummary = {
    ...waitingRun,
    status: 'completed',
    waiting: null,
    completedAt: '2026-01-01T10:00:05.000Z',
  };
  const costOnCard = (execution: ExecutionSummary) => {
    const { unmount } = renderWithApp(
      <ExecutionCard execution={execution} workflowName="Refunds" onViewDetails={() => {}} />,
    );
    const text = screen.queryByTestId('execution-cost')?.textContent ?? null;
    unmount();
    return text;
  };

  it('shows the amount, says when it is unknown, and shows nothing without one', () => {
    expect(costOnCard({ ...ended, costUsd: 0.0042 })).toBe('$0.0042');
    expect(costOnCard({ ...ended, costUsd: 1.25 })).toBe('$1.25');
    expect(costOnCard({ ...ended, costUsd: null })).toBe('Cost unknown');
    expect(costOnCard(ended)).toBeNull();
  });
});
