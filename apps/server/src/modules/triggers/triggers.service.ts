import type { Execution, ExecutionTrigger } from '@crewline/contracts';
import { AppError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { ExecutionsService, PrepareRun } from '../executions/executions.service';
import type { WorkflowsService } from '../workflows/workflows.service';

/** A trigger's event: which workflow it starts, and the run input the event becomes. */
export type TriggerEvent = {
  organizationId: string;
  workflowId: string;
  trigger: Exclude<ExecutionTrigger, 'manual'>;
  input: Record<string, unknown>;
  /**
   * The event came from outside the organization (an email from a sender outside its trusted
   * domains, an unsigned webhook call): the run is marked untrusted.
   */
  untrusted?: boolean;
  /** Commits with the run (a schedule claims its tick here); throwing starts nothing. */
  prepare?: PrepareRun;
};

/**
 * Thrown by a `prepare` when the event was taken already (another worker claimed the tick): no run,
 * and nothing to report on the workflow.
 */
export class AlreadyTakenError extends Error {}

/**
 * Starts the runs of schedules, webhooks and email, through the executions service's one start path
 * (docs/architecture.md, Triggers). A refusal to start (the workflow is no longer valid, the queue is
 * down) is kept on the workflow as its last trigger error, which the builder and the workflow card
 * show, published as `workflow_trigger_failed`, and thrown on; the next run a trigger starts clears it.
 */
export function createTriggersService(deps: {
  executions: ExecutionsService;
  workflows: WorkflowsService;
  events: EventBus;
}) {
  return {
    async fire(event: TriggerEvent): Promise<Execution> {
      const { organizationId, workflowId } = event;
      let execution: Execution;
      try {
        execution = await deps.executions.startRun(
          {
            organizationId,
            workflowId,
            trigger: event.trigger,
            triggeredBy: null,
            input: event.input,
            untrusted: event.untrusted,
          },
          event.prepare,
        );
      } catch (error) {
        if (error instanceof AppError) {
          await deps.workflows.setTriggerError(organizationId, workflowId, error.message);
          await deps.events.publish({
            type: 'workflow_trigger_failed',
            organizationId,
            workflowId,
            error: error.message,
          });
        }
        throw error;
      }
      await deps.workflows.setTriggerError(organizationId, workflowId, null);
      return execution;
    },
  };
}
export type TriggersService = ReturnType<typeof createTriggersService>;
