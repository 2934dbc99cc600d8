import { randomUUID } from 'node:crypto';
import { getTableColumns, is, SQL, sql, type Placeholder } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  builtForColumns,
  nestedExtra,
  transactionWithExecutor,
  workflowExecutions,
  type Db,
  type SqlExecutor,
} from '@crewline/db';
import type { ExecuteWorkflowData, Execution, ExecutionTrigger } from '@crewline/contracts';
import {
  notificationParameters,
  notifiedByParameters,
  type StatementNotification,
} from '../../platform/notifications/statement';
import { readRuns, toExecution } from './run-reads.repository';
import { claimedRun, type Claimed, type ClaimColumns } from './run-claims.repository';
import { byId, type ExecutionRow } from './run-rows';
import { allowedRunSql } from '../billing/billing.columns';
import { newestVersionOf } from '../workflows/workflows.columns';
import { userDisplayName } from '../auth/users.columns';

/*
 * The statement every run starts with (executions.repository.ts composes it): the queued insert,
 * which checks the plan's month on the locked counter and sends the run's notifications itself.
 */

/**
 * `values` as the select list of an INSERT ... SELECT into `table`: every column drizzle inserts, in
 * its order, with the given value or else the column's default (a SELECT cannot say DEFAULT).
 */
export function insertSelectList(table: PgTable, values: Record<string, SQL | Placeholder>): SQL {
  const list = Object.entries(getTableColumns(table))
    // Drizzle's own rule: columns generated always (as stored expressions) are not written.
    .filter(([, { generated }]) => generated === undefined || generated.type === 'byDefault')
    .map(([key, column]) => {
      const type = sql.raw(column.getSQLType());
      const value = values[key];
      if (is(value, SQL)) return value;
      if (value !== undefined) return sql`${sql.param(value, column)}::${type}`;
      if (column.defaultFn) throw new Error(`${key}: a default made in JavaScript is not written out`);
      if (is(column.default, SQL)) return column.default;
      if (column.default !== undefined) return sql`${sql.param(column.default, column)}::${type}`;
      return sql`null::${type}`;
    });
  return sql.join(list, sql`, `);
}

/** How a start may hand its run to an idle worker loop of this process (local-claims.ts). */
export type StartClaim = {
  /** The columns a claim reads along with the run (the runner's). */
  columns: ClaimColumns;
  /** The claimed run's lease. */
  leaseMs: number;
  /** Gets the run when it was inserted claimed, after its statement committed. */
  claimed(run: Claimed<ClaimColumns>): void;
};

/** Names the claiming inserts' prepared statements apart (one for each set of claim columns, in any app). */
let claimingInsertCount = 0;

export function createRunStart(db: Db) {
  /**
   * createQueued's insert, on the database or on a transaction that writes more with it. Every run
   * starts with it: the database's is built once (queuedInsertStatement), its values are parameters.
   * It inserts the row only while the month's runs are under the plan's limit (`runLimit`), checked
   * on the locked counter in this same statement (allowedRunSql): no statement is added to a run's
   * start, and concurrent starts cannot pass the limit together. Refused, it inserts nothing.
   * With `claim` (a worker loop of this process is idle), the row is inserted already claimed when
   * claim_on_start (migration 0048) allows: running, attempt 1, under the lease `leaseUntil`, with
   * the claim's columns read along as a claim reads them. Otherwise it is pending, as without.
   */
  const queuedInsert = (q: Pick<Db, '$with' | 'with'>, claim?: ClaimColumns) => {
    const allowed = q.$with('allowed_run', { executions: sql<number>`executions` }).as(allowedRunSql);
    const runLimit = sql`${sql.placeholder('runLimit')}::integer`;
    // Decided once, after the month's limit passed (so the claims' lock is taken after the counter's,
    // in the order every start takes them); OFFSET 0 keeps it one evaluation for the four columns.
    const direct = claim
      ? sql`claim_on_start(${sql.placeholder('organizationId')}::uuid,
          ${sql.placeholder('concurrencyLimit')}::integer, ${sql.placeholder('claimNow')}::timestamptz)`
      : sql`false`;
    const claimed = sql.raw('"start"."claimed"');
    const returned = {
      ...getTableColumns(workflowExecutions),
      // Answered by the insert itself, so the run as queued needs no read after it.
      // Drizzle leaves returned columns unqualified, so the run's column is named in full.
      triggeredByName: userDisplayName(sql.raw('"workflow_executions"."triggered_by"')),
      notified: notifiedByParameters(),
    };
    // A claiming insert also reads the claim's columns, nested under `extra` as a claim has them.
    return q
      .with(allowed)
      .insert(workflowExecutions)
      .select(
        sql`select ${insertSelectList(workflowExecutions, {
          id: sql.placeholder('id'),
          organizationId: sql.placeholder('organizationId'),
          workflowId: sql.placeholder('workflowId'),
          // Pinned to the newest version in the same statement: a save committing meanwhile cannot split
          // them (or to the version asked for: an eval run's item).
          workflowVersion: sql`coalesce(${sql.placeholder('pinnedVersion')}::integer, ${newestVersionOf(
            sql`${sql.placeholder('workflowId')}::uuid`,
          )})`,
          status: sql`(case when ${claimed} then 'running' else 'pending' end)::execution_status`,
          attempt: sql`case when ${claimed} then 1 else 0 end`,
          startedAt: sql`case when ${claimed} then now() end`,
          leaseExpiresAt: sql`case when ${claimed} then ${sql.placeholder('leaseUntil')}::timestamptz end`,
          trigger: sql.placeholder('trigger'),
          triggerDetail: sql.placeholder('triggerDetail'),
          triggeredBy: sql.placeholder('triggeredBy'),
          input: sql.placeholder('input'),
          dynamicInstructions: sql.placeholder('dynamicInstructions'),
          parameters: sql.placeholder('parameters'),
          logs: sql.placeholder('logs'),
          retryOf: sql.placeholder('retryOf'),
          untrusted: sql.placeholder('untrusted'),
          mapItems: sql.placeholder('mapItems'),
          concurrencyLimit: sql.placeholder('concurrencyLimit'),
          traceParent: sql.placeholder('traceParent'),
        })}
        from (select ${direct} as "claimed"
          where ${runLimit} is null or exists (select 1 from ${allowed} where executions < ${runLimit})
          offset 0) as "start"`,
      )
      .returning(claim ? ({ ...returned, ...nestedExtra(claim) } as typeof returned) : returned);
  };
  const queuedInsertStatement = queuedInsert(db).prepare('create_queued_run');
  /** The claiming insert, built once for each set of claim columns (the runner's one, in practice). */
  const claimingInsert = builtForColumns((columns) =>
    queuedInsert(db, columns).prepare(`create_claimed_run_${++claimingInsertCount}`),
  );

  return {
    /**
     * Queues a run: the pending row is the queue's entry, and with `created` the same statement
     * publishes the created event (sent at commit), which also wakes an idle worker. With
     * `prepare`, what it writes (a retry's reused steps, a schedule's claim of its tick) commits in
     * one transaction with the row, which is then read back, as `prepare` may have changed it.
     * `runLimit` is the plan's runs a month (null: unlimited): when the month's count has reached it,
     * nothing is queued (nor prepared, nor published) and the answer is undefined.
     * With `claim` (and no `prepare`), the run may be inserted already claimed (queuedInsert): then
     * `claim.claimed` gets it, as a claim would have returned it, and it is answered as running.
     */
    async createQueued(
      organizationId: string,
      workflow: { id: string; name: string; processType: Execution['processType'] },
      started: {
        trigger: ExecutionTrigger;
        triggerDetail?: string | null;
        triggeredBy: string | null;
        untrusted?: boolean;
        /** The version it runs, when not the newest (an eval run's item). */
        pinnedVersion?: number;
      },
      request: ExecuteWorkflowData,
      options: {
        id?: string;
        prepare?: (executionId: string, executor: SqlExecutor) => Promise<unknown>;
        /** Sent by the insert when it queues the run: its created event, the workers' wake-up. */
        created?: StatementNotification[];
        runLimit?: number | null;
        /** The longest list the run's maps take: the plan's now (the engine's default when absent). */
        mapItems?: number;
        /** The organization's runs in progress at once, the plan's now (null or absent: no limit). */
        concurrencyLimit?: number | null;
        /** The W3C traceparent of the request starting it, when traces are exported. */
        traceParent?: string | null;
        /** The run this one retries (at most one retry per run: a second breaks RETRY_OF_UNIQUE). */
        retryOf?: string;
        /** An idle worker loop of this process would take the run at once (local-claims.ts). */
        claim?: StartClaim;
      } = {},
    ): Promise<Execution | undefined> {
      const values = {
        id: options.id ?? randomUUID(),
        organizationId,
        workflowId: workflow.id,
        trigger: started.trigger,
        triggerDetail: started.triggerDetail ?? null,
        triggeredBy: started.triggeredBy,
        input: request.input,
        dynamicInstructions: request.dynamicInstructions ?? null,
        parameters: request.parameters,
        logs: [{ at: new Date().toISOString(), level: 'info', message: 'Run queued' }],
        runLimit: options.runLimit ?? null,
        mapItems: options.mapItems ?? null,
        concurrencyLimit: options.concurrencyLimit ?? null,
        traceParent: options.traceParent ?? null,
        retryOf: options.retryOf ?? null,
        untrusted: started.untrusted ?? false,
        pinnedVersion: started.pinnedVersion ?? null,
        claimNow: null as Date | null,
        leaseUntil: null as Date | null,
        ...notificationParameters(...(options.created ?? [])),
      };
      const insert = (q: Pick<Db, '$with' | 'with'>) => queuedInsert(q).execute(values);
      const answer = ([queued]: Awaited<ReturnType<typeof insert>>) => {
        if (!queued) return undefined;
        const {
          triggeredByName,
          notified: _notified,
          extra: _extra,
          ...execution
        } = queued as typeof queued & {
          extra?: unknown;
        };
        return toExecution({
          execution,
          triggeredByName,
          workflowName: workflow.name,
          processType: workflow.processType,
          resultJson: null,
          retriedBy: null,
        });
      };
      const prepare = options.prepare;
      const { claim } = options;
      if (claim && !prepare) {
        values.claimNow = new Date();
        values.leaseUntil = new Date(values.claimNow.getTime() + claim.leaseMs);
        const rows = await claimingInsert(claim.columns).execute(values);
        const [row] = rows;
        if (row?.status === 'running') {
          const { triggeredByName: _name, notified: _notified, ...run } = row;
          claim.claimed(claimedRun(run as ExecutionRow & { extra?: unknown }));
        }
        return answer(rows);
      }
      if (!prepare) return answer(await queuedInsertStatement.execute(values));
      return transactionWithExecutor(db, async (tx, executor) => {
        const [row] = await insert(tx);
        if (!row) return undefined;
        await prepare(row.id, executor);
        return (await readRuns(tx, byId(row.id), 1))[0];
      });
    },
  };
}
