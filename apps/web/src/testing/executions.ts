import type { Execution } from '@crewline/contracts';

/**
 * A run as GET /api/executions/:id answers it, for component tests: a manual run by Ada of the
 * sequential workflow "Refunds", started 2026-01-01 10:00 UTC and still pending, with nothing run yet;
 * `overrides` make it the run a test needs.
 */
export function anExecution(overrides: Partial<Execution> = {}): Execution {
  return {
    id: 'run-1',
    workflowId: 'wf-1',
    workflowName: 'Refunds',
    processType: 'sequential',
    status: 'pending',
    workflowVersion: null,
    input: {},
    dynamicInstructions: null,
    parameters: {},
    output: {},
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
    ...overrides,
  };
}
