import type { Execution, ExecutionSummary, RetryExecutionData, WorkflowVersion } from '@crewline/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { Toaster } from '@/components/ui/toaster';
import { anExecution } from '@/testing/executions';
import { answerGet, answerPost, ORIGIN, server } from '@/testing/msw-server';
import { renderWithApp } from '@/testing/render';

import { ExecutionDetailsDialog } from './execution-details-dialog';

const noUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
const at = { x: 0, y: 0 };

// Start → Draft → Approve refund (approved: Send | rejected: End): the version the runs executed.
const version = {
  workflowId: 'wf-1',
  version: 1,
  note: null,
  createdAt: '2026-01-01T09:00:00.000Z',
  createdBy: null,
  createdByName: null,
  processType: 'sequential',
  nodes: [
    { id: 'start', type: 'start', position: at, data: {} },
    { id: 'draft', type: 'agent', position: at, data: { name: 'Drafter' } },
    { id: 'approve', type: 'approval', position: at, data: { label: 'Approve refund', title: 'Refund?' } },
    { id: 'send', type: 'agent', position: at, data: { name: 'Sender' } },
    { id: 'end', type: 'end', position: at, data: {} },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'draft' },
    { id: 'e2', source: 'draft', target: 'approve' },
    { id: 'e3', source: 'approve', target: 'send', sourceHandle: 'approved' },
    { id: 'e4', source: 'approve', target: 'end', sourceHandle: 'rejected' },
    { id: 'e5', source: 'send', target: 'end' },
  ],
} as unknown as WorkflowVersion;

/** A refund run whose approval said `decision`: it went down that path and completed. */
function refundRun(
  decision: 'approved' | 'rejected' | 'timeout',
  changes: Partial<Execution> = {},
): Execution {
  return anExecution({
    id: 'run-3333',
    status: 'completed',
    workflowVersion: 1,
    input: { amount: 120 },
    output: {
      draft: {
        content: 'Dear Acme, here is your refund.',
        kind: 'agent',
        metadata: { agentName: 'Drafter', role: '', model: 'gpt-4o' },
        executionTime: 900,
        usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      },
      approve: {
        content: decision === 'timeout' ? 'Timed out' : decision === 'approved' ? 'Approved' : 'Rejected',
        kind: 'approval',
        data: { decision, decisions: [], fields: {} },
        metadata: { agentName: 'Approve refund', role: '', model: '' },
        executionTime: 60_000,
        usage: noUsage,
      },
    },
    completedAt: '2026-01-01T10:01:00.000Z',
    ...changes,
  });
}

const summary = (run: Execution) => ({ ...run, output: {}, steps: undefined }) as unknown as ExecutionSummary;

function renderDetails(run: Execution, onRetried?: (execution: Execution) => void) {
  server.use(
    answerGet<Execution>(`/api/executions/${run.id}`, run),
    answerGet<WorkflowVersion>('/api/workflows/wf-1/versions/1', version),
    http.get(`${ORIGIN}/api/approvals`, () => HttpResponse.json([])),
  );
  return renderWithApp(
    <>
      <ExecutionDetailsDialog
        execution={summary(run)}
        workflowName="Refunds"
        open
        onOpenChange={() => {}}
        onRetried={onRetried}
      />
      <Toaster />
    </>,
  );
}

const approvalStep = async () =>
  (await screen.findAllByTestId('agent-output')).find((step) => step.dataset.kind === 'approval')!;

describe('retrying a completed run from its approval', () => {
  it('offers "Retry from this approval" on a rejected approval and starts the retry from it', async () => {
    const user = userEvent.setup();
    const sent: RetryExecutionData[] = [];
    const retried: Execution = {
      ...refundRun('rejected'),
      id: 'run-4444',
      status: 'pending',
      retryOf: 'run-3333',
      completedAt: null,
    };
    server.use(answerPost('/api/executions/run-3333/retry', retried, sent));
    const shown: Execution[] = [];
    renderDetails(refundRun('rejected'), (next) => shown.push(next));

    const step = await approvalStep();
    // The run completed: no Retry in the footer, no "Retry from this step" on the agent's step.
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry from this step' })).toBeNull();
    await user.click(within(step).getByRole('button', { name: 'Retry from this approval' }));

    await screen.findByText('Retry Started');
    expect(sent).toEqual([{ fromNodeId: 'approve' }]);
    expect(shown.map((run) => run.id)).toEqual(['run-4444']);
    expect(
      screen.getByText('"Refunds" is running again from Approve refund; the steps before it are reused'),
    ).toBeTruthy();
  });

  it('offers it on a timed-out approval too', async () => {
    renderDetails(refundRun('timeout'));
    const step = await approvalStep();
    expect(within(step).getByRole('button', { name: 'Retry from this approval' })).toBeTruthy();
  });

  it('does not offer it on an approved approval, nor once the run was retried', async () => {
    const { unmount } = renderDetails(refundRun('approved'));
    expect(
      within(await approvalStep()).queryByRole('button', { name: 'Retry from this approval' }),
    ).toBeNull();
    unmount();

    renderDetails(refundRun('rejected', { retriedBy: 'run-4444' }));
    expect(
      within(await approvalStep()).queryByRole('button', { name: 'Retry from this approval' }),
    ).toBeNull();
    expect(screen.getByText(/Retried as run #/)).toBeTruthy();
  });
});
