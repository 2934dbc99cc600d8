import type { Logger } from 'pino';
import type { ApprovalsRepository } from './approvals.repository';

/** How often a worker looks for waits whose time has come. */
const WAKE_UP_POLL_MS = 1000;

/**
 * Every worker process runs this loop (worker.ts): once a second, the waiting runs whose time has
 * come (a delay's end, an approval's timeout) are queued again by compare-and-set, so each goes on
 * exactly once whatever the number of workers, and late rather than never when workers were down.
 * The claim that follows is the queue's own (docs/architecture.md, Runs).
 */
export function startRunWakeUps(options: {
  repository: Pick<ApprovalsRepository, 'wakeDue'>;
  clock?: () => Date;
  pollMs?: number;
  logger?: Logger;
}) {
  const pollMs = options.pollMs ?? WAKE_UP_POLL_MS;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const tick = async () => {
    try {
      // A full batch means more may be due: look again at once.
      while (!stopped && (await options.repository.wakeDue(options.clock?.() ?? new Date())) === 100);
    } catch (error) {
      options.logger?.warn({ err: error }, 'waking due runs failed; trying again');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick().then(schedule);
    }, pollMs);
  };
  schedule();

  return {
    /** Looks now (tests, after moving the clock). */
    wakeNow: () => (running = running.then(tick)),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
