import { costOfSteps, type ExecutionTrigger, type NodeOutput } from '@crewline/contracts';
import { RunWaiting, type RunResult } from '@crewline/engine';
import type { Logger } from 'pino';
import { databaseUnavailable } from '../../platform/database-unavailable';
import { metrics } from '../../platform/metrics/metrics';
import type { EventOutbox } from './event-outbox';
import type { ExecutionsRepository } from './executions.repository';
import { Interrupted, isExpected, readableError } from './run-errors';
import type { RunLog } from './run-log';
import type { ParkedStep } from './step-recorder';

/** What ends an attempt: its run's row, its events and its log. */
export type AttemptEnd = {
  repository: Pick<ExecutionsRepository, 'finish' | 'completeWithStep' | 'release'>;
  ids: { organizationId: string; executionId: string; workflowId: string };
  /** How the run started (the metrics count its end by it). */
  trigger: ExecutionTrigger;
  attempt: number;
  outbox: EventOutbox;
  runLog: RunLog;
  logger?: Logger;
};

/**
 * A retry's reused steps (`metadata.reused`) were paid for by the run it retried: the run's token
 * totals and cost count only its own model calls (`output`'s other steps), and `reusedSteps` says
 * how many it reused.
 */
export function ownTokens(
  totals: { totalTokens: number; promptTokens: number; completionTokens: number },
  completed: Record<string, NodeOutput>,
  output: Record<string, NodeOutput>,
) {
  const reused = Object.values(completed).filter((step) => step.metadata.reused === true);
  const less = (key: 'totalTokens' | 'promptTokens' | 'completionTokens') =>
    Math.max(0, totals[key] - reused.reduce((sum, step) => sum + step.usage[key], 0));
  const own = costOfSteps(
    Object.values(output).filter((step) => step.status !== 'skipped' && step.metadata.reused !== true),
  );
  return {
    totalTokens: less('totalTokens'),
    promptTokens: less('promptTokens'),
    completionTokens: less('completionTokens'),
    reusedSteps: reused.length,
    // Set even when undefined, so a reused step's cost in the engine's sum does not stay.
    costUsd: own.costUsd,
    unpricedModels: own.unpricedModels,
  };
}

/**
 * The engine finished the run: it is stored as completed, with the log lines not stored yet, by the
 * statement that also publishes its completed event (and any started event still waiting). A last
 * step still parked (step-recorder.ts) is stored by that same statement, its event first.
 */
export async function completeRun(
  end: AttemptEnd,
  run: { startedAt: Date | null },
  result: RunResult,
  /** The steps earlier attempts finished or a retry reused. */
  completed: Record<string, NodeOutput>,
  lastStep?: ParkedStep,
) {
  const { ids, attempt, runLog } = end;
  const startedAt = run.startedAt ?? new Date();
  runLog.add('info', 'Run completed');
  const completedEvent = { type: 'workflow_execution_completed', ...ids } as const;
  const completedRun = await end.outbox.withStatement(
    lastStep ? [lastStep.event, completedEvent] : completedEvent,
  );
  const fields = {
    output: result.output,
    result: result.result,
    metrics: {
      ...result.metrics,
      ...ownTokens(result.metrics, completed, result.output),
      durationMs: Date.now() - startedAt.getTime(),
      attempts: attempt,
    },
    logs: runLog.unstored(),
  };
  const finished = lastStep
    ? await end.repository
        .completeWithStep(ids.executionId, attempt, fields, lastStep.record, completedRun.notify)
        .catch((err: unknown) => {
          lastStep.runLogs.release();
          throw err;
        })
    : await end.repository.finish(
        ids.executionId,
        attempt,
        { status: 'completed', ...fields },
        completedRun.notify,
      );
  if (!finished) return;
  lastStep?.stored();
  metrics.runEnded(end.trigger, 'completed');
}

/**
 * The attempt stopped before the run completed. Interrupted (cancelled, superseded, the worker
 * stopping) or the database away: the run is not failed. Otherwise it fails with the readable error,
 * naming the step it came from (`failedSteps`, by error).
 */
export async function endStoppedRun(
  end: AttemptEnd,
  caught: unknown,
  signal: AbortSignal,
  failedSteps: Map<string, string>,
) {
  const { ids, attempt, runLog, logger } = end;
  const { executionId } = ids;
  // Whatever waited (a started event) goes out before the run's end.
  await end.outbox.flush();
  // The run waits (its wait is stored, run-waits.ts): this attempt is over, the run is not.
  if (caught instanceof RunWaiting) return;
  const error = signal.aborted && signal.reason instanceof Interrupted ? signal.reason : caught;
  if (error instanceof Interrupted) {
    // Cancelled: the row already says so. Superseded: another attempt owns it. Shutdown: the
    // lease is released so another worker resumes from the stored steps.
    if (error.reason === 'shutdown')
      await end.repository.release(executionId, attempt).catch(() => undefined);
    logger?.info({ executionId, reason: error.reason }, 'run attempt interrupted');
    return;
  }
  const unavailable = isExpected(error) ? undefined : databaseUnavailable(error);
  if (unavailable) {
    // Nothing was wrong with the run: failing it for an outage would lose it. Its lease lapses and
    // the next claim resumes it from the stored steps once the database is back (bounded by maxAttempts).
    logger?.warn(
      { executionId, code: unavailable.code, reason: unavailable.message },
      'run attempt interrupted: the database is unavailable',
    );
    return;
  }
  const message = readableError(error);
  if (!isExpected(error)) logger?.error({ err: error, executionId }, 'run failed unexpectedly');
  // Logged once: on its step when a step failed (step-recorder.ts), else for the run.
  if (!runLog.has('error', message)) runLog.add('error', message);
  // The finished steps are already in the run's output (recordStep).
  const finished = await end.repository.finish(executionId, attempt, {
    status: 'failed',
    error: message,
    failedStep: failedSteps.get(message) ?? null,
    logs: runLog.unstored(),
  });
  if (finished) metrics.runEnded(end.trigger, 'failed');
  if (finished) await end.outbox.publish({ type: 'workflow_execution_failed', ...ids, error: message });
}
