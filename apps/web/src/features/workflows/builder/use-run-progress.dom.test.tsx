import type { Execution, ExecutionSummary } from '@crewline/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { agentFixture, at, findCanvasNode, openBuilder, workflowFixture } from '@/testing/builder';
import { ORIGIN } from '@/testing/msw-server';

const workflow = workflowFixture({
  name: 'Refunds',
  status: 'active',
  nodes: [
    { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } },
    { id: 'draft', type: 'agent', agentId: 'a1', position: { x: 100, y: 250 }, data: { label: 'Draft' } },
    {
      id: 'approve',
      type: 'approval',
      position: { x: 100, y: 400 },
      data: { label: 'Approve refund', title: 'Refund?', message: 'Check it.', fields: [] },
    },
    { id: 'end', type: 'end', position: { x: 100, y: 550 }, data: { label: 'End' } },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'draft' },
    { id: 'e2', source: 'draft', target: 'approve' },
    { id: 'e3', source: 'approve', target: 'end', sourceHandle: 'approved' },
  ],
});

/** A run of wf-1 that stopped at the approval after its draft; the list's summary of it has no output. */
function waitingRun(id: string): { summary: ExecutionSummary; details: Execution } {
  const summary: ExecutionSummary = {
    id,
    workflowId: 'wf-1',
    workflowName: 'Refunds',
    processType: 'sequential',
    workflowVersion: 1,
    status: 'waiting',
    error: null,
    failedStep: null,
    waiting: {
      kind: 'approval',
      nodeId: 'approve',
      title: 'Refund?',
      since: at,
      until: null,
      approvalId: 'ap-1',
    },
    untrusted: false,
    retryOf: null,
    retriedBy: null,
    result: null,
    trigger: 'manual',
    triggerDetail: null,
    triggeredBy: 'u1',
    triggeredByName: 'Ada',
    startedAt: at,
    completedAt: null,
    createdAt: at,
  };
  const draft = {
    content: 'Draft: refund 120 €.',
    kind: 'agent' as const,
    status: 'completed' as const,
    metadata: { agentName: 'Refund desk', baseNodeId: 'draft' },
    executionTime: 1500,
    usage: { promptTokens: 10, completionTokens: 20, totalTokens: 30 },
  };
  const details: Execution = {
    ...summary,
    result: null,
    waitedMs: 0,
    input: {},
    dynamicInstructions: null,
    parameters: {},
    output: { draft },
    steps: [],
    metrics: {},
    logs: [],
  };
  return { summary, details };
}

describe('the builder opened on a run already waiting', () => {
  it('reads the run’s details once and marks the step it finished before the approval', async () => {
    const { summary, details } = waitingRun('run-waiting-1');
    let reads = 0;
    const { container } = await openBuilder({
      workflow,
      agents: [agentFixture({ id: 'a1', name: 'Refund desk', role: 'Refunds', goal: 'Refund' })],
      runs: [summary],
      handlers: [
        http.get(`${ORIGIN}/api/executions/${summary.id}`, () => {
          reads += 1;
          return HttpResponse.json(details);
        }),
      ],
    });

    const progress = await screen.findByTestId('run-progress');
    expect(progress.getAttribute('data-run-status')).toBe('waiting');
    // A waiting run sends no more events: only its details say the draft is done.
    await waitFor(() =>
      expect(within(progress).getByRole('status').textContent).toBe(
        'Run waiting for approval · Refund? · 1 step done',
      ),
    );
    const draft = await findCanvasNode(container, 'draft');
    await waitFor(() =>
      expect(within(draft).getByTestId('node-run-status').textContent).toBe('Done · 1.5 s'),
    );
    const approve = await findCanvasNode(container, 'approve');
    expect(within(approve).getByTestId('node-run-status').textContent).toBe('Waiting');
    expect(reads).toBe(1);
  });
});
