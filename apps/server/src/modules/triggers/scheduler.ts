import type { Logger } from 'pino';
import { AlreadyTakenError, type TriggersService } from './triggers.service';
import { createPollingLoop } from '../../platform/polling-loop';
import type { DueSchedule, SchedulesRepository } from '../workflows/workflows.service';

/** How often a worker looks for due schedules by default. */
const SCHEDULE_POLL_MS = 1000;
/**
 * How late a tick may still start its run (a busy poll, a worker restarting). A tick older than this
 * was missed while no scheduler ran: it is skipped, not replayed.
 */
const MISSED_TICK_GRACE_MS = 60_000;

export type SchedulerOptions = {
  repository: SchedulesRepository;
  triggers: Pick<TriggersService, 'fire'>;
  logger?: Pick<Logger, 'warn' | 'info' | 'debug'>;
  /** Between polls (SCHEDULE_POLL_MS by default). */
  pollMs?: number;
  /** The clock (tests move it); the wall clock by default. */
  now?: () => Date;
};

/**
 * Fires the runs of schedule triggers. Every worker process runs one; each poll is one indexed select
 * when nothing is due. For each due workflow it fires a run whose start transaction also moves
 * `next_run_at` from the due tick to the next one after now (compare-and-set): of any number of
 * schedulers that saw the tick, exactly one commits a run, the others roll back (AlreadyTakenError).
 * Ticks missed while no scheduler ran are not replayed: one overdue by more than MISSED_TICK_GRACE_MS
 * starts no run, and the next tick is counted from now.
 */
export function createScheduler(options: SchedulerOptions) {
  const { repository, triggers, logger } = options;
  const now = options.now ?? (() => new Date());

  async function fireOne(schedule: DueSchedule): Promise<'started' | 'taken' | 'skipped' | 'failed'> {
    const due = schedule.nextRunAt;
    const next = () =>
      repository.nextTick(schedule.triggerConfig, new Date(Math.max(now().getTime(), due.getTime())));
    if (now().getTime() - due.getTime() > MISSED_TICK_GRACE_MS) {
      try {
        if (await repository.claim(schedule.id, due, next()))
          logger?.info(
            { workflowId: schedule.id, due },
            'a schedule tick missed while no worker ran was skipped',
          );
      } catch (err) {
        logger?.warn({ err, workflowId: schedule.id }, 'could not move a schedule to its next tick');
      }
      return 'skipped';
    }
    try {
      await triggers.fire({
        organizationId: schedule.organizationId,
        workflowId: schedule.id,
        trigger: 'schedule',
        input: {
          scheduledAt: due.toISOString(),
          cron: schedule.triggerConfig.cron ?? null,
          timezone: schedule.triggerConfig.timezone || 'UTC',
        },
        prepare: async (_executionId, executor) => {
          if (!(await repository.claim(schedule.id, due, next(), executor))) throw new AlreadyTakenError();
        },
      });
      return 'started';
    } catch (error) {
      if (error instanceof AlreadyTakenError) return 'taken';
      // The workflow could not start (fire() kept why on it): move on to the next tick rather than
      // trying again every poll. If the database is what failed, this fails too and the tick stays due.
      logger?.warn({ err: error, workflowId: schedule.id }, 'a scheduled run could not start');
      try {
        await repository.claim(schedule.id, due, next());
      } catch (err) {
        logger?.warn({ err, workflowId: schedule.id }, 'could not move a schedule to its next tick');
      }
      return 'failed';
    }
  }

  /** One look for due schedules; how many runs it started. Never throws. */
  async function poll(): Promise<number> {
    let due: DueSchedule[];
    try {
      due = await repository.due(now());
    } catch (err) {
      logger?.warn({ err }, 'could not look for due schedules');
      return 0;
    }
    let started = 0;
    for (const schedule of due) if ((await fireOne(schedule)) === 'started') started++;
    return started;
  }

  const loop = createPollingLoop(poll, options.pollMs ?? SCHEDULE_POLL_MS);
  return {
    poll,
    /** Polls now and then every `pollMs` until stop(). */
    start: loop.start,
    /** No poll starts after this; resolves once the one in progress has ended. */
    stop: loop.stop,
  };
}
export type Scheduler = ReturnType<typeof createScheduler>;

export function startScheduler(options: SchedulerOptions): Scheduler {
  const scheduler = createScheduler(options);
  scheduler.start();
  return scheduler;
}
