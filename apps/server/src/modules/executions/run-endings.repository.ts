import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { approvals, workflowExecutions, type Db } from '@crewline/db';
import type { ExecutionLog } from '@crewline/contracts';
import {
  notificationParameters,
  notified,
  notifiedByParameters,
  type StatementNotification,
} from '../../platform/notifications/statement';
import { appendLogs, byId, owned, unfinished, type ExecutionRow } from './run-rows';

/*
 * The statements that end a run (executions.repository.ts composes them): a worker's finish, a
 * user's cancel, and the abandon of a run whose workers kept dying.
 */

type Json = Record<string, unknown>;

/** The fields a run's finish may write besides its status, error, end and logs. */
type FinishFields = 'output' | 'metrics' | 'result';

export function createRunEndings(db: Db) {
  /**
   * finish's statement for one set of fields, built on first use: every run ends with one, and a
   * run's end writes one of a few sets (a completed run its output, metrics and result).
   */
  const finishStatement = (fields: readonly FinishFields[]) =>
    db
      .update(workflowExecutions)
      .set({
        status: sql`${sql.placeholder('status')}`,
        ...Object.fromEntries(fields.map((field) => [field, sql`${sql.placeholder(field)}::jsonb`])),
        error: sql`${sql.placeholder('error')}`,
        failedStep: sql`${sql.placeholder('failedStep')}`,
        completedAt: sql`${sql.placeholder('completedAt')}::timestamptz`,
        leaseExpiresAt: null,
        waiting: null,
        logs: appendLogs(sql.placeholder('logs')),
      })
      .where(owned(sql.placeholder('id'), sql.placeholder('attempt')))
      .returning({ id: workflowExecutions.id, notified: notifiedByParameters() })
      .prepare(`finish_run${fields.map((field) => `_${field}`).join('')}`);
  const finishStatements = new Map<string, ReturnType<typeof finishStatement>>();

  return {
    /**
     * pending|running → cancelled; undefined when the run is not the organization's or already over.
     * `notify` leaves from the update itself when it cancels the run (its event, the worker's abort).
     */
    async cancel(
      organizationId: string,
      id: string,
      notify: StatementNotification[] = [],
    ): Promise<ExecutionRow | undefined> {
      const [row] = await db
        .update(workflowExecutions)
        .set({
          status: 'cancelled',
          completedAt: new Date(),
          leaseExpiresAt: null,
          waiting: null,
          wakeAt: null,
          error: 'Cancelled by a user',
          logs: appendLogs([{ at: new Date().toISOString(), level: 'warn', message: 'Cancelled by a user' }]),
        })
        .where(
          and(
            eq(workflowExecutions.organizationId, organizationId),
            byId(id),
            inArray(workflowExecutions.status, unfinished),
          ),
        )
        .returning({ ...getTableColumns(workflowExecutions), notified: notified(...notify) });
      if (!row) return undefined;
      // A waiting run's approval waits no more: nobody can decide it now.
      if (row.status === 'cancelled')
        await db
          .update(approvals)
          .set({ status: 'cancelled', decidedAt: row.completedAt })
          .where(and(eq(approvals.executionId, id), eq(approvals.status, 'pending')));
      const { notified: _notified, ...cancelled } = row;
      return cancelled;
    },

    /**
     * Ends the attempt: running → completed|failed, only if it is still this attempt's (then true).
     * Nothing of the row comes back: by now it holds every step's output and log, for nobody to read.
     */
    async finish(
      id: string,
      attempt: number,
      end: {
        status: 'completed' | 'failed';
        output?: Json;
        metrics?: Json;
        /** The engine's final answer, for a completed run. */
        result?: unknown;
        error?: string | null;
        /** The name of the step whose failure ended the run. */
        failedStep?: string | null;
        logs: ExecutionLog[];
      },
      /** The run's end event, sent by this statement when it ends the run. */
      notify?: StatementNotification,
    ): Promise<boolean> {
      const fields = (['output', 'metrics', 'result'] as const).filter((field) => end[field] !== undefined);
      const key = fields.join();
      let statement = finishStatements.get(key);
      if (!statement) finishStatements.set(key, (statement = finishStatement(fields)));
      const rows = await statement.execute({
        id,
        attempt,
        status: end.status,
        ...Object.fromEntries(fields.map((field) => [field, JSON.stringify(end[field])])),
        error: end.error ?? null,
        failedStep: end.failedStep ?? null,
        completedAt: new Date(),
        logs: JSON.stringify(end.logs),
        ...notificationParameters(notify),
      });
      return rows.length === 1;
    },

    /** Gives up on a run whose workers kept dying, with the reason. */
    async abandon(id: string, attempt: number, reason: string): Promise<ExecutionRow | undefined> {
      const [row] = await db
        .update(workflowExecutions)
        .set({
          status: 'failed',
          error: reason,
          completedAt: new Date(),
          leaseExpiresAt: null,
          logs: appendLogs([{ at: new Date().toISOString(), level: 'error', message: reason }]),
        })
        .where(
          and(
            byId(id),
            eq(workflowExecutions.attempt, attempt),
            inArray(workflowExecutions.status, unfinished),
          ),
        )
        .returning();
      return row;
    },
  };
}
