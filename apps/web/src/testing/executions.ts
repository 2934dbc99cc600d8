import type { Execution, ExecutionSummary } from '@crewline/contracts';

import { executionSummaryOf } from '@/lib/execution-summaries';

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
    triggerDetail: null,
    triggeredBy: 'u1',
    triggeredByName: 'Ada',
    startedAt: '2026-01-01T10:00:00.000Z',
    completedAt: null,
    waitedMs: 0,
    createdAt: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** The same run as the run lists answer it (GET /api/executions), with `overrides`. */
export function aSummary(overrides: Partial<ExecutionSummary> = {}): ExecutionSummary {
  return { ...executionSummaryOf(anExecution()), ...overrides };
}
