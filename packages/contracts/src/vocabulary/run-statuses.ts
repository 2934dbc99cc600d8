// The statuses of a run (an execution): pending, running and waiting ones can still change (and be
// cancelled); completed, failed and cancelled ones have ended and never change again. A waiting run
// waits for people (an approval) or a time (a delay), holding no worker (docs/product-rules.md).

export const executionStatusValues = [
  'pending',
  'running',
  'waiting',
  'completed',
  'failed',
  'cancelled',
] as const;
export type ExecutionStatus = (typeof executionStatusValues)[number];

export const activeRunStatuses = [
  'pending',
  'running',
  'waiting',
] as const satisfies readonly ExecutionStatus[];
export const endedRunStatuses = [
  'completed',
  'failed',
  'cancelled',
] as const satisfies readonly ExecutionStatus[];

/** Pending, running or waiting: the run can still change. */
export function isRunActive(status: string | null | undefined): status is (typeof activeRunStatuses)[number] {
  return status === 'pending' || status === 'running' || status === 'waiting';
}

/** Completed, failed or cancelled: the run has ended. */
export function isRunEnded(status: string | null | undefined): status is (typeof endedRunStatuses)[number] {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
