import type { Job } from 'pg-boss';
import type { Logger } from 'pino';
import { EXECUTION_QUEUE, executionQueue, type ExecutionJobData, type Queue } from '../../platform/queue';
import type { ExecutionRunner } from './execution-runner';

export type ExecutionWorkerOptions = {
  boss: Queue;
  runner: ExecutionRunner;
  logger?: Logger;
  /** Runs this process works on at once (one fetch loop each). */
  concurrency: number;
  /** How often to look for runs whose worker died; a fraction of the lease. */
  sweepEveryMs: number;
  /**
   * Subscribes to "a job was just queued" (Postgres NOTIFY): `wakeOne` for each job, `wakeAll` when
   * notifications may have been missed. Returns the unsubscribe.
   */
  onJobQueued?: (wakeOne: () => void, wakeAll: () => void) => () => void;
  /** On stop, how long running steps may take to finish and be stored before their runs are released. */
  drainMs?: number;
};

/** How often an idle worker asks the queue for a job when no NOTIFY woke it. */
const POLL_MS = 2000;

/**
 * The worker side of runs: each of `concurrency` loops fetches one job at a time (pg-boss, SKIP
 * LOCKED, so each job goes to one worker), a NOTIFY at commit wakes idle loops at once instead of at
 * the next poll, and a sweeper re-sends runs whose worker died so they resume elsewhere — nothing
 * stays `running` forever.
 *
 * The loops are ours rather than pg-boss's `work()`, whose worker waits out its polling interval
 * after every job unless a NOTIFY arrived meanwhile (its burst modes need batches of several jobs or
 * a queue-size cache refreshed each minute): a backlog, such as the runs the sweeper re-sends after
 * a crash, would drain one run per loop per poll. Ours fetch again as soon as a run ends and only
 * sleep on an empty queue. Every queue call is caught, so a database outage never ends a loop.
 */
export async function startExecutionWorker(options: ExecutionWorkerOptions) {
  const { boss, runner, logger } = options;
  const queue = executionQueue(boss);
  let stopping = false;

  // Wake-ups are counted, so one that arrives while a loop is fetching is not slept through. A job
  // wakes one idle loop: waking them all made every loop fetch for each job, all but one in vain.
  let wakeups = 0;
  const sleepers = new Set<() => void>();
  const wake = (loops = Number.POSITIVE_INFINITY) => {
    wakeups++;
    for (const resume of [...sleepers].slice(0, loops)) resume();
  };
  const wakeOne = () => wake(1);
  const idle = (seen: number) =>
    new Promise<void>((resolve) => {
      if (stopping || wakeups !== seen) return resolve();
      const resume = () => {
        clearTimeout(timer);
        sleepers.delete(resume);
        resolve();
      };
      const timer = setTimeout(resume, POLL_MS);
      sleepers.add(resume);
    });

  async function workLoop() {
    while (!stopping) {
      const seen = wakeups;
      let job: Job<ExecutionJobData> | undefined;
      try {
        [job] = await boss.fetch<ExecutionJobData>(EXECUTION_QUEUE, { batchSize: 1 });
      } catch (err) {
        logger?.warn({ err }, 'could not fetch a run from the queue');
      }
      if (!job) {
        await idle(seen);
        continue;
      }
      // Fetched while stopping: left for another worker (with no live job, the sweeper re-sends the run).
      let failed: boolean = stopping;
      if (!stopping) {
        try {
          await runner.run(job.data.executionId);
        } catch (err) {
          // The run keeps its state; the sweeper resumes it once its lease lapses.
          failed = true;
          logger?.warn({ err, executionId: job.data.executionId }, 'run attempt ended with an error');
        }
      }
      // A job is only a wake-up call: the run's row says how it went. A lost write here is harmless.
      // Passing the job, not its id, settles only the attempt this loop fetched.
      await (failed ? boss.fail(EXECUTION_QUEUE, job) : boss.complete(EXECUTION_QUEUE, job)).catch(
        (err: unknown) => logger?.warn({ err, jobId: job.id }, 'could not mark a queue job done'),
      );
    }
  }
  const loops = Array.from({ length: options.concurrency }, () => workLoop());
  const unsubscribe = options.onJobQueued?.(wakeOne, () => wake());

  let sweeping = false;
  async function sweep() {
    if (sweeping) return;
    sweeping = true;
    try {
      const orphans = await runner.orphans(EXECUTION_QUEUE);
      for (const run of orphans) {
        logger?.warn(
          { executionId: run.id, status: run.status, attempt: run.attempt },
          're-queueing an orphaned run',
        );
        await queue.enqueue(run.id);
      }
      if (orphans.length > 0) wake(orphans.length);
    } catch (err) {
      logger?.warn({ err }, 'sweep for orphaned runs failed');
    } finally {
      sweeping = false;
    }
  }
  // At start-up first: runs a crashed predecessor left behind resume as soon as their lease lapses.
  await sweep();
  const sweeper = setInterval(() => void sweep(), options.sweepEveryMs);

  return {
    wake: () => wake(),
    sweep,
    async stop() {
      stopping = true;
      clearInterval(sweeper);
      unsubscribe?.();
      wake();
      await runner.drain(options.drainMs ?? 10_000);
      await Promise.all(loops);
    },
  };
}
export type ExecutionWorker = Awaited<ReturnType<typeof startExecutionWorker>>;
