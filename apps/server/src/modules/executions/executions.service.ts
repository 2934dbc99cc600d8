import {
  executionMessages,
  type ExecuteWorkflowData,
  type Execution,
  type ExecutionStatus,
} from '@crewline/contracts';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import type { ExecutionQueue } from '../../platform/queue';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { ExecutionsCursor, ExecutionsRepository } from './executions.repository';

export const EXECUTIONS_PAGE_DEFAULT = 50;
export const EXECUTIONS_PAGE_MAX = 200;

class QueueUnavailableError extends AppError {
  constructor() {
    super(503, 'Runs cannot be started right now: the job queue is not running.');
  }
}

/** What starts a run; only `manual` exists today, schedules, webhooks and email will add theirs. */
export type RunTrigger = 'manual';

export type StartRunRequest = {
  organizationId: string;
  workflowId: string;
  trigger: RunTrigger;
  /** The user who started it; null for runs no person started. */
  triggeredBy: string | null;
  input?: Record<string, unknown>;
  dynamicInstructions?: string | null;
  parameters?: Record<string, unknown>;
};

export function createExecutionsService(deps: {
  repository: ExecutionsRepository;
  workflows: WorkflowsService;
  events: EventBus;
  /** Absent in processes that only read (and in tests that never run workflows). */
  queue?: ExecutionQueue;
}) {
  const { repository, events } = deps;

  async function get(organizationId: string, id: string): Promise<Execution> {
    const execution = await repository.get(organizationId, requireUuid(id, executionMessages.notFound));
    if (!execution) throw new NotFoundError(executionMessages.notFound);
    return execution;
  }

  /** The one rule that decides whether a workflow can run: it must be active and structurally valid. */
  async function runnableWorkflow(organizationId: string, workflowId: string) {
    const workflow = await deps.workflows.getRunnable(organizationId, workflowId);
    if (workflow.status === 'draft') throw new ConflictError(executionMessages.draft);
    if (workflow.status !== 'active') throw new ConflictError(executionMessages.notRunnable(workflow.status));
    return workflow;
  }

  async function startRun(request: StartRunRequest): Promise<Execution> {
    const { organizationId } = request;
    const workflow = await runnableWorkflow(organizationId, request.workflowId);
    const queue = deps.queue;
    if (!queue) throw new QueueUnavailableError();
    const id = await repository.createQueued(
      organizationId,
      workflow.id,
      request.triggeredBy,
      {
        input: request.input ?? {},
        dynamicInstructions: request.dynamicInstructions ?? null,
        parameters: request.parameters ?? {},
      },
      (executionId, executor) => queue.enqueue(executionId, executor),
    );
    await events.publish({
      type: 'workflow_execution_created',
      organizationId,
      executionId: id,
      workflowId: workflow.id,
    });
    return get(organizationId, id);
  }

  return {
    /** A page of run summaries, newest first, and where the next one starts (null on the last page). */
    list: (
      organizationId: string,
      options: {
        limit?: number;
        workflowId?: string;
        status?: ExecutionStatus;
        after?: ExecutionsCursor;
      } = {},
    ) =>
      repository.list(organizationId, {
        ...options,
        limit: Math.min(options.limit ?? EXECUTIONS_PAGE_DEFAULT, EXECUTIONS_PAGE_MAX),
      }),

    get,

    /**
     * The one way a run starts (the Execute route now; schedules, webhooks and email later), see
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

    /** Beyond the spec: stops a pending or running run; the worker aborts its model calls. */
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
