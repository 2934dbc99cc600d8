import { workflowMessages, type Workflow } from '@crewline/contracts';
import { ConflictError } from '../../platform/errors';

type Status = Workflow['status'];

/**
 * Pause and resume (docs/product-rules.md): a paused workflow's triggers do not fire and it cannot be
 * run, so the only way into 'paused' is from 'active' and the only way out is back to 'active' (which
 * the caller validates like any activation). Other status changes are as before. Throws a 409.
 */
export function checkStatusChange(from: Status, to: Status | undefined): void {
  if (to === undefined || to === from) return;
  if (to === 'paused' && from !== 'active') throw new ConflictError(workflowMessages.notPausable(from));
  if (from === 'paused' && to !== 'active') throw new ConflictError(workflowMessages.pausedOnlyResumes);
}
