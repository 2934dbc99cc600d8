import type { Execution, ExecutionSummary } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { anExecution } from '@/testing/executions';
import { answerGet, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ExecutionDetailsDialog } from './execution-details-dialog';

// A run's details say how long it waited (for an approval, a delay) beside its duration.

/** A completed run of 1h 2m 5s, `waitedMs` of it waiting. */
function completedRun(id: string, waitedMs: number): Execution {
  return anExecution({
    id,
    status: 'completed',
    metrics: { steps: 3 },
    result: 'Refunded.',
    completedAt: '2026-01-01T11:02:05.000Z',
    waitedMs,
  });
}

async function openDetails(run: Execution) {
  server.use(answerGet<Execution>(`/api/executions/${run.id}`, run));
  const summary = { ...run, output: {}, steps: undefined } as unknown as ExecutionSummary;
  renderWithApp(<ExecutionDetailsDialog execution={summary} open onOpenChange={() => {}} />);
  const dialog = await screen.findByTestId('execution-details');
  // The details' read has arrived once the steps are counted.
  await waitFor(() => expect(within(dialog).getByTestId('execution-steps').textContent).toBe('3'));
  return dialog;
}

describe('the run details’ waiting time', () => {
  it('shows "Waited" beside the duration, in whole seconds like it', async () => {
    const dialog = await openDetails(completedRun('run-waited', 3_540_400));
    expect(within(dialog).getByTestId('execution-duration').textContent).toBe('1h 2m');
    expect(within(dialog).getByTestId('execution-waited').textContent).toBe('Waited 59m 0s');
  });

  it('says nothing of waiting for a run that never waited', async () => {
    const dialog = await openDetails(completedRun('run-straight', 0));
    expect(within(dialog).getByTestId('execution-duration').textContent).toBe('1h 2m');
    expect(within(dialog).queryByTestId('execution-waited')).toBeNull();
    expect(within(dialog).queryByText(/Waited/)).toBeNull();
  });
});
