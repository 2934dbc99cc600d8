import {
  executionMessages,
  type ExecuteWorkflowData,
  type RetryExecutionData,
  type Execution,
  type ExecutionListFilters,
  type ExecutionTrigger,
  type RealtimeEvent,
} from '@crewline/contracts';
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '@crewline/db';
import { sequentialOrder } from '@crewline/engine';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import type { BillingService } from '../billing/billing.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import { isRetryTaken, type ExecutionsCursor, type ExecutionsRepository } from './executions.repository';

export const EXECUTIONS_PAGE_DEFAULT = 50;
export const EXECUTIONS_PAGE_MAX = 200;

export type StartRunRequest = {
  organizationId: string;
  workflowId: string;
  /** What started it: a person (`manual`, with `triggeredBy`) or one of the workflow's triggers. */
  trigger: ExecutionTrigger;
  /** The user who started it; null for runs no person started. */
  triggeredBy: string | null;
  input?: Record<string, unknown>;
  dynamicInstructions?: string | null;
  parameters?: Record<string, unknown>;
};

/**
 * Work that commits with the run's pending row, in that transaction (`executor`): a retry's
 * reused steps, a schedule's claim of its tick. Throwing rolls the whole start back: no run.
 */
export type PrepareRun = (executionId: string, executor: SqlExecutor) => Promise<unknown>;

export function createExecutionsService(deps: {
  repository: ExecutionsRepository;
  workflows: WorkflowsService;
  events: EventBus;
  /** The plan's monthly executions (modules/billing): every run, whatever started it, counts here. */
  limits: Pick<BillingService, 'executionAllowance'>;
}) {
  const { repository, events } = deps;

  async function get(organizationId: string, id: string): Promise<Execution> {
    const execution = await repository.get(organizationId, requireUuid(id, executionMessages.notFound));
    if (!execution) throw new NotFoundError(executionMessages.notFound);
    return execution;
  }

  /**
   * The one rule that decides whether a workflow can run: it must be active and structurally valid,
   * and the organization's plan must allow another run this month (a refusal is a 402
   * PlanLimitError; a trigger's becomes the workflow's last trigger error). One statement reads both;
   * the run's insert checks the month's limit again on the locked counter (`allowance.runLimit`).
   */
  async function runnableWorkflow(organizationId: string, workflowId: string) {
    const allowance = deps.limits.executionAllowance(organizationId);
    const { workflow, extra } = await deps.workflows.getRunnable(
      organizationId,
      workflowId,
      allowance.columns,
      allowance.parameters,
    );
    if (workflow.status === 'draft') throw new ConflictError(executionMessages.draft);
    if (workflow.status !== 'active') throw new ConflictError(executionMessages.notRunnable(workflow.status));
    const runLimit = allowance.check(extra.allowance);
    return { workflow, runLimit, refusal: allowance.refusal };
  }

  /**
   * Starts a run of a workflow that passed the run rule: the pending row (the queue's entry), its
   * worker's wake-up and the created event in one statement, which also counts the run against the
   * plan's month under the counter's lock (concurrent starts at the limit: one gets the last run, the
   * others the refusal); with `prepare` (a retry's reused steps), what it writes commits in the same
   * transaction.
   */
  async function startRun(
    request: StartRunRequest,
    prepare?: PrepareRun,
    retryOf?: string,
  ): Promise<Execution> {
    const { organizationId } = request;
    const { workflow, runLimit, refusal } = await runnableWorkflow(organizationId, request.workflowId);
    const id = randomUUID();
    const created: RealtimeEvent = {
      type: 'workflow_execution_created',
      organizationId,
      executionId: id,
      workflowId: workflow.id,
    };
    const notify = events.statementNotification?.(created);
    const execution = await repository.createQueued(
      organizationId,
      workflow,
      { trigger: request.trigger, triggeredBy: request.triggeredBy },
      {
        input: request.input ?? {},
        dynamicInstructions: request.dynamicInstructions ?? null,
        parameters: request.parameters ?? {},
      },
      { id, prepare, created: notify, runLimit, retryOf },
    );
    if (!execution) throw refusal();
    if (!notify) await events.publish(created);
    return execution;
  }

  /**
   * A failed or cancelled run again, started like any run (startRun's path), on the version the
   * retried run executed, with its input, reusing its completed steps (see retryExecutionSchema).
   */
  async function retry(
    organizationId: string,
    userId: string | null,
    id: string,
    request: RetryExecutionData,
  ): Promise<Execution> {
    const old = await get(organizationId, id);
    if (old.status !== 'failed' && old.status !== 'cancelled')
      throw new ConflictError(executionMessages.notRetryable(old.status));
    // A run is retried once (docs/product-rules.md): a failed retry is retried in turn.
    if (old.retriedBy) throw new ConflictError(executionMessages.alreadyRetried(old.retriedBy));
    let nodeIds: string[] | null = null;
    if (request.fromNodeId !== undefined) {
      const definition =
        old.workflowVersion === null
          ? await deps.workflows.get(organizationId, old.workflowId)
          : await deps.workflows.version(organizationId, old.workflowId, old.workflowVersion);
      const fromNodeId = request.fromNodeId;
      if (!definition.nodes.some((node) => node.id === fromNodeId && node.type === 'agent'))
        throw new BadRequestError(executionMessages.unknownRetryNode(fromNodeId));
      if (definition.processType !== 'sequential')
        throw new BadRequestError(executionMessages.retryFromNotSequential(definition.processType));
      const order = sequentialOrder(definition.nodes, definition.edges);
      const at = order.indexOf(fromNodeId);
      // An agent the run never reaches from its start node has no steps before it: nothing is reused.
      nodeIds = at < 0 ? [] : order.slice(0, at);
    }
    const retrying = startRun(
      {
        organizationId,
        workflowId: old.workflowId,
        trigger: 'manual',
        triggeredBy: userId,
        input: old.input,
        dynamicInstructions: old.dynamicInstructions,
        parameters: old.parameters,
      },
      (executionId, executor) =>
        repository.reuseSteps(executor, {
          executionId,
          fromExecutionId: old.id,
          workflowVersion: old.workflowVersion,
          nodeIds,
        }),
      old.id,
    );
    try {
      return await retrying;
    } catch (error) {
      // Another retry of the same run committed between the read above and this insert.
      if (!isRetryTaken(error)) throw error;
      const { retriedBy } = await get(organizationId, id);
      throw new ConflictError(executionMessages.alreadyRetried(retriedBy ?? ''));
    }
  }

  return {
    /** A page of run summaries, newest first, and where the next one starts (null on the last page). */
    list: (
      organizationId: string,
      options: ExecutionListFilters & { limit?: number; after?: ExecutionsCursor } = {},
    ) =>
      repository.list(organizationId, {
        ...options,
        limit: Math.min(options.limit ?? EXECUTIONS_PAGE_DEFAULT, EXECUTIONS_PAGE_MAX),
      }),

    get,

    /**
     * The one way a run starts (Execute, Retry, and every trigger in modules/triggers), see
     * docs/architecture.md, Runs: the workflow must be runnable, the run is pinned to the workflow's
     * newest version, the pending row and its job commit together, workers are woken by NOTIFY at
     * commit, and the caller gets the execution at once. Long model work never runs here.
     */
    startRun,

    /** POST /api/workflows/:id/execute: a manual run by the signed-in user. */
    execute: (
      organizationId: string,
      userId: string | null,
      workflowId: string,
      request: ExecuteWorkflowData,
    ): Promise<Execution> =>
      startRun({
        organizationId,
        workflowId,
        trigger: 'manual',
        triggeredBy: userId,
        input: request.input,
        dynamicInstructions: request.dynamicInstructions,
        parameters: request.parameters,
      }),

    /** POST /api/executions/:id/retry by the signed-in user. */
    retry,

    /** Stops a pending or running run; the worker aborts its model calls (docs/product-rules.md). */
    async cancel(organizationId: string, id: string): Promise<Execution> {
      const current = await get(organizationId, id);
      const cancelled = await repository.cancel(organizationId, current.id);
      if (!cancelled) {
        // Read again: the run may have ended between the two statements.
        throw new ConflictError(executionMessages.alreadyFinished((await get(organizationId, id)).status));
      }
      await events.publish({
        type: 'workflow_execution_cancelled',
        organizationId,
        executionId: cancelled.id,
        workflowId: cancelled.workflowId,
      });
      return get(organizationId, id);
    },
  };
}
export type ExecutionsService = ReturnType<typeof createExecutionsService>;
