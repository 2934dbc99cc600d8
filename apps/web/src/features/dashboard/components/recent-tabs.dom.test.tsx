import type { Agent, ExecutionSummary, Workflow } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { aSummary } from '@/testing/executions';
import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { RecentTabs } from './recent-tabs';

// A completed run of "Refunds" that took 5 seconds.
const ended = aSummary({
  status: 'completed',
  workflowVersion: 1,
  result: 'Refunded.',
  completedAt: '2026-01-01T10:00:05.000Z',
});

/** The dashboard's Recent Executions tab listing `runs`: each row's workflow name and the line under it. */
async function recentExecutions(runs: ExecutionSummary[]) {
  server.use(
    answerGet<Agent[]>('/api/agents', []),
    answerGet<Workflow[]>('/api/workflows', []),
    answerGet<ExecutionSummary[]>('/api/executions', runs),
  );
  renderWithApp(<RecentTabs />);
  await userEvent.setup().click(screen.getByRole('tab', { name: 'Recent Executions' }));
  const rows = await screen.findAllByRole('link');
  return rows.map((row) => ({
    name: within(row).getByText(/^Refunds/).textContent,
    line: within(row)
      .getByText(/^Started/)
      .textContent?.replace(/^Started .+? · /, ''),
  }));
}

describe("the dashboard's recent executions", () => {
  it('show what each run cost beside its time, say when it is unknown, and show nothing without one', async () => {
    const rows = await recentExecutions([
      {
        ...ended,
        id: 'run-a',
        workflowName: 'Refunds A',
        costUsd: 0.0042,
        createdAt: '2026-01-01T10:03:00Z',
      },
      { ...ended, id: 'run-b', workflowName: 'Refunds B', costUsd: 1.25, createdAt: '2026-01-01T10:02:00Z' },
      { ...ended, id: 'run-c', workflowName: 'Refunds C', costUsd: null, createdAt: '2026-01-01T10:01:00Z' },
      // Still running, or from before costs: no cost figure at all.
      { ...ended, id: 'run-d', workflowName: 'Refunds D', createdAt: '2026-01-01T10:00:00Z' },
    ]);
    // After when it started: how long it took, then what it cost.
    expect(rows).toEqual([
      { name: 'Refunds A', line: '5s · $0.0042' },
      { name: 'Refunds B', line: '5s · $1.25' },
      { name: 'Refunds C', line: '5s · Cost unknown' },
      { name: 'Refunds D', line: '5s' },
    ]);
  });
});
