import { and, asc, eq, lte } from 'drizzle-orm';
import { workflows, type Db, type SqlExecutor } from '@crewline/db';
import type { TriggerConfig } from '@crewline/contracts';
import { nextTick } from './schedule';

/*
 * The schedule ticks of workflows (docs/decisions/0010-schedules-exactly-once.md): the workflows
 * module owns next_run_at; the scheduler (modules/triggers/scheduler.ts) reads due ticks and moves
 * them through this repository, given to it by the composition root.
 */

/** Due workflows one poll starts at most; the rest are due still and go in the next poll. */
const DUE_BATCH = 50;

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
    /** The tick after `after` of a schedule (workflows/schedule.ts): where `claim` moves a workflow. */
    nextTick,
  };
}
export type SchedulesRepository = ReturnType<typeof createSchedulesRepository>;
