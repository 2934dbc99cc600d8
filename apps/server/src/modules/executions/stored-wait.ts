import type { ExecutionWait } from '@crewline/contracts';
import type { StoredWait } from '@crewline/db';

/*
 * The stored format of a waiting run's wait (`workflow_executions.waiting`, docs/product-rules.md,
 * People in the loop). It is versioned (`v`) because a run may wait across an upgrade of Crewline:
 * the code that resumes it reads every version this module ever wrote. v1 is the first.
 */

/** A stored wait of any version, as the current code reads it; null for anything else. */
export function readStoredWait(value: unknown): StoredWait | null {
  if (typeof value !== 'object' || value === null) return null;
  const wait = value as Partial<StoredWait>;
  if (wait.v !== 1 || (wait.kind !== 'approval' && wait.kind !== 'delay') || typeof wait.stepId !== 'string')
    return null;
  return {
    v: 1,
    kind: wait.kind,
    stepId: wait.stepId,
    title: typeof wait.title === 'string' ? wait.title : '',
    since: typeof wait.since === 'string' ? wait.since : new Date(0).toISOString(),
    until: typeof wait.until === 'string' ? wait.until : null,
    approvalId: typeof wait.approvalId === 'string' ? wait.approvalId : null,
  };
}

/** What a run's card and details say it waits for: only while its status is waiting. */
export function executionWait(status: string, stored: unknown): ExecutionWait | null {
  const wait = status === 'waiting' ? readStoredWait(stored) : null;
  return (
    wait && {
      kind: wait.kind,
      nodeId: wait.stepId,
      title: wait.title,
      since: wait.since,
      until: wait.until,
      approvalId: wait.approvalId,
    }
  );
}
