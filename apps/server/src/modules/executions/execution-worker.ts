import type { Logger } from 'pino';
import { createWakeUps } from '../../platform/wake-ups';
import type { ExecutionRunner } from './execution-runner';

export type ExecutionWorkerOptions = {
  runner: ExecutionRunner;
  logger?: Logger;
  /** Runs this process works on at once (one claim loop each). */
  concurrency: number;
  /**
   * Subscribes to "a run was just queued" (Postgres NOTIFY): `wakeOne` for each run, `wakeAll` when
   * notifications may have been missed. Returns the unsubscribe.
   */
  onRunQueued?: (wakeOne: () => void, wakeAll: () => void) => () => void;
  /** How often an idle worker looks for runs when nothing woke it (runs whose worker died, missed wake-ups). */
  pollMs?: number;
  /** On stop, how long running steps may take to finish and be stored before their runs are released. */
  drainMs?: number;
};

/** How often an idle worker looks for a run when no NOTIFY woke it. */
const POLL_MS = 2000;

/**
 * The worker side of runs (docs/decisions/0014-runs-queued-in-their-table.md): the run's row is its
 * queue entry, and each of `concurrency` loops claims the oldest run free to run, in one statement
 * that skips rows other workers are claiming (SKIP LOCKED). "Free to run" includes a running run
 * whose lease lapsed, so a run whose worker died is resumed by the next claim: no separate sweep.
 *
 * A queued run's NOTIFY wakes one idle loop. A loop that finishes a run claims again at once when
 * its claim said another run was waiting or a wake-up found no idle loop meanwhile, and otherwise
 * sleeps: at light load a run costs no empty claim. Idle, the process looks once per `pollMs` (one loop), which
 * finds runs whose lease lapsed and any wake-up that was missed. Every claim is caught, so a database
 * outage never ends a loop.
 */
export function startExecutionWorker(options: ExecutionWorkerOptions) {
  const { runner, logger } = options;
  let stopping = false;

  // Loops sleep until a queued run's NOTIFY, the poll or the hint a busy loop left (wake-ups.ts).
  const wakeUps = createWakeUps(options.concurrency);

  async function workLoop() {
    while (!stopping) {
      let claimed: { more: boolean } | undefined;
      try {
        claimed = await runner.runNext();
      } catch (err) {
        // The run keeps its state; once its lease lapses, the next claim resumes it.
        logger?.warn({ err }, 'run attempt ended with an error');
      }
      // Another run is waiting: this loop looks again, and an idle one joins it (a backlog drains
      // with every loop at work, each waking the next while there is more).
      if (claimed?.more) {
        wakeUps.wakeIdle();
        continue;
      }
      await wakeUps.idle();
    }
  }
  const loops = Array.from({ length: options.concurrency }, () => workLoop());
  const unsubscribe = options.onRunQueued?.(wakeUps.wakeOne, wakeUps.wakeAll);
  // One look per interval for the whole process, only while some loop is idle.
  const poll = setInterval(wakeUps.wakeIdle, options.pollMs ?? POLL_MS);

  return {
    /** Wakes every idle loop to look for runs now. */
    wake: wakeUps.wakeAll,
    async stop() {
      stopping = true;
      clearInterval(poll);
      unsubscribe?.();
      wakeUps.stop();
      await runner.drain(options.drainMs ?? 10_000);
      await Promise.all(loops);
    },
  };
}
export type ExecutionWorker = ReturnType<typeof startExecutionWorker>;
