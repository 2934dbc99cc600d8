import { and, asc, desc, eq, sql, TransactionRollbackError, type SQL } from 'drizzle-orm';
import {
  agentExecutions,
  approvalDecisions,
  approvals,
  workflowExecutions,
  type Db,
  type StoredWait,
} from '@crewline/db';
import type {
  ApprovalDecision,
  ApprovalStatus,
  DecisionVia,
  ExecutionLog,
  FieldAnswers,
  NodeOutput,
  EvaluationRecord,
} from '@crewline/contracts';
import { channels } from '../../platform/notifications/channels';
import {
  deliverReturnedRows,
  notified,
  wakeUpColumn,
  type StatementNotification,
} from '../../platform/notifications/statement';
import { userDisplayName } from '../auth/users.columns';
import { runWorkflowColumns } from '../workflows/workflows.columns';
import { appendLogs, owned } from './run-rows';

/*
 * Approvals and the waits of runs (docs/product-rules.md, People in the loop): a run that waits is
 * stored `waiting` with its wait (stored-wait.ts) and no lease, so it holds no worker; a decision
 * commits with the run's continuation in one transaction, by compare-and-set on the approval and on
 * the run; a due wait is queued again by the wake-up loop, once.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Q = Db | Tx;

export type ApprovalRow = typeof approvals.$inferSelect & {
  workflowName: string | null;
  decisions: ApprovalDecision[];
};

/** An approval's decisions with the deciders' names, oldest first, as one jsonb column. */
const decisionsColumn = sql<ApprovalDecision[]>`(select coalesce(jsonb_agg(jsonb_build_object(
    'userId', d.user_id, 'userName', ${userDisplayName(sql.raw('d.user_id'))}, 'decision', d.decision,
    'comment', d.comment, 'fields', d.fields, 'at', d.created_at, 'via', d.via) order by d.created_at), '[]'::jsonb)
  from ${approvalDecisions} d where d.approval_id = "approvals"."id")`;

/** The approval's workflow's name (the workflows module's column, over the approval's row). */
const { workflowName } = runWorkflowColumns('approvals');

const approvalColumns = { approval: approvals, workflowName, decisions: decisionsColumn };

const toRow = ({
  approval,
  workflowName: name,
  decisions,
}: {
  approval: typeof approvals.$inferSelect;
  workflowName: string | null;
  decisions: ApprovalDecision[];
}): ApprovalRow => ({
  ...approval,
  workflowName: name,
  // jsonb_build_object prints timestamps as Postgres does; the API speaks ISO.
  decisions: decisions.map((d) => ({ ...d, at: new Date(d.at).toISOString() })),
});

/** Who may see an approval in "mine": one of its named members, one of its roles, or anyone when it names neither. */
export const assignedTo = (userId: string, role: string): SQL => sql`(
  coalesce(jsonb_array_length(${approvals.assignees}->'userIds'), 0) + coalesce(jsonb_array_length(${approvals.assignees}->'roles'), 0) = 0
  or coalesce(${approvals.assignees}->'userIds', '[]'::jsonb) ? ${userId}
  or coalesce(${approvals.assignees}->'roles', '[]'::jsonb) ? ${role})`;

/**
 * A run's waiting time once it goes on at `at`: what it had, plus the time since its wait began
 * (the stored wait's `since`), so analytics can count waiting apart from working.
 */
const waitedUntil = (at: Date) =>
  sql`${workflowExecutions.waitedUs} + coalesce(greatest(0, (extract(epoch from ${at.toISOString()}::timestamptz
    - (${workflowExecutions.waiting}->>'since')::timestamptz) * 1000000)::bigint), 0)`;

/** The wait a run stops on, as its row stores it, and when it is due to go on by itself. */
export type RunWait = { wait: StoredWait; wakeAt: Date | null; logs: ExecutionLog[] };

/** A completed approval step, as the decision stores it (the same shape the runner stores). */
type DecidedStep = {
  stepId: string;
  output: NodeOutput;
  evaluation: EvaluationRecord;
  startedAt: Date;
  completedAt: Date;
  logs: ExecutionLog[];
};

export function createApprovalsRepository(db: Db) {
  /** running → waiting for the attempt that owns the run: no lease, its wait stored; false when it no longer owns it. */
  async function suspend(
    q: Q,
    id: string,
    attempt: number,
    { wait, wakeAt, logs }: RunWait,
    notify: StatementNotification,
  ) {
    const rows = await q
      .update(workflowExecutions)
      .set({
        status: 'waiting',
        waiting: wait,
        wakeAt,
        leaseExpiresAt: null,
        // A wait is no failure of a worker: the attempts it takes do not count towards the limit.
        handedBack: sql`${workflowExecutions.handedBack} + 1`,
        logs: appendLogs(logs),
      })
      .where(owned(id, attempt))
      .returning({ id: workflowExecutions.id, notified: notified(notify) });
    return rows.length === 1;
  }

  async function read(q: Q, where: SQL | undefined): Promise<ApprovalRow | undefined> {
    const [row] = await q.select(approvalColumns).from(approvals).where(where).limit(1);
    return row && toRow(row);
  }

  return {
    /** The approval a run's step asked for, if it did. */
    forStep: (executionId: string, stepId: string) =>
      read(db, and(eq(approvals.executionId, executionId), eq(approvals.nodeId, stepId))),

    /** An approval of the run, by id (the one a resumed run waited for). */
    byId: (executionId: string, id: string) =>
      read(db, and(eq(approvals.executionId, executionId), eq(approvals.id, id))),

    /** An approved call ran: its result is kept, so the step never runs the call again. */
    async keepToolResult(id: string, result: unknown): Promise<void> {
      await db
        .update(approvals)
        .set({
          toolCall: sql`jsonb_set(${approvals.toolCall}, '{result}', ${JSON.stringify({ value: result ?? null })}::jsonb)`,
        })
        .where(eq(approvals.id, id));
    },

    /** An approval of the organization. */
    get: (organizationId: string, id: string) =>
      read(db, and(eq(approvals.organizationId, organizationId), eq(approvals.id, id))),

    /**
     * The organization's approvals: pending ones oldest first, decided ones newest first (at most 200),
     * only those `assigned` when given, of one run when `executionId` is.
     */
    async list(
      organizationId: string,
      options: { status: 'pending' | 'decided'; assigned?: SQL; executionId?: string },
    ): Promise<ApprovalRow[]> {
      const pending = options.status === 'pending';
      const rows = await db
        .select(approvalColumns)
        .from(approvals)
        .where(
          and(
            eq(approvals.organizationId, organizationId),
            pending ? eq(approvals.status, 'pending') : sql`${approvals.status} <> 'pending'`,
            options.executionId ? eq(approvals.executionId, options.executionId) : undefined,
            options.assigned,
          ),
        )
        .orderBy(pending ? asc(approvals.createdAt) : desc(approvals.createdAt))
        .limit(200);
      return rows.map(toRow);
    },

    /** A run stops on a delay (or waits again on an approval it asked for before). */
    suspend: (id: string, attempt: number, wait: RunWait, notify: StatementNotification) =>
      suspend(db, id, attempt, wait, notify),

    /**
     * A run stops on a new approval: the approval and the run's wait commit together, or neither does
     * (false: the attempt no longer owns the run, or the step had asked already).
     */
    async request(
      run: { id: string; attempt: number },
      approval: Omit<typeof approvals.$inferInsert, 'status'> & { id: string },
      wait: RunWait,
      notify: StatementNotification,
    ): Promise<boolean> {
      return db
        .transaction(async (tx) => {
          const inserted = await tx
            .insert(approvals)
            .values(approval)
            .onConflictDoNothing({ target: [approvals.executionId, approvals.nodeId, approvals.callId] })
            .returning({ id: approvals.id });
          if (inserted.length === 0 || !(await suspend(tx, run.id, run.attempt, wait, notify))) tx.rollback();
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof TransactionRollbackError) return false;
          throw error;
        });
    },

    /** pending → `status` (timed out, cancelled) by compare-and-set; false when it was decided meanwhile. */
    async close(
      id: string,
      status: Extract<ApprovalStatus, 'timed_out' | 'cancelled'>,
      at: Date,
      notify?: StatementNotification,
    ) {
      const rows = await db
        .update(approvals)
        .set({ status, decidedAt: at, remindAt: null })
        .where(and(eq(approvals.id, id), eq(approvals.status, 'pending')))
        .returning({ id: approvals.id, notified: notified(notify) });
      return rows.length === 1;
    },

    /**
     * Queues the waiting runs whose time has come (a delay's end, an approval's timeout), at most
     * `limit`, each once: waiting → pending by compare-and-set, a worker woken for each. How many.
     */
    async wakeDue(now: Date, limit = 100): Promise<number> {
      const due = db
        .select({ id: workflowExecutions.id })
        .from(workflowExecutions)
        .where(and(sql`${workflowExecutions.wakeAt} <= ${now}`, eq(workflowExecutions.status, 'waiting')))
        .orderBy(asc(workflowExecutions.wakeAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      const rows = await db
        .update(workflowExecutions)
        .set({ status: 'pending', wakeAt: null, waitedUs: waitedUntil(now) })
        .where(and(sql`${workflowExecutions.id} in (${due})`, eq(workflowExecutions.status, 'waiting')))
        .returning({
          id: workflowExecutions.id,
          woke: wakeUpColumn(
            channels.runs,
            sql`json_build_object('type', 'queued', 'executionId', ${workflowExecutions.id})::text`,
          ),
        });
      return rows.length;
    },

    /**
     * The pending approvals whose reminder is due, at most `limit`, each once: its `remind_at` is
     * cleared by compare-and-set as it is taken, whatever the number of workers. Their ids.
     */
    async remindDue(now: Date, limit = 100): Promise<string[]> {
      const due = db
        .select({ id: approvals.id })
        .from(approvals)
        .where(and(sql`${approvals.remindAt} <= ${now}`, eq(approvals.status, 'pending')))
        .orderBy(asc(approvals.remindAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      const rows = await db
        .update(approvals)
        .set({ remindAt: null })
        .where(and(sql`${approvals.id} in (${due})`, sql`${approvals.remindAt} is not null`))
        .returning({ id: approvals.id });
      return rows.map((row) => row.id);
    },

    /**
     * Runs `work` in one transaction over the approval, locked (`FOR UPDATE`), so decisions on it
     * take their turns; undefined when the organization has no such approval.
     */
    async decideWithin<T>(
      organizationId: string,
      id: string,
      work: (approval: ApprovalRow, tx: ApprovalTx) => Promise<T>,
    ): Promise<T | undefined> {
      return db.transaction(async (tx) => {
        const [locked] = await tx
          .select({ id: approvals.id })
          .from(approvals)
          .where(and(eq(approvals.organizationId, organizationId), eq(approvals.id, id)))
          .for('update');
        if (!locked) return undefined;
        const approval = (await read(tx, eq(approvals.id, id)))!;
        return work(approval, approvalTx(tx));
      });
    },
  };
}

/** What a decision's transaction does, on the approval it locked. */
function approvalTx(tx: Tx) {
  return {
    /** Adds one person's decision; false when they had decided already. */
    async addDecision(decision: {
      approvalId: string;
      userId: string;
      decision: 'approve' | 'reject';
      comment: string | null;
      fields: FieldAnswers;
      via: DecisionVia;
      at: Date;
    }): Promise<boolean> {
      const rows = await tx
        .insert(approvalDecisions)
        .values({ ...decision, createdAt: decision.at })
        .onConflictDoNothing()
        .returning({ userId: approvalDecisions.userId });
      return rows.length === 1;
    },

    /** The approval again, with the decision just added. */
    reread: (id: string) =>
      tx
        .select(approvalColumns)
        .from(approvals)
        .where(eq(approvals.id, id))
        .then(([row]) => toRow(row)),

    /** pending → approved | rejected. */
    async close(id: string, status: 'approved' | 'rejected', at: Date, notify?: StatementNotification) {
      await tx
        .update(approvals)
        .set({ status, decidedAt: at, remindAt: null })
        .where(and(eq(approvals.id, id), eq(approvals.status, 'pending')))
        .returning({ id: approvals.id, notified: notified(notify) });
    },

    /** Tells who listens that a decision was added (the approval stays pending). */
    async touched(id: string, notify: StatementNotification) {
      await tx
        .select({ id: approvals.id, notified: notified(notify) })
        .from(approvals)
        .where(eq(approvals.id, id));
    },

    /**
     * The run goes on after a tool call's approval: waiting → pending (queued, a worker woken); the
     * agent step goes on from its stored conversation in the next attempt. False when the run no
     * longer waits.
     */
    async resumeWithoutStep(executionId: string, at: Date, notify: StatementNotification): Promise<boolean> {
      const rows = await tx
        .update(workflowExecutions)
        .set({ status: 'pending', wakeAt: null, waitedUs: waitedUntil(at) })
        .where(and(eq(workflowExecutions.id, executionId), eq(workflowExecutions.status, 'waiting')))
        .returning({
          id: workflowExecutions.id,
          notified: notified(notify),
          woke: wakeUpColumn(channels.runs, sql`${channels.runs.encode({ type: 'queued', executionId })}`),
        });
      return rows.length === 1;
    },

    /**
     * The run goes on: waiting → pending (queued, a worker woken), with the approval step stored as
     * completed, so the attempt that resumes it reuses the step and takes its path. False when the
     * run no longer waits (cancelled, or its timeout already took it).
     */
    async resumeRun(executionId: string, step: DecidedStep, notify: StatementNotification): Promise<boolean> {
      const output = JSON.stringify(step.output);
      const result = await tx.execute(sql`
        with run as (
          update ${workflowExecutions}
          set status = 'pending', wake_at = null, waited_us = ${waitedUntil(step.completedAt)},
            output = coalesce(output, '{}'::jsonb) || jsonb_build_object(${step.stepId}::text, ${output}::jsonb),
            logs = coalesce(logs, '[]'::jsonb) || ${JSON.stringify(step.logs)}::jsonb
          where id = ${executionId} and status = 'waiting'
          returning id, ${notified(notify)} as notified,
            pg_notify(${channels.runs.name}, ${channels.runs.encode({ type: 'queued', executionId })}) as woke
        )
        insert into ${agentExecutions}
          (workflow_execution_id, node_id, base_node_id, kind, status, input, output, metrics, logs, started_at, completed_at)
        select run.id, ${step.stepId}, ${step.stepId}, 'approval', 'completed', ${JSON.stringify(step.evaluation)}::jsonb,
          ${output}::jsonb, ${JSON.stringify({ executionTime: step.output.executionTime, ...step.output.usage })}::jsonb, '[]'::jsonb,
          ${step.startedAt.toISOString()}::timestamptz, ${step.completedAt.toISOString()}::timestamptz
        from run
        returning (select notified from run) as notified`);
      deliverReturnedRows(result.rows);
      return (result.rowCount ?? 0) === 1;
    },
  };
}
export type ApprovalTx = ReturnType<typeof approvalTx>;
export type ApprovalsRepository = ReturnType<typeof createApprovalsRepository>;
