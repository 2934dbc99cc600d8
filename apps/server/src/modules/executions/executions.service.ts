import { executionMessages, type ExecuteWorkflowData, type Execution } from '@crewline/contracts';
import { AppError, ConflictError, NotFoundError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import type { ExecutionQueue } from '../../platform/queue';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { ExecutionsRepository } from './executions.repository';

export const EXECUTIONS_PAGE_DEFAULT = 50;
export const EXECUTIONS_PAGE_MAX = 200;

class QueueUnavailableError extends AppError {
  constructor() {
    super(503, 'Runs cannot be started right now: the job queue is not running.');
  }
}

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

  return {
    list: (organizationId: string, options: { limit?: number; workflowId?: string } = {}) =>
      repository.list(organizationId, {
        limit: options.limit ?? EXECUTIONS_PAGE_DEFAULT,
        workflowId: options.workflowId,
      }),

    get,

    /**
     * Queues a run (docs/architecture.md, Runs): the pending row and its job commit together, workers are woken by
     * NOTIFY at commit, and the caller gets the execution at once. Long model work never runs here.
     */
    async execute(
      organizationId: string,
      userId: string | null,
      workflowId: string,
      request: ExecuteWorkflowData,
    ): Promise<Execution> {
      const workflow = await deps.workflows.getRunnable(organizationId, workflowId);
      if (workflow.status === 'draft') throw new ConflictError(executionMessages.draft);
      const queue = deps.queue;
      if (!queue) throw new QueueUnavailableError();
      const id = await repository.createQueued(
        organizationId,
        workflow.id,
        userId,
        request,
        (executionId, executor) => queue.enqueue(executionId, executor),
      );
      await events.publish({
        type: 'workflow_execution_created',
        organizationId,
        executionId: id,
        workflowId,
      });
      return get(organizationId, id);
    },

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
