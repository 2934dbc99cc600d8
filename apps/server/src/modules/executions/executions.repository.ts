import type { Db } from '@crewline/db';
import { createRunClaims } from './run-claims.repository';
import { createRunEndings } from './run-endings.repository';
import { createRunReads } from './run-reads.repository';
import { runRetries } from './run-retry.repository';
import { createRunStart } from './run-start.repository';
import { createStepRecords } from './step-records.repository';

export type { Claimed } from './run-claims.repository';
export type { ExecutionsCursor } from './run-reads.repository';
export { isRetryTaken } from './run-retry.repository';
export type { StepRecord } from './step-records.repository';

/**
 * The executions module's one repository, composed of its parts by concern, each in its own file:
 * reads and lists (run-reads), the queued insert every run starts with (run-start), a retry's reused
 * steps (run-retry), claims, leases and hand-back (run-claims), step records and checkpoints
 * (step-records), and the statements that end a run: finish, cancel, abandon (run-endings). What
 * they share on a run's row (its id, an attempt's ownership, log appends) is in run-rows.ts.
 */
export function createExecutionsRepository(db: Db) {
  return {
    ...createRunReads(db),
    ...createRunStart(db),
    ...runRetries,
    ...createRunClaims(db),
    ...createStepRecords(db),
    ...createRunEndings(db),
  };
}
export type ExecutionsRepository = ReturnType<typeof createExecutionsRepository>;
