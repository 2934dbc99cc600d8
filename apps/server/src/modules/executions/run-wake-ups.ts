import type { Logger } from 'pino';
import { createPollingLoop } from '../../platform/polling-loop';
import type { ApprovalsRepository } from './approvals.repository';

/** How often a worker looks for waits whose time has come. */
const WAKE_UP_POLL_MS = 1000;
/** The most runs one look queues; a full batch looks again at once. */
const BATCH = 100;

/**
 * Every worker process runs this loop (worker.ts): once a second, the waiting runs whose time has
 * come (a delay's end, an approval's timeout) are queued again by compare-and-set, so each goes on
 * exactly once whatever the number of workers, and late rather than never when workers were down.
 * Approvals halfway to their timeout are taken the same way, once, for their reminder (a reminder
 * taken by a worker that dies before sending it is not sent again: it is a courtesy, the timeout is not).
 * The claim that follows is the queue's own (docs/architecture.md, Runs).
 */
export function startRunWakeUps(options: {
  repository: Pick<ApprovalsRepository, 'wakeDue' | 'remindDue'>;
  /** Reminds the approvers of an approval halfway to its timeout (approval-links.service.ts), in the background. */
  remind: (approvalId: string) => void;
  clock?: () => Date;
  pollMs?: number;
  logger?: Logger;
}) {
  const look = async () => {
    try {
      const now = options.clock?.() ?? new Date();
      while ((await options.repository.wakeDue(now, BATCH)) === BATCH);
      let due: string[];
      do {
        due = await options.repository.remindDue(now, BATCH);
        due.forEach(options.remind);
      } while (due.length === BATCH);
    } catch (error) {
      options.logger?.warn({ err: error }, 'waking due runs failed; trying again');
    }
  };
  const loop = createPollingLoop(look, options.pollMs ?? WAKE_UP_POLL_MS);
  loop.start();
  return {
    /** Looks now (tests, after moving the clock). */
    wakeNow: look,
    stop: () => loop.stop(),
  };
}
