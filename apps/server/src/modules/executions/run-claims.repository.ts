import { and, getTableColumns, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { builtForColumns, nestedExtra, workflowExecutions, type Db, type ExtraColumns } from '@crewline/db';
import { channels } from '../../platform/notifications/channels';
import { wakeUpColumn } from '../../platform/notifications/statement';
import { appendLogs, byId, owned, type ExecutionRow } from './run-rows';

/*
 * How workers own runs (executions.repository.ts composes it): the claim of one run or of the queue's
 * oldest, the lease an attempt renews, and the hand-back of a stopping worker.
 */

/** The run a worker now owns, with the attempt number its writes must carry. */
type ClaimedRun = ExecutionRow & { resumed: boolean };

/** Free to run: pending, or running with a lease that lapsed (its worker died); `runs` may be an alias. */
// The statuses are written into the text, not sent as parameters: the claim is a prepared statement,
// and only literals let its one plan for every call prove the queue's partial index applies.
const claimable = (
  now: Date | Placeholder | SQL,
  runs: { status: PgColumn; leaseExpiresAt: PgColumn } = workflowExecutions,
) => sql`(${runs.status} = 'pending' or (${runs.status} = 'running' and ${runs.leaseExpiresAt} < ${now}))`;

/**
 * Columns another module reads along with a claim, in the same statement (SQL over the claimed row,
 * which is named "workflow_executions"): the run's agents, their tools and connections.
 */
export type ClaimColumns = ExtraColumns;
/** The claimed run, and the values of the claim's extra columns. */
export type Claimed<Extra extends ClaimColumns> = ClaimedRun & { extra: { [K in keyof Extra]: unknown } };

/** A claimed row as a worker gets it (also a run inserted already claimed, run-start.repository.ts). */
export function claimedRun<Extra extends ClaimColumns>(
  row: ExecutionRow & { extra?: unknown },
): Claimed<Extra> {
  const { extra, ...run } = row;
  return { ...run, resumed: run.attempt > 1, extra: (extra ?? {}) as Claimed<Extra>['extra'] };
}

/** The queue's other runs, beside the one a claim takes. */
const otherRuns = alias(workflowExecutions, 'other_runs');

/**
 * The claimed row's columns as claim_next_run returns them (drizzle checks a table's own columns
 * against the FROM, which here is the function), each decoded as its column is.
 */
const claimedColumns = Object.fromEntries(
  Object.entries(getTableColumns(workflowExecutions)).map(([key, column]) => [
    key,
    sql.raw(`"workflow_executions"."${column.name}"`).mapWith(column),
  ]),
) as Record<keyof ExecutionRow, SQL<unknown>>;

/** Names claimNext's prepared statements apart (one for each set of extra columns). */
let claimNextStatementCount = 0;

/** A claim: a new attempt, running under a fresh lease. */
const claimed = (leaseUntil: Date | SQL) => ({
  status: 'running' as const,
  attempt: sql`${workflowExecutions.attempt} + 1`,
  startedAt: sql`coalesce(${workflowExecutions.startedAt}, now())`,
  leaseExpiresAt: leaseUntil,
});

export function createRunClaims(db: Db) {
  /**
   * claimNext's statement, built once for each set of extra columns (the run's agents, tools and
   * connections make it long: building it anew was a fifth of a claim's CPU); the clock comes as
   * parameters. The claim itself is the database's claim_next_run (migration 0047): the fair pick
   * among organizations under their concurrency limits, which needs a lock and a fresh look taken
   * between its reads; the row it returns is named "workflow_executions" for the columns read with it.
   */
  const claimNextStatement = builtForColumns((extra) => {
    const now = sql.placeholder('now');
    const claim = sql`claim_next_run(${now}::timestamptz, ${sql.placeholder('leaseUntil')}::timestamptz) as "workflow_executions"`;
    return db
      .select({
        ...claimedColumns,
        // The other runs under an alias, as the claimed row is "workflow_executions". A hint (whether
        // to look again at once), on the database's clock: with no parameter left that changes its
        // estimates, Postgres keeps one plan for the statement rather than planning each claim anew
        // (measured at 10 clients: 466 → 353 µs of Postgres CPU to bind it).
        more: sql<boolean>`exists (${db
          .select({ one: sql`1` })
          .from(otherRuns)
          .where(and(claimable(sql`now()`, otherRuns), ne(otherRuns.id, sql`"workflow_executions"."id"`)))})`,
        ...nestedExtra(extra),
      })
      .from(claim)
      .prepare(`claim_next_${++claimNextStatementCount}`);
  });

  return {
    /**
     * Takes the run for a new attempt: a pending run, or a running one whose lease lapsed (its worker
     * died). The attempt number goes up, so the previous attempt's writes no longer match.
     */
    async claim<Extra extends ClaimColumns>(
      id: string,
      leaseMs: number,
      extra = {} as Extra,
    ): Promise<Claimed<Extra> | undefined> {
      const now = new Date();
      const [row] = await db
        .update(workflowExecutions)
        .set(claimed(new Date(now.getTime() + leaseMs)))
        .where(and(byId(id), claimable(now)))
        .returning({ ...getTableColumns(workflowExecutions), ...nestedExtra(extra) });
      return row && claimedRun<Extra>(row);
    },

    /**
     * The queue's take: claims a run free to run (pending, or running with a lapsed lease) fairly
     * between organizations (docs/decisions/0050-fair-claims.md): the organization using the least
     * share of its concurrency limit first, then its oldest run; one at its limit waits. Rows another
     * worker is claiming at the same moment are skipped; one statement. `more` says
     * whether another run was waiting, so a worker that finishes knows whether to look again.
     */
    async claimNext<Extra extends ClaimColumns>(
      leaseMs: number,
      extra = {} as Extra,
    ): Promise<(Claimed<Extra> & { more: boolean }) | undefined> {
      const statement = claimNextStatement(extra);
      const now = new Date();
      const [row] = await statement.execute({ now, leaseUntil: new Date(now.getTime() + leaseMs) });
      if (!row) return undefined;
      const { more, ...run } = row;
      return { ...claimedRun<Extra>(run as ExecutionRow & { extra?: unknown }), more: more as boolean };
    },

    /** Extends the attempt's lease; false once the run is no longer this attempt's (cancelled, taken over). */
    async renewLease(id: string, attempt: number, leaseMs: number): Promise<boolean> {
      const rows = await db
        .update(workflowExecutions)
        .set({ leaseExpiresAt: new Date(Date.now() + leaseMs) })
        .where(owned(id, attempt))
        .returning({ id: workflowExecutions.id });
      return rows.length === 1;
    },

    /** A stopping worker hands the run back: its lease lapses now, and a worker is woken to resume it. */
    async release(id: string, attempt: number): Promise<void> {
      await db
        .update(workflowExecutions)
        .set({
          leaseExpiresAt: new Date(Date.now() - 1),
          handedBack: sql`${workflowExecutions.handedBack} + 1`,
          logs: appendLogs([
            {
              at: new Date().toISOString(),
              level: 'warn',
              message: 'Paused: the worker is stopping; the run resumes from its finished steps',
            },
          ]),
        })
        .where(owned(id, attempt))
        .returning({
          woke: wakeUpColumn(
            channels.runs,
            sql`${channels.runs.encode({ type: 'handed_back', executionId: id })}`,
          ),
        });
    },
  };
}
