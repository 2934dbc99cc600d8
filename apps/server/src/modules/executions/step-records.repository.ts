import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { agentExecutions, workflowExecutions, type Db } from '@crewline/db';
import type { ExecutionLog, ExecutionStep, NodeKind, NodeOutput } from '@crewline/contracts';
import { stepSpendSql, type StepSpend } from '../costs/spend-ledger.columns';
import {
  deliverReturnedRows,
  notified,
  type StatementNotification,
} from '../../platform/notifications/statement';

/*
 * A run's steps as workers store them (executions.repository.ts composes it): the checkpoint of a
 * finished step, a failed step, what earlier attempts finished and which outputs were sent.
 */

/**
 * An agent_executions row as the runner writes it (ExecutionStep without status, with Dates). Its
 * `input` column keeps the step's record: an agent step's model call, or what a step without one
 * evaluated.
 */
type StepWrite<S extends ExecutionStep['status']> = Omit<
  Extract<ExecutionStep, { status: S }>,
  'status' | 'startedAt' | 'completedAt'
> & { startedAt: Date; completedAt: Date; kind: NodeKind };

/** A step a worker finished: the checkpoint a later attempt resumes from. */
export type StepRecord = StepWrite<'completed'> & {
  /** An agent step's model use, kept in the spend ledger with the step. */
  spend?: StepSpend;
  /** 'pending' when the step's node sends its output somewhere (markDelivered once sent). */
  delivery: 'pending' | null;
  /** The run's log lines not stored yet: they land with the step, so a crash loses none before it. */
  runLogs: ExecutionLog[];
};

export function createStepRecords(db: Db) {
  /**
   * One statement: `ownerUpdate` (an update of the run's row, only while the attempt owns it), the
   * step's row after it, and an agent step's spend in the ledger; true when the attempt owned the run.
   */
  async function storeStep(
    ownerUpdate: SQL,
    step: StepRecord,
    /** The step's output as JSON (the run's update may use it too). */
    output: string,
    notify?: StatementNotification,
  ) {
    const result = await db.execute(sql`
      with owner as (${ownerUpdate} returning id, organization_id, workflow_id, trigger)${
        step.spend ? sql`, spent as (${stepSpendSql(step.agentId, step.spend)})` : sql``
      }
      insert into ${agentExecutions}
        (workflow_execution_id, agent_id, node_id, base_node_id, kind, delivery, status, input, output, metrics, logs, started_at, completed_at)
      select owner.id, ${step.agentId}, ${step.nodeId}, ${step.baseNodeId}, ${step.kind}, ${step.delivery}, 'completed', ${JSON.stringify(step.record ?? step.evaluation ?? {})}::jsonb,
        ${output}::jsonb, ${JSON.stringify(step.metrics)}::jsonb, ${JSON.stringify(step.logs)}::jsonb,
        ${step.startedAt.toISOString()}::timestamptz, ${step.completedAt.toISOString()}::timestamptz
      from owner
      returning ${notified(notify)}`);
    // A raw statement: drizzle reads no column, so the notification is handed over here.
    deliverReturnedRows(result.rows);
    return (result.rowCount ?? 0) === 1;
  }

  return {
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
     * crash shows what its finished steps produced. An agent step's spend goes to the ledger in the same
     * statement (spendLedgerSql).
     */
    async recordStep(
      id: string,
      attempt: number,
      step: StepRecord,
      notify?: StatementNotification,
    ): Promise<boolean> {
      const output = JSON.stringify(step.output);
      return storeStep(
        sql`update ${workflowExecutions}
          set output = coalesce(output, '{}'::jsonb) || jsonb_build_object(${step.nodeId}::text, ${output}::jsonb),
            logs = coalesce(logs, '[]'::jsonb) || ${JSON.stringify(step.runLogs)}::jsonb
          where id = ${id} and attempt = ${attempt} and status = 'running'`,
        step,
        output,
        notify,
      );
    },

    /**
     * Completes the run with its last step in one statement (step-recorder.ts parks a step that
     * finished while nothing else ran, and the run's end takes it): the step stored as recordStep
     * stores it, the run as finish ends it, only while the attempt still owns the run (then true).
     */
    async completeWithStep(
      id: string,
      attempt: number,
      end: {
        output: Record<string, unknown>;
        metrics: Record<string, unknown>;
        result: unknown;
        logs: ExecutionLog[];
      },
      step: StepRecord,
      notify?: StatementNotification,
    ): Promise<boolean> {
      return storeStep(
        sql`update ${workflowExecutions}
          set status = 'completed', output = ${JSON.stringify(end.output)}::jsonb,
            metrics = ${JSON.stringify(end.metrics)}::jsonb, result = ${JSON.stringify(end.result)}::jsonb,
            error = null, failed_step = null, completed_at = ${new Date().toISOString()}::timestamptz,
            lease_expires_at = null, waiting = null,
            logs = coalesce(logs, '[]'::jsonb) || ${JSON.stringify([...step.runLogs, ...end.logs])}::jsonb
          where id = ${id} and attempt = ${attempt} and status = 'running'`,
        step,
        JSON.stringify(step.output),
        notify,
      );
    },

    /** Stores a step whose agent call failed, only while the attempt still owns the run. */
    async recordFailedStep(id: string, attempt: number, step: StepWrite<'failed'>): Promise<void> {
      await db.execute(sql`
        insert into ${agentExecutions}
          (workflow_execution_id, agent_id, node_id, base_node_id, kind, status, error, input, logs, started_at, completed_at)
        select id, ${step.agentId}, ${step.nodeId}, ${step.baseNodeId}, ${step.kind}, 'failed', ${step.error}, ${JSON.stringify(step.record ?? step.evaluation ?? {})}::jsonb, ${JSON.stringify(step.logs)}::jsonb,
          ${step.startedAt.toISOString()}::timestamptz, ${step.completedAt.toISOString()}::timestamptz
        from ${workflowExecutions}
        where id = ${id} and attempt = ${attempt} and status = 'running'`);
    },
  };
}
