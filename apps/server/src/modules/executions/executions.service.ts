import {
  executionMessages,
  type ExecuteWorkflowData,
  type Execution,
  type ExecutionListFilters,
} from '@crewline/contracts';
import { EXECUTIONS_PAGE_DEFAULT, EXECUTIONS_PAGE_MAX } from '@crewline/contracts/endpoints';
import { ConflictError, NotFoundError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';
import { requireUuid } from '../../platform/ids';
import type { BillingService } from '../billing/billing.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { ExecutionsCursor, ExecutionsRepository } from './executions.repository';
import { createRunRetry } from './run-retry.service';
import { createRunStarter } from './run-start.service';
import { waitForRunEnd } from './run-wait';
import type { SpendService } from '../costs/spend.service';
import type { ChatCapMicrosSql } from '../costs/budgets.columns';

import type { LocalClaims } from './local-claims';

export type { PrepareRun } from './run-start.service';

/**
 * The executions module's service, composed of its parts: starting runs (run-start.service.ts) and
 * retrying them (run-retry.service.ts); reading, listing and cancelling are here.
 */
export function createExecutionsService(deps: {
  repository: ExecutionsRepository;
  workflows: WorkflowsService;
  events: EventBus;
  /** The plan's monthly executions (modules/billing): every run, whatever started it, counts here. */
  limits: Pick<BillingService, 'executionAllowance'>;
  /** Monthly caps (modules/costs): a start is refused once one is spent. */
  spend?: Pick<SpendService, 'refuseSpentCap'>;
  /** A chat app's monthly cap (modules/mcp's `chatCapMicrosSql`): its chat runs' start reads it. */
  chatCapMicros?: ChatCapMicrosSql;
  /** This process's idle worker loops, which take a run as it starts (local-claims.ts). */
  localClaims?: Pick<LocalClaims, 'reserve'>;
}) {
  const { repository, events } = deps;

  async function get(organizationId: string, id: string): Promise<Execution> {
    const execution = await repository.get(organizationId, requireUuid(id, executionMessages.notFound));
    if (!execution) throw new NotFoundError(executionMessages.notFound);
    return execution;
  }

  const startRun = createRunStarter(deps);
  const retry = createRunRetry({ repository, workflows: deps.workflows, get, startRun });

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
     * newest version, the pending row is the queue's entry (no job), workers are woken by NOTIFY at
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

    /**
     * Waits up to `timeoutMs` for a run of the organization to end (run-wait.ts): the run as it
     * ended, or undefined while it still goes on (or `signal` aborted). `onEvent` hears the run's
     * events meanwhile (its steps' answers as they are written, when they stream).
     */
    waitForEnd: (
      organizationId: string,
      runId: string,
      options: {
        timeoutMs: number;
        signal?: AbortSignal;
        onEvent?: Parameters<typeof waitForRunEnd>[0]['onEvent'];
      },
    ) => waitForRunEnd({ events, read: () => get(organizationId, runId), runId, ...options }),

    /** Stops a pending or running run; the worker aborts its model calls (docs/product-rules.md). */
    async cancel(organizationId: string, id: string): Promise<Execution> {
      const current = await get(organizationId, id);
      // Its event, and the abort for the worker running it, leave from the cancelling update.
      const ids = { organizationId, executionId: current.id, workflowId: current.workflowId };
      const cancelled = await repository.cancel(organizationId, current.id, [
        events.statementNotification({ type: 'workflow_execution_cancelled', ...ids }),
        events.inStatement(channels.runs, { type: 'cancelled', executionId: current.id }),
      ]);
      if (!cancelled) {
        // Read again: the run may have ended between the two statements.
        throw new ConflictError(executionMessages.alreadyFinished((await get(organizationId, id)).status));
      }
      return get(organizationId, id);
    },
  };
}
export type ExecutionsService = ReturnType<typeof createExecutionsService>;
