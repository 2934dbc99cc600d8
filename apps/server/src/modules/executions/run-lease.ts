import type { Logger } from 'pino';
import type { ExecutionsRepository } from './executions.repository';
import { Interrupted } from './run-errors';

/**
 * An attempt's hold on its run (docs/decisions/0007-run-leases-and-resume.md): the lease is renewed
 * every third of `leaseMs` (at least every 200 ms); a renewal that finds the run no longer this
 * attempt's (another worker claimed it after the lease lapsed) aborts the attempt as superseded. A
 * renewal that fails (the database away) changes nothing: the next one tries again.
 */
export function holdLease(options: {
  repository: Pick<ExecutionsRepository, 'renewLease'>;
  executionId: string;
  attempt: number;
  leaseMs: number;
  abort: AbortController;
  logger?: Logger;
}): { release(): Promise<void> } {
  const { repository, executionId, attempt, leaseMs, abort } = options;
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      renewing = repository
        .renewLease(executionId, attempt, leaseMs)
        .then((ours) => {
          if (!ours && !abort.signal.aborted) abort.abort(new Interrupted('superseded'));
        })
        .catch((err: unknown) => options.logger?.warn({ err, executionId }, 'lease renewal failed'));
    },
    Math.max(200, Math.floor(leaseMs / 3)),
  );
  return {
    // Also waits for a renewal already sent: one landing after a hand-back would push the lapsed
    // lease out again, and the run would wait a whole lease for another worker.
    async release() {
      clearInterval(timer);
      await renewing;
    },
  };
}
