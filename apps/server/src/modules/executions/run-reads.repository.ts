import { executionWait } from './stored-wait';
import { and, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import { agentExecutions, workflowExecutions, type Db } from '@crewline/db';
import {
  EXECUTION_RESULT_PREVIEW_LENGTH,
  type Execution,
  type ExecutionListFilters,
  type ExecutionSummary,
} from '@crewline/contracts';
import { userDisplayName } from '../auth/users.columns';
import { runWorkflowColumns } from '../workflows/workflows.columns';
import { withEndedRunMetrics } from './run-metrics';
import { byId, type ExecutionRow } from './run-rows';
import { stepsFrom } from './stored-steps';

/*
 * The executions repository's reads (executions.repository.ts composes them): a page of the run
 * list, a run's details with its steps, and a run as those reads and the queued insert answer it.
 */

/** Where a page of the run list ends: its last run's exact created_at (as Postgres prints it) and id. */
export type ExecutionsCursor = { at: string; id: string };

/**
 * The outer run's id, named in full: Drizzle leaves a column of a one-table select list unqualified,
 * which inside a subquery would name the subquery's own row.
 */
const runId = sql.raw('"workflow_executions"."id"');

/** A run's retry, if any: one probe of the unique retry_of index per run, in the run's own read. */
// Aliased, so "workflow_executions" is the outer run of the list or details read.
const retriedBy = sql<string | null>`(select r.id from ${workflowExecutions} r
  where r.retry_of = ${runId})`;

/** The run's workflow's name and process type (the workflows module's columns). */
const { workflowName, processType } = runWorkflowColumns('workflow_executions');

/** Who started a run, as the API names them: their full name, else their username (auth's column). */
const starterName = userDisplayName(sql.raw('"workflow_executions"."triggered_by"'));

/**
 * A run's stored steps with their records, in the order they ended, as one jsonb column of the
 * run's read (the details only: list endpoints never read it).
 */
const stepsColumn = sql<unknown>`(select coalesce(jsonb_agg(jsonb_build_object(
      'status', a.status, 'nodeId', a.node_id, 'baseNodeId', coalesce(a.base_node_id, a.node_id),
      'agentId', a.agent_id, 'logs', coalesce(a.logs, '[]'::jsonb), 'startedAt', a.started_at,
      'completedAt', a.completed_at, 'record', a.input, 'output', a.output, 'metrics', a.metrics,
      'error', a.error) order by a.completed_at, a.id), '[]'::jsonb)
    from ${agentExecutions} a where a.workflow_execution_id = ${runId} and a.node_id is not null)`;

/** Runs as the API answers them; `q` is a transaction when the read must see its own writes. */
export async function readRuns(
  q: Pick<Db, 'select'>,
  where: SQL | undefined,
  limit: number,
  options: { steps?: boolean } = {},
): Promise<Execution[]> {
  const rows = await q
    .select({
      execution: workflowExecutions,
      workflowName,
      processType,
      triggeredByName: starterName,
      // As text, parsed here: drizzle's jsonb reader would parse a string answer that is itself JSON again.
      resultJson: sql<string | null>`${workflowExecutions.result}::text`,
      steps: options.steps ? stepsColumn : sql<unknown>`null`,
      retriedBy,
    })
    .from(workflowExecutions)
    .where(where)
    .orderBy(desc(workflowExecutions.createdAt))
    .limit(limit);
  return rows.map(({ steps, ...row }) => {
    const execution = toExecution(row);
    return options.steps ? { ...execution, steps: stepsFrom(steps) } : execution;
  });
}

/** A run as the API answers it, from its row and the names and columns its read adds. */
export function toExecution({
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
    waiting: executionWait(e.status, e.waiting),
    untrusted: e.untrusted,
    retryOf: e.retryOf,
    retriedBy: retriedById,
    trigger: e.trigger,
    triggerDetail: e.triggerDetail,
    triggeredBy: e.triggeredBy,
    triggeredByName,
    startedAt: e.startedAt?.toISOString() ?? null,
    completedAt: e.completedAt?.toISOString() ?? null,
    waitedMs: Math.round(e.waitedUs / 1000),
    createdAt: e.createdAt.toISOString(),
  };
}

export function createRunReads(db: Db) {
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
          workflowName,
          processType,
          workflowVersion: workflowExecutions.workflowVersion,
          status: workflowExecutions.status,
          error: workflowExecutions.error,
          failedStep: workflowExecutions.failedStep,
          storedWait: workflowExecutions.waiting,
          untrusted: workflowExecutions.untrusted,
          retryOf: workflowExecutions.retryOf,
          retriedBy,
          result: sql<string | null>`case jsonb_typeof(${workflowExecutions.result})
            when 'null' then null
            when 'string' then left(${workflowExecutions.result} #>> '{}', ${EXECUTION_RESULT_PREVIEW_LENGTH}::int)
            else left(${workflowExecutions.result}::text, ${EXECUTION_RESULT_PREVIEW_LENGTH}::int) end`,
          trigger: workflowExecutions.trigger,
          triggerDetail: workflowExecutions.triggerDetail,
          triggeredBy: workflowExecutions.triggeredBy,
          triggeredByName: starterName,
          // As text: SQL null when the run has no cost (yet), 'null' when a model had no price.
          costText: sql<string | null>`(${workflowExecutions.metrics} -> 'costUsd')::text`,
          startedAt: workflowExecutions.startedAt,
          completedAt: workflowExecutions.completedAt,
          createdAt,
          // The exact timestamp (microseconds) for the cursor: a JS Date keeps only milliseconds.
          cursorAt: sql<string>`${createdAt}::text`,
        })
        .from(workflowExecutions)
        .where(
          and(
            eq(workflowExecutions.organizationId, organizationId),
            options.workflowId ? eq(workflowExecutions.workflowId, options.workflowId) : undefined,
            options.status ? eq(workflowExecutions.status, options.status) : undefined,
            // An evaluation's item runs are listed only when asked for (docs/product-rules.md, Evaluations).
            options.trigger
              ? eq(workflowExecutions.trigger, options.trigger)
              : sql`${workflowExecutions.trigger} <> 'eval'`,
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
        items: page.map(
          ({
            cursorAt: _cursorAt,
            startedAt,
            completedAt,
            createdAt: created,
            storedWait,
            costText,
            ...row
          }) => ({
            ...row,
            ...(costText !== null ? { costUsd: costText === 'null' ? null : Number(costText) } : {}),
            waiting: executionWait(row.status, storedWait),
            startedAt: startedAt?.toISOString() ?? null,
            completedAt: completedAt?.toISOString() ?? null,
            createdAt: created.toISOString(),
          }),
        ),
        next: rows.length > options.limit && last ? { at: last.cursorAt, id: last.id } : null,
      };
    },

    /**
     * A run's details, with its stored steps and their records (`steps`); a failed or cancelled run's
     * figures counted from its completed steps.
     */
    async get(organizationId: string, id: string): Promise<Execution | undefined> {
      const [execution] = await readRuns(
        db,
        and(eq(workflowExecutions.organizationId, organizationId), byId(id)),
        1,
        { steps: true },
      );
      return execution && withEndedRunMetrics(execution);
    },
  };
}
