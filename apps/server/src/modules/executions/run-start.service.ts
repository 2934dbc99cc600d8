import {
  executionMessages,
  type Execution,
  type ExecutionTrigger,
  type RealtimeEvent,
} from '@crewline/contracts';
import { randomUUID } from 'node:crypto';
import type { ExtraColumns, SqlExecutor } from '@crewline/db';
import { ConflictError } from '../../platform/errors';
import { currentTraceParent } from '../../platform/telemetry/tracing';
import { metrics } from '../../platform/metrics/metrics';
import type { EventBus } from '../../platform/events';
import { channels } from '../../platform/notifications/channels';
import type { BillingService } from '../billing/billing.service';
import { spentCapJson, type ChatCapMicrosSql } from '../costs/budgets.columns';
import type { SpendService } from '../costs/spend.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { ExecutionsRepository } from './executions.repository';
import type { LocalClaims } from './local-claims';

/*
 * How every run starts (executions.service.ts composes it; Execute, Retry and the triggers all call
 * startRun): the run rule, then the queued insert with its notifications.
 */

export type StartRunRequest = {
  organizationId: string;
  workflowId: string;
  /** What started it: a person (`manual`, with `triggeredBy`) or one of the workflow's triggers. */
  trigger: ExecutionTrigger;
  /** The user who started it; null for runs no person started. */
  triggeredBy: string | null;
  /** What started it when the trigger names it: an MCP client's name (`mcp`); null otherwise. */
  triggerDetail?: string | null;
  input?: Record<string, unknown>;
  dynamicInstructions?: string | null;
  parameters?: Record<string, unknown>;
  /**
   * Started from outside the organization (an email from a sender outside its trusted domains, an
   * unsigned webhook call): the run is marked so, its write tool calls need approval and agent
   * memory learns nothing from it. Trusted by default (manual, schedule, signed webhook runs).
   */
  untrusted?: boolean;
  /**
   * Runs this version rather than the newest (an eval run's items, docs/product-rules.md,
   * Evaluations): the workflow need not be active, since an evaluation may run a draft's snapshot.
   */
  pinnedVersion?: number;
};

/**
 * Work that commits with the run's pending row, in that transaction (`executor`): a retry's
 * reused steps, a schedule's claim of its tick. Throwing rolls the whole start back: no run.
 */
export type PrepareRun = (executionId: string, executor: SqlExecutor) => Promise<unknown>;

export function createRunStarter(deps: {
  repository: ExecutionsRepository;
  workflows: WorkflowsService;
  events: EventBus;
  /** The plan's monthly executions (modules/billing): every run, whatever started it, counts here. */
  limits: Pick<BillingService, 'executionAllowance'>;
  /**
   * Monthly caps (modules/costs): a start is refused (402) once the organization's or the workflow's
   * is spent, a chat run's also once its chat app's is (`chatCapMicros`, modules/mcp's, reads that cap).
   */
  spend?: Pick<SpendService, 'refuseSpentCap'>;
  chatCapMicros?: ChatCapMicrosSql;
  /** This process's idle worker loops, which take a run as it starts (local-claims.ts). */
  localClaims?: Pick<LocalClaims, 'reserve'>;
}) {
  const { repository, events } = deps;
  /** The run rule's extra columns: one object, so the workflow's read is built once (workflows.repository.ts). */
  let columns: ExtraColumns | undefined;
  const startColumns = (allowance: ExtraColumns) =>
    (columns ??= { ...allowance, spentCap: spentCapJson('workflows', deps.chatCapMicros) });

  /**
   * The one rule that decides whether a workflow can run: it must be active and structurally valid,
   * the organization's plan must allow another run this month (a refusal is a 402 PlanLimitError; a
   * trigger's becomes the workflow's last trigger error), and no monthly cap of the organization or
   * the workflow (nor, for a chat run, of its chat app) may be spent (a 402 BudgetExceededError). One
   * statement reads them all;
   * the run's insert checks the month's limit again on the locked counter (`allowance.runLimit`).
   */
  async function runnableWorkflow(
    organizationId: string,
    workflowId: string,
    pinned: boolean,
    trigger: ExecutionTrigger,
  ) {
    const allowance = deps.limits.executionAllowance(organizationId);
    const { workflow, extra } = await deps.workflows.getRunnable(
      organizationId,
      workflowId,
      startColumns(allowance.columns),
      allowance.parameters,
    );
    if (!pinned && workflow.status === 'draft') throw new ConflictError(executionMessages.draft);
    if (!pinned && workflow.status !== 'active')
      throw new ConflictError(executionMessages.notRunnable(workflow.status));
    deps.spend?.refuseSpentCap(extra.spentCap, trigger);
    const { runLimit, mapItems, concurrencyLimit } = allowance.check(extra.allowance);
    return { workflow, runLimit, mapItems, concurrencyLimit, refusal: allowance.refusal };
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
    const { workflow, runLimit, mapItems, concurrencyLimit, refusal } = await runnableWorkflow(
      organizationId,
      request.workflowId,
      request.pinnedVersion !== undefined,
      request.trigger,
    );
    const id = randomUUID();
    const created: RealtimeEvent = {
      type: 'workflow_execution_created',
      organizationId,
      executionId: id,
      workflowId: workflow.id,
    };
    // An idle loop of this process takes the run as it is inserted, when the queue rules allow.
    const claim = prepare ? undefined : deps.localClaims?.reserve();
    const queued = { type: 'queued', executionId: id } as const;
    // The run's created event and the workers' wake-up leave from the insert itself, when it queues the
    // run; a run claimed as it starts wakes no worker.
    const notify = [events.statementNotification(created)];
    if (!claim) notify.push(events.inStatement(channels.runs, queued));
    const execution = await repository
      .createQueued(
        organizationId,
        workflow,
        {
          trigger: request.trigger,
          triggerDetail: request.triggerDetail ?? null,
          triggeredBy: request.triggeredBy,
          untrusted: request.untrusted,
          pinnedVersion: request.pinnedVersion,
        },
        {
          input: request.input ?? {},
          dynamicInstructions: request.dynamicInstructions ?? null,
          parameters: request.parameters ?? {},
        },
        // With traces on, the run's span (on whichever worker claims it) continues the starting request's trace.
        {
          id,
          prepare,
          created: notify,
          runLimit,
          mapItems,
          concurrencyLimit,
          retryOf,
          traceParent: currentTraceParent(),
          claim,
        },
      )
      .finally(() => claim?.settle());
    if (!execution) throw refusal();
    // Claimable after all (another run was waiting, or the organization at its limit): a worker is woken.
    if (claim && execution.status === 'pending') void events.send(channels.runs, queued);
    metrics.runStarted(request.trigger);
    return execution;
  }

  return startRun;
}
