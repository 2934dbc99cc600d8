import { randomUUID } from 'node:crypto';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  inArray,
  is,
  lt,
  ne,
  or,
  SQL,
  sql,
  type Placeholder,
} from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import {
  agentExecutions,
  nestedExtra,
  organizationUsage,
  transactionWithExecutor,
  users,
  workflowExecutions,
  workflowVersions,
  workflows,
  type Db,
  type ExtraColumns,
  type SqlExecutor,
} from '@crewline/db';
import {
  EXECUTION_RESULT_PREVIEW_LENGTH,
  type ExecuteWorkflowData,
  type Execution,
  type ExecutionListFilters,
  type ExecutionLog,
  type ExecutionStatus,
  type ExecutionStep,
  type ExecutionTrigger,
  type ExecutionSummary,
  type NodeOutput,
} from '@crewline/contracts';
import { notified, type StatementNotification } from '../../platform/events';
import { withEndedRunMetrics } from './run-metrics';
import { stepsFrom } from './stored-steps';

type ExecutionRow = typeof workflowExecutions.$inferSelect;

/** Where a page of the run list ends: its last run's exact created_at (as Postgres prints it) and id. */
export type ExecutionsCursor = { at: string; id: string };
type Json = Record<string, unknown>;

/** An agent_executions row as the runner writes it (ExecutionStep without status, with Dates). */
type StepWrite<S extends ExecutionStep['status']> = Omit<
  Extract<ExecutionStep, { status: S }>,
  'status' | 'startedAt' | 'completedAt'
> & { startedAt: Date; completedAt: Date };

/** A step a worker finished: the checkpoint a later attempt resumes from. */
export type StepRecord = StepWrite<'completed'> & {
  /** 'pending' when the step's node sends its output somewhere (markDelivered once sent). */
  delivery: 'pending' | null;
  /** The run's log lines not stored yet: they land with the step, so a crash loses none before it. */
  runLogs: ExecutionLog[];
};

/** The run a worker now owns, with the attempt number its writes must carry. */
export type ClaimedRun = ExecutionRow & { resumed: boolean };

const unfinished: ExecutionStatus[] = ['pending', 'running'];

/**
 * Workers listen here for runs handed back by a stopping worker (its id, sent at commit), so an idle
 * one resumes it at once instead of at its next poll; a queued run wakes them with its created event.
 */
export const RUNS_CHANNEL = 'crewline_jobs';

/** Free to run: pending, or running with a lease that lapsed (its worker died); `runs` may be an alias. */
// The statuses are written into the text, not sent as parameters: the claim is a prepared statement,
// and only literals let its one plan for every call prove the queue's partial index applies.
const claimable = (
  now: Date | Placeholder,
  runs: { status: PgColumn; leaseExpiresAt: PgColumn } = workflowExecutions,
) => sql`(${runs.status} = 'pending' or (${runs.status} = 'running' and ${runs.leaseExpiresAt} < ${now}))`;

/**
 * Columns another module reads along with a claim, in the same statement (SQL over the claimed row,
 * which is named "workflow_executions"): the run's agents, their tools and connections.
 */
export type ClaimColumns = ExtraColumns;
/** The claimed run, and the values of the claim's extra columns. */
export type Claimed<Extra extends ClaimColumns> = ClaimedRun & { extra: { [K in keyof Extra]: unknown } };

function claimedRun<Extra extends ClaimColumns>(row: ExecutionRow & { extra?: unknown }): Claimed<Extra> {
  const { extra, ...run } = row;
  return { ...run, resumed: run.attempt > 1, extra: (extra ?? {}) as Claimed<Extra>['extra'] };
}

/** The queue's other runs, beside the one a claim takes. */
const otherRuns = alias(workflowExecutions, 'other_runs');

/** A run's retry, if any: one probe of the unique retry_of index per run, in the run's own read. */
// Aliased, so "workflow_executions" is the outer run of the list or details read.
const retriedBy = sql<string | null>`(select r.id from ${workflowExecutions} r
  where r.retry_of = ${workflowExecutions.id})`;

/** The unique index that lets a run be retried once: a second retry's insert breaks it. */
const RETRY_OF_UNIQUE = 'workflow_executions_retry_of_unique';

/** The insert broke RETRY_OF_UNIQUE: another retry of the same run committed first. */
export function isRetryTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pg = e.cause?.code ? e.cause : e;
  return pg.code === '23505' && pg.constraint === RETRY_OF_UNIQUE;
}

/** Names claimNext's prepared statements apart (one for each set of extra columns). */
let claimNextStatementCount = 0;

/** A claim: a new attempt, running under a fresh lease. */
const claimed = (leaseUntil: Date | SQL) => ({
  status: 'running' as const,
  attempt: sql`${workflowExecutions.attempt} + 1`,
  startedAt: sql`coalesce(${workflowExecutions.startedAt}, now())`,
  leaseExpiresAt: leaseUntil,
});

/** `notified` in a statement built once: the channel and payload are its parameters, null for no event. */
const notifiedByParameters = sql<null>`case when ${sql.placeholder('channel')}::text is null then null
  else pg_notify(${sql.placeholder('channel')}, ${sql.placeholder('payload')}) end`;
const notificationParameters = (notify: StatementNotification | undefined) => ({
  channel: notify?.channel ?? null,
  payload: notify?.payload ?? null,
});

/**
 * `values` as the select list of an INSERT ... SELECT into `table`: every column drizzle inserts, in
 * its order, with the given value or else the column's default (a SELECT cannot say DEFAULT).
 */
function insertSelectList(table: PgTable, values: Record<string, SQL | Placeholder>): SQL {
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

/**
 * The month's run counter of the run's organization (organization_usage, the month of now() in UTC,
 * as the counting trigger files it), locked until the run's insert commits and returned only while
 * it is under the plan's limit (`runLimit`; null: unlimited, the row is locked all the same). It inserts a missing month at 0 or locks the existing one; either way a concurrent start
 * waits for this one to commit and then reads the count it left, so no two starts see the same last
 * free run. The no-op update is what returns the locked row's newest count.
 */
const allowedRunSql = sql`insert into ${organizationUsage} as u (organization_id, month, executions)
  values (${sql.placeholder('organizationId')}::uuid, date_trunc('month', now() at time zone 'UTC')::date, 0)
  on conflict (organization_id, month) do update set executions = u.executions
    where u.executions < ${sql.placeholder('runLimit')}::integer
  returning executions`;

/** The fields a run's finish may write besides its status, error, end and logs. */
type FinishFields = 'output' | 'metrics' | 'result';

export function createExecutionsRepository(db: Db) {
  const byId = (id: string | Placeholder) => eq(workflowExecutions.id, id);
  /** Writes of an attempt land only while it is still the run's current, running attempt. */
  const owned = (id: string | Placeholder, attempt: number | Placeholder) =>
    and(byId(id), eq(workflowExecutions.attempt, attempt), eq(workflowExecutions.status, 'running'));
  /** The run's log lines, then `logs` (a placeholder for their JSON in a statement built once). */
  const appendLogs = (logs: ExecutionLog[] | Placeholder) =>
    sql`coalesce(${workflowExecutions.logs}, '[]'::jsonb) || ${Array.isArray(logs) ? JSON.stringify(logs) : logs}::jsonb`;
  /**
   * claimNext's statement, built once for each set of extra columns (the run's agents, tools and
   * connections make it long: building it anew was a fifth of a claim's CPU); the clock comes as
   * parameters.
   */
  const claimNextStatement = (extra: ClaimColumns) => {
    const now = sql.placeholder('now');
    const next = db
      .select({ id: workflowExecutions.id })
      .from(workflowExecutions)
      .where(claimable(now))
      .orderBy(asc(workflowExecutions.createdAt))
      .limit(1)
      .for('update', { skipLocked: true });
    return db
      .update(workflowExecutions)
      .set(claimed(sql`${sql.placeholder('leaseUntil')}::timestamptz`))
      .where(eq(workflowExecutions.id, sql`(${next})`))
      .returning({
        ...getTableColumns(workflowExecutions),
        // The other runs under an alias, as the claimed row is "workflow_executions".
        more: sql<boolean>`exists (${db
          .select({ one: sql`1` })
          .from(otherRuns)
          .where(and(claimable(now, otherRuns), ne(otherRuns.id, sql`"workflow_executions"."id"`)))})`,
        ...nestedExtra(extra),
      })
      .prepare(`claim_next_${++claimNextStatementCount}`);
  };
  const claimNextStatements = new WeakMap<ClaimColumns, ReturnType<typeof claimNextStatement>>();

  /**
   * createQueued's insert, on the database or on a transaction that writes more with it. Every run
   * starts with it: the database's is built once (queuedInsertStatement), its values are parameters.
   * It inserts the row only while the month's runs are under the plan's limit (`runLimit`), checked
   * on the locked counter in this same statement (allowedRunSql): no statement is added to a run's
   * start, and concurrent starts cannot pass the limit together. Refused, it inserts nothing.
   */
  const queuedInsert = (q: Pick<Db, '$with' | 'with'>) => {
    const allowed = q.$with('allowed_run', { executions: sql<number>`executions` }).as(allowedRunSql);
    const runLimit = sql`${sql.placeholder('runLimit')}::integer`;
    return q
      .with(allowed)
      .insert(workflowExecutions)
      .select(
        sql`select ${insertSelectList(workflowExecutions, {
          id: sql.placeholder('id'),
          organizationId: sql.placeholder('organizationId'),
          workflowId: sql.placeholder('workflowId'),
          // Pinned to the newest version in the same statement: a save committing meanwhile cannot split them.
          workflowVersion: sql`(select max(${workflowVersions.version}) from ${workflowVersions}
            where ${workflowVersions.workflowId} = ${sql.placeholder('workflowId')}::uuid)`,
          trigger: sql.placeholder('trigger'),
          triggeredBy: sql.placeholder('triggeredBy'),
          input: sql.placeholder('input'),
          dynamicInstructions: sql.placeholder('dynamicInstructions'),
          parameters: sql.placeholder('parameters'),
          logs: sql.placeholder('logs'),
          retryOf: sql.placeholder('retryOf'),
        })}
        where ${runLimit} is null or exists (select 1 from ${allowed} where executions < ${runLimit})`,
      )
      .returning({
        ...getTableColumns(workflowExecutions),
        // Answered by the insert itself, so the run as queued needs no read after it.
        // Drizzle leaves returned columns unqualified, so the subquery names its tables itself.
        triggeredByName: sql<string | null>`(select
          coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), u.username)
          from users u where u.id = "workflow_executions"."triggered_by")`,
        notified: notifiedByParameters,
      });
  };
  const queuedInsertStatement = queuedInsert(db).prepare('create_queued_run');

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
        logs: appendLogs(sql.placeholder('logs')),
      })
      .where(owned(sql.placeholder('id'), sql.placeholder('attempt')))
      .returning({ id: workflowExecutions.id, notified: notifiedByParameters })
      .prepare(`finish_run${fields.map((field) => `_${field}`).join('')}`);
  const finishStatements = new Map<string, ReturnType<typeof finishStatement>>();

  /** Who started a run, as the API names them: their full name, else their username. */
  const starterName = (user: typeof users) =>
    sql<
      string | null
    >`coalesce(nullif(trim(concat_ws(' ', ${user.firstName}, ${user.lastName})), ''), ${user.username})`;

  /**
   * A run's stored steps with their records, in the order they ended, as one jsonb column of the
   * run's read (the details only: list endpoints never read it).
   */
  const stepsColumn = sql<unknown>`(select coalesce(jsonb_agg(jsonb_build_object(
      'status', a.status, 'nodeId', a.node_id, 'baseNodeId', coalesce(a.base_node_id, a.node_id),
      'agentId', a.agent_id, 'logs', coalesce(a.logs, '[]'::jsonb), 'startedAt', a.started_at,
      'completedAt', a.completed_at, 'record', a.input, 'output', a.output, 'metrics', a.metrics,
      'error', a.error) order by a.completed_at, a.id), '[]'::jsonb)
    from ${agentExecutions} a where a.workflow_execution_id = ${workflowExecutions.id} and a.node_id is not null)`;

  /** Runs as the API answers them; `q` is a transaction when the read must see its own writes. */
  async function select(
    where: SQL | undefined,
    limit: number,
    q: Pick<Db, 'select'> = db,
    options: { steps?: boolean } = {},
  ): Promise<Execution[]> {
    const rows = await q
      .select({
        execution: workflowExecutions,
        workflowName: workflows.name,
        processType: workflows.processType,
        triggeredByName: starterName(users),
        // As text, parsed here: drizzle's jsonb reader would parse a string answer that is itself JSON again.
        resultJson: sql<string | null>`${workflowExecutions.result}::text`,
        steps: options.steps ? stepsColumn : sql<unknown>`null`,
        retriedBy,
      })
      .from(workflowExecutions)
      .leftJoin(workflows, eq(workflows.id, workflowExecutions.workflowId))
      .leftJoin(users, eq(users.id, workflowExecutions.triggeredBy))
      .where(where)
      .orderBy(desc(workflowExecutions.createdAt))
      .limit(limit);
    return rows.map(({ steps, ...row }) => {
      const execution = toExecution(row);
      return options.steps ? { ...execution, steps: stepsFrom(steps) } : execution;
    });
  }

  function toExecution({
    execution: e,
    workflowName,
    processType,
    triggeredByName,
    resultJson,
    retriedBy: retriedById,
  }: {
    execution: ExecutionRow;
    workflowName: string | null;
    processType: Execution['processType'];
    triggeredByName: string | null;
    resultJson: string | null;
    retriedBy: string | null;
  }): Execution {
    return {
      id: e.id,
      workflowId: e.workflowId,
      workflowName,
      processType,
      status: e.status,
      workflowVersion: e.workflowVersion,
      input: e.input ?? {},
      dynamicInstructions: e.dynamicInstructions,
      parameters: e.parameters ?? {},
      // Written only from the engine's step outputs and metrics (recordStep, finish, reuseSteps) and
      // the runner's log lines, so the columns hold the contract's shapes.
      output: (e.output ?? {}) as Execution['output'],
      metrics: (e.metrics ?? {}) as Execution['metrics'],
      logs: (e.logs ?? []) as Execution['logs'],
      result: resultJson === null ? null : (JSON.parse(resultJson) as Execution['result']),
      error: e.error,
      failedStep: e.failedStep,
      retryOf: e.retryOf,
      retriedBy: retriedById,
      trigger: e.trigger,
      triggeredBy: e.triggeredBy,
      triggeredByName,
      startedAt: e.startedAt?.toISOString() ?? null,
      completedAt: e.completedAt?.toISOString() ?? null,
      createdAt: e.createdAt.toISOString(),
    };
  }

  return {
    /**
     * One page of the organization's run summaries, newest first (created_at, then id), optionally of one
     * workflow, status and trigger, created within [from, to). Keyset paging: `after` is the last row of the previous page, so a page
     * costs the same however deep it is and runs started meanwhile shift nothing. The heavy columns
     * (output, logs, metrics) are never read; the result is cut to its preview in the database.
     */
    async list(
      organizationId: string,
      options: ExecutionListFilters & { limit: number; after?: ExecutionsCursor },
    ): Promise<{ items: ExecutionSummary[]; next: ExecutionsCursor | null }> {
      const { createdAt, id } = workflowExecutions;
      const after = options.after;
      const rows = await db
        .select({
          id,
          workflowId: workflowExecutions.workflowId,
          workflowName: workflows.name,
          processType: workflows.processType,
          workflowVersion: workflowExecutions.workflowVersion,
          status: workflowExecutions.status,
          error: workflowExecutions.error,
          failedStep: workflowExecutions.failedStep,
          retryOf: workflowExecutions.retryOf,
          retriedBy,
          result: sql<string | null>`case jsonb_typeof(${workflowExecutions.result})
            when 'null' then null
            when 'string' then left(${workflowExecutions.result} #>> '{}', ${EXECUTION_RESULT_PREVIEW_LENGTH}::int)
            else left(${workflowExecutions.result}::text, ${EXECUTION_RESULT_PREVIEW_LENGTH}::int) end`,
          trigger: workflowExecutions.trigger,
          triggeredBy: workflowExecutions.triggeredBy,
          triggeredByName: starterName(users),
          startedAt: workflowExecutions.startedAt,
          completedAt: workflowExecutions.completedAt,
          createdAt,
          // The exact timestamp (microseconds) for the cursor: a JS Date keeps only milliseconds.
          cursorAt: sql<string>`${createdAt}::text`,
        })
        .from(workflowExecutions)
        .leftJoin(workflows, eq(workflows.id, workflowExecutions.workflowId))
        .leftJoin(users, eq(users.id, workflowExecutions.triggeredBy))
        .where(
          and(
            eq(workflowExecutions.organizationId, organizationId),
            options.workflowId ? eq(workflowExecutions.workflowId, options.workflowId) : undefined,
            options.status ? eq(workflowExecutions.status, options.status) : undefined,
            options.trigger ? eq(workflowExecutions.trigger, options.trigger) : undefined,
            // The window bounds created_at, the indexes' second column, so it narrows their scan too.
            options.from ? sql`${createdAt} >= ${options.from}::timestamptz` : undefined,
            options.to ? sql`${createdAt} < ${options.to}::timestamptz` : undefined,
            // `created_at <= t` alone lets the (organization_id, created_at) index bound the scan.
            after
              ? and(
                  sql`${createdAt} <= ${after.at}::timestamptz`,
                  or(sql`${createdAt} < ${after.at}::timestamptz`, lt(id, after.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(createdAt), desc(id))
        .limit(options.limit + 1);
      const page = rows.slice(0, options.limit);
      const last = page.at(-1);
      return {
        items: page.map(({ cursorAt: _cursorAt, startedAt, completedAt, createdAt: created, ...row }) => ({
          ...row,
          startedAt: startedAt?.toISOString() ?? null,
          completedAt: completedAt?.toISOString() ?? null,
          createdAt: created.toISOString(),
        })),
        next: rows.length > options.limit && last ? { at: last.cursorAt, id: last.id } : null,
      };
    },

    /**
     * A run's details, with its stored steps and their records (`steps`); a failed or cancelled run's
     * figures counted from its completed steps.
     */
    async get(organizationId: string, id: string): Promise<Execution | undefined> {
      const [execution] = await select(
        and(eq(workflowExecutions.organizationId, organizationId), byId(id)),
        1,
        db,
        { steps: true },
      );
      return execution && withEndedRunMetrics(execution);
    },

    /**
     * Queues a run: the pending row is the queue's entry, and with `created` the same statement
     * publishes the created event (sent at commit), which also wakes an idle worker. With
     * `prepare`, what it writes (a retry's reused steps, a schedule's claim of its tick) commits in
     * one transaction with the row, which is then read back, as `prepare` may have changed it.
     * `runLimit` is the plan's runs a month (null: unlimited): when the month's count has reached it,
     * nothing is queued (nor prepared, nor published) and the answer is undefined.
     */
    async createQueued(
      organizationId: string,
      workflow: { id: string; name: string; processType: Execution['processType'] },
      started: { trigger: ExecutionTrigger; triggeredBy: string | null },
      request: ExecuteWorkflowData,
      options: {
        id?: string;
        prepare?: (executionId: string, executor: SqlExecutor) => Promise<unknown>;
        created?: StatementNotification;
        runLimit?: number | null;
        /** The run this one retries (at most one retry per run: a second breaks RETRY_OF_UNIQUE). */
        retryOf?: string;
      } = {},
    ): Promise<Execution | undefined> {
      const values = {
        id: options.id ?? randomUUID(),
        organizationId,
        workflowId: workflow.id,
        trigger: started.trigger,
        triggeredBy: started.triggeredBy,
        input: request.input,
        dynamicInstructions: request.dynamicInstructions ?? null,
        parameters: request.parameters,
        logs: [{ at: new Date().toISOString(), level: 'info', message: 'Run queued' }],
        runLimit: options.runLimit ?? null,
        retryOf: options.retryOf ?? null,
        ...notificationParameters(options.created),
      };
      const insert = (q: Pick<Db, '$with' | 'with'>) => queuedInsert(q).execute(values);
      const answer = ([queued]: Awaited<ReturnType<typeof insert>>) => {
        if (!queued) return undefined;
        const { triggeredByName, notified: _notified, ...execution } = queued;
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
      if (!prepare) return answer(await queuedInsertStatement.execute(values));
      return transactionWithExecutor(db, async (tx, executor) => {
        const [row] = await insert(tx);
        if (!row) return undefined;
        await prepare(row.id, executor);
        return (await select(byId(row.id), 1, tx))[0];
      });
    },

    /**
     * Part of a retry's start transaction (`executor` is that transaction): pins the new run to the
     * retried run's version and copies the retried run's completed steps into it — all of them, or
     * those whose node is in `nodeIds` — marked reused (`metadata.reused` in the output,
     * `metrics.reused` in the step), with their outputs in the new run's output map. The runner
     * then skips them as it skips steps an earlier attempt finished. Returns how many it copied.
     */
    async reuseSteps(
      executor: SqlExecutor,
      retry: {
        executionId: string;
        fromExecutionId: string;
        workflowVersion: number | null;
        nodeIds: string[] | null;
      },
    ): Promise<number> {
      const { rows } = await executor.executeSql(
        `with copied as (
          insert into agent_executions
            (workflow_execution_id, agent_id, node_id, base_node_id, delivery, status, input, output, metrics, logs, started_at, completed_at)
          select $1::uuid, agent_id, node_id, base_node_id, delivery, 'completed', input,
            jsonb_set(output, '{metadata}', coalesce(output->'metadata', '{}'::jsonb)
              || jsonb_build_object('reused', true, 'reusedFrom', coalesce(output->'metadata'->>'reusedFrom', $2::text))),
            coalesce(metrics, '{}'::jsonb)
              || jsonb_build_object('reused', true, 'reusedFrom', coalesce(metrics->>'reusedFrom', $2::text)),
            logs, started_at, completed_at
          from agent_executions
          where workflow_execution_id = $2::uuid and status = 'completed' and node_id is not null
            and jsonb_typeof(output) = 'object'
            and ($3::text[] is null or base_node_id = any($3::text[]))
          order by completed_at
          returning node_id, output
        )
        update workflow_executions
        set workflow_version = $4::int,
          output = coalesce(output, '{}'::jsonb)
            || (select coalesce(jsonb_object_agg(node_id, output), '{}'::jsonb) from copied),
          logs = coalesce(logs, '[]'::jsonb) || jsonb_build_array(jsonb_build_object(
            'at', $5::text, 'level', 'info',
            'message', format('Retry of run %s: %s completed step(s) reused', $2::text, (select count(*) from copied))))
        where id = $1::uuid
        returning (select count(*) from copied)::int as reused`,
        [
          retry.executionId,
          retry.fromExecutionId,
          retry.nodeIds,
          retry.workflowVersion,
          new Date().toISOString(),
        ],
      );
      return (rows[0] as { reused: number } | undefined)?.reused ?? 0;
    },

    /** pending|running → cancelled; undefined when the run is not the organization's or already over. */
    async cancel(organizationId: string, id: string): Promise<ExecutionRow | undefined> {
      const [row] = await db
        .update(workflowExecutions)
        .set({
          status: 'cancelled',
          completedAt: new Date(),
          leaseExpiresAt: null,
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
        .returning();
      return row;
    },

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
     * The queue's take: claims the oldest run free to run (pending, or running with a lapsed lease),
     * skipping rows another worker is claiming at the same moment, in one statement. `more` says
     * whether another run was waiting, so a worker that finishes knows whether to look again.
     */
    async claimNext<Extra extends ClaimColumns>(
      leaseMs: number,
      extra = {} as Extra,
    ): Promise<(Claimed<Extra> & { more: boolean }) | undefined> {
      let statement = claimNextStatements.get(extra);
      if (!statement) claimNextStatements.set(extra, (statement = claimNextStatement(extra)));
      const now = new Date();
      const [row] = await statement.execute({ now, leaseUntil: new Date(now.getTime() + leaseMs) });
      if (!row) return undefined;
      const { more, ...run } = row;
      return { ...claimedRun<Extra>(run), more };
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

    /**
     * The steps earlier attempts finished (or a retry reused), by step id, and those among them whose
     * output is not sent yet (in the order they finished).
     */
    async completedSteps(id: string): Promise<{
      outputs: Record<string, NodeOutput>;
      undelivered: { nodeId: string; baseNodeId: string }[];
    }> {
      const rows = await db
        .select({
          nodeId: agentExecutions.nodeId,
          baseNodeId: agentExecutions.baseNodeId,
          output: agentExecutions.output,
          delivery: agentExecutions.delivery,
        })
        .from(agentExecutions)
        .where(and(eq(agentExecutions.workflowExecutionId, id), eq(agentExecutions.status, 'completed')))
        .orderBy(asc(agentExecutions.completedAt));
      const steps = rows.filter((r) => r.nodeId && r.output);
      return {
        // A completed step's output is the engine's NodeOutput (recordStep; reuseSteps copies one).
        outputs: Object.fromEntries(steps.map((r) => [r.nodeId!, r.output as NodeOutput])),
        undelivered: steps
          .filter((r) => r.delivery === 'pending')
          .map((r) => ({ nodeId: r.nodeId!, baseNodeId: r.baseNodeId ?? r.nodeId! })),
      };
    },

    /** A stored step's output was sent to its destination (only while the attempt owns the run). */
    async markDelivered(id: string, attempt: number, nodeId: string): Promise<void> {
      await db.execute(sql`
        update ${agentExecutions} set delivery = 'delivered'
        from ${workflowExecutions} run
        where ${agentExecutions.workflowExecutionId} = ${id} and ${agentExecutions.nodeId} = ${nodeId}
          and ${agentExecutions.status} = 'completed'
          and run.id = ${id} and run.attempt = ${attempt} and run.status = 'running'`);
    },

    /**
     * Stores a finished step, only while the attempt still owns the run, and adds its output (and the
     * run's pending log lines) to the run's, so a run in progress, a failed one or one resumed after a
     * crash shows what its finished steps produced.
     */
    async recordStep(
      id: string,
      attempt: number,
      step: StepRecord,
      notify?: StatementNotification,
    ): Promise<boolean> {
      const output = JSON.stringify(step.output);
      const result = await db.execute(sql`
        with owner as (
          update ${workflowExecutions}
          set output = coalesce(output, '{}'::jsonb) || jsonb_build_object(${step.nodeId}::text, ${output}::jsonb),
            logs = coalesce(logs, '[]'::jsonb) || ${JSON.stringify(step.runLogs)}::jsonb
          where id = ${id} and attempt = ${attempt} and status = 'running'
          returning id
        )
        insert into ${agentExecutions}
          (workflow_execution_id, agent_id, node_id, base_node_id, delivery, status, input, output, metrics, logs, started_at, completed_at)
        select owner.id, ${step.agentId}, ${step.nodeId}, ${step.baseNodeId}, ${step.delivery}, 'completed', ${JSON.stringify(step.record ?? {})}::jsonb,
          ${output}::jsonb, ${JSON.stringify(step.metrics)}::jsonb, ${JSON.stringify(step.logs)}::jsonb,
          ${step.startedAt.toISOString()}::timestamptz, ${step.completedAt.toISOString()}::timestamptz
        from owner
        returning ${notified(notify)}`);
      return (result.rowCount ?? 0) === 1;
    },

    /** Stores a step whose agent call failed, only while the attempt still owns the run. */
    async recordFailedStep(id: string, attempt: number, step: StepWrite<'failed'>): Promise<void> {
      await db.execute(sql`
        insert into ${agentExecutions}
          (workflow_execution_id, agent_id, node_id, base_node_id, status, error, input, logs, started_at, completed_at)
        select id, ${step.agentId}, ${step.nodeId}, ${step.baseNodeId}, 'failed', ${step.error}, ${JSON.stringify(step.record ?? {})}::jsonb, ${JSON.stringify(step.logs)}::jsonb,
          ${step.startedAt.toISOString()}::timestamptz, ${step.completedAt.toISOString()}::timestamptz
        from ${workflowExecutions}
        where id = ${id} and attempt = ${attempt} and status = 'running'`);
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
        .returning({ woke: sql<null>`pg_notify(${RUNS_CHANNEL}, "workflow_executions"."id"::text)` });
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
export type ExecutionsRepository = ReturnType<typeof createExecutionsRepository>;
