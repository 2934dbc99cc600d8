import type { Logger } from 'pino';
import { EXECUTION_QUEUE, executionQueue, type Queue } from '../../platform/queue';
import type { ExecutionRunner } from './execution-runner';

export type ExecutionWorkerOptions = {
  boss: Queue;
  runner: ExecutionRunner;
  logger?: Logger;
  /** Runs this process works on at once (one pg-boss worker each). */
  concurrency: number;
  /** How often to look for runs whose worker died; a fraction of the lease. */
  sweepEveryMs: number;
  /** Subscribes to "a job was just queued" (Postgres NOTIFY); returns the unsubscribe. */
  onJobQueued?: (wake: () => void) => () => void;
  /** On stop, how long running steps may take to finish and be stored before their runs are released. */
  drainMs?: number;
};

/**
 * The worker side of runs: pg-boss hands out jobs (SKIP LOCKED, so each job goes to one worker),
 * a NOTIFY at commit wakes idle workers at once instead of at the next poll, and a sweeper re-sends
 * runs whose worker died so they resume elsewhere — nothing stays `running` forever.
 */
export async function startExecutionWorker(options: ExecutionWorkerOptions) {
  const { boss, runner, logger } = options;
  const queue = executionQueue(boss);
  const workerIds: string[] = [];
  for (let i = 0; i < options.concurrency; i++) {
    let self = '';
    self = await boss.work<{ executionId: string }>(
      EXECUTION_QUEUE,
      { batchSize: 1, pollingIntervalSeconds: 2 },
      async ([job]) => {
        try {
          await runner.run(job.data.executionId);
        } finally {
          // pg-boss sleeps a polling interval after each job; a backlog must not drain at one run per
          // worker every 2 s, so fetch the next job at once (one empty fetch when the queue is empty).
          boss.notifyWorker(self);
        }
      },
    );
    workerIds.push(self);
  }
  const wake = () => workerIds.forEach((id) => boss.notifyWorker(id));
  const unsubscribe = options.onJobQueued?.(wake);

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
      if (orphans.length > 0) wake();
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
    wake,
    sweep,
    async stop() {
      clearInterval(sweeper);
      unsubscribe?.();
      await boss.offWork(EXECUTION_QUEUE);
      await runner.drain(options.drainMs ?? 10_000);
    },
  };
}
export type ExecutionWorker = Awaited<ReturnType<typeof startExecutionWorker>>;
