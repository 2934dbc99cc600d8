import { and, asc, eq, lte } from 'drizzle-orm';
import { workflows, type Db, type SqlExecutor } from '@crewline/db';
import type { TriggerConfig } from '@crewline/contracts';
import type { Logger } from 'pino';
import { AlreadyTakenError, type TriggersService } from './triggers.service';
import { createPollingLoop } from '../../platform/polling-loop';
import { nextTick } from './schedule';

/** How often a worker looks for due schedules by default. */
export const SCHEDULE_POLL_MS = 1000;
/** Due workflows one poll starts at most; the rest are due still and go in the next poll. */
const DUE_BATCH = 50;
/**
 * How late a tick may still start its run (a busy poll, a worker restarting). A tick older than this
 * was missed while no scheduler ran: it is skipped, not replayed.
 */
export const MISSED_TICK_GRACE_MS = 60_000;

export type DueSchedule = {
  id: string;
  organizationId: string;
  triggerConfig: TriggerConfig;
  nextRunAt: Date;
};

// A raw statement, so it can run on the executor of the run's transaction (PrepareRun). `updated_at`
// is kept: a tick is not an edit. Status and trigger type are re-checked so a pause or a change of
// trigger committed since the poll's select wins.
const CLAIM_SQL = `update workflows set next_run_at = $3, updated_at = updated_at
  where id = $1 and next_run_at = $2 and status = 'active' and trigger_type = 'schedule'`;

/**
 * The scheduler's reads and its one write (docs/decisions/0010-schedules-exactly-once.md).
 */
export function createSchedulesRepository(db: Db) {
  const pool: SqlExecutor = { executeSql: (text, values) => db.$client.query(text, values) };
  return {
    /** Active schedule workflows whose tick is due at `now`, oldest first (the partial index's scan). */
    async due(now: Date, limit = DUE_BATCH): Promise<DueSchedule[]> {
      const rows = await db
        .select({
          id: workflows.id,
          organizationId: workflows.organizationId,
          triggerConfig: workflows.triggerConfig,
          nextRunAt: workflows.nextRunAt,
        })
        .from(workflows)
        .where(
          and(
            eq(workflows.status, 'active'),
            eq(workflows.triggerType, 'schedule'),
            lte(workflows.nextRunAt, now),
          ),
        )
        .orderBy(asc(workflows.nextRunAt))
        .limit(limit);
      return rows.map((row) => ({ ...row, nextRunAt: row.nextRunAt! }));
    },
    /**
     * Moves the workflow from the tick `due` to `next` if nobody did meanwhile (compare-and-set), on
     * `executor` (the run's transaction) or on its own. Whether this call took the tick.
     */
    async claim(id: string, due: Date, next: Date | null, executor: SqlExecutor = pool): Promise<boolean> {
      const result = (await executor.executeSql(CLAIM_SQL, [id, due, next])) as { rowCount?: number | null };
      return (result.rowCount ?? 0) > 0;
    },
  };
}
export type SchedulesRepository = ReturnType<typeof createSchedulesRepository>;

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
    const next = () => nextTick(schedule.triggerConfig, new Date(Math.max(now().getTime(), due.getTime())));
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
