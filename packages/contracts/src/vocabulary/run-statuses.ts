// The statuses of a run (an execution): pending and running ones can still change (and be
// cancelled); completed, failed and cancelled ones have ended and never change again.

export const executionStatusValues = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ExecutionStatus = (typeof executionStatusValues)[number];

export const activeRunStatuses = ['pending', 'running'] as const satisfies readonly ExecutionStatus[];
export const endedRunStatuses = [
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly ExecutionStatus[];

/** Pending or running: the run can still change. */
export function isRunActive(status: string | null | undefined): status is (typeof activeRunStatuses)[number] {
  return status === 'pending' || status === 'running';
}

/** Completed, failed or cancelled: the run has ended. */
export function isRunEnded(status: string | null | undefined): status is (typeof endedRunStatuses)[number] {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
