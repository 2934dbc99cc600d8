import type { Logger } from 'pino';
import type { EventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';
import { startClaimLoops } from '../../platform/notifications/claim-loops';
import type { EventLoopLoad } from '../../platform/event-loop-load';
import type { ExecutionRunner } from './execution-runner';

export type ExecutionWorkerOptions = {
  runner: ExecutionRunner;
  logger?: Logger;
  /** Runs this process works on at once (one claim loop each). */
  concurrency: number;
  /** Its run-control notifications wake an idle loop for each run queued or handed back; without one the loops only poll. */
  bus?: Pick<EventBus, 'listen'>;
  /** How often an idle worker looks for runs when nothing woke it (runs whose worker died, missed wake-ups). */
  pollMs?: number;
  /** On stop, how long running steps may take to finish and be stored before their runs are released. */
  drainMs?: number;
  /** The process's event-loop load: past a few runs at once, no more are claimed while it is busy. */
  load?: EventLoopLoad;
};

/**
 * Runs a worker takes on at once whatever its load. Past them, runs whose work keeps the process busy
 * (instant models, code, many steps) wait in the queue until it has time, and runs waiting on slow
 * models still fill every loop. Measured with an instant model on 2 cores (bench/README.md,
 * execution-throughput): 4 to 8 runs at once completed 205–229 runs/s where 16 completed 148–179.
 */
const STEADY_RUNS = 4;

/** How often an idle worker looks for a run when no NOTIFY woke it. */
const POLL_MS = 2000;

/**
 * The worker side of runs (docs/decisions/0014-runs-queued-in-their-table.md): the run's row is its
 * queue entry, and each of `concurrency` claim loops (platform/notifications/claim-loops.ts) claims
 * the oldest run free to run, in one statement that skips rows other workers are claiming (SKIP
 * LOCKED). "Free to run" includes a running run whose lease lapsed, so a run whose worker died is
 * resumed by the next claim: no separate sweep. A run queued or handed back (channels.runs) wakes
 * one idle loop; a cancel there is the runner's, not a wake-up.
 */
export function startExecutionWorker(options: ExecutionWorkerOptions) {
  const { runner, logger } = options;
  return startClaimLoops({
    channel: options.bus && {
      bus: options.bus,
      channel: channels.runs,
      wakes: (control) => control.type !== 'cancelled',
    },
    claimNext: () => runner.runNext(),
    concurrency: options.concurrency,
    pollMs: options.pollMs ?? POLL_MS,
    drain: () => runner.drain(options.drainMs ?? 10_000),
    // The run keeps its state; once its lease lapses, the next claim resumes it.
    onError: (err) => logger?.warn({ err }, 'run attempt ended with an error'),
    ...(options.load && { load: { busy: options.load.busy, steady: STEADY_RUNS } }),
  });
}
