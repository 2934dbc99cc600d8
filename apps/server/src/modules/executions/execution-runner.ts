import type { Logger } from 'pino';
import type { EventBus } from '../../platform/events';
import { metrics } from '../../platform/metrics/metrics';
import type { AgentModel } from '../agents/agents.service';
import type { MemoryService } from '../memory/memory.service';
import type { WorkflowReads } from '../workflows/workflows.service';
import { onRunCancelled } from './event-outbox';
import type { ApprovalsRepository } from './approvals.repository';
import type { ExecutionsRepository } from './executions.repository';
import type { OutputDelivery } from './output-delivery';
import { abandonIfWornOut, runAttempt } from './run-attempt';
import { inRun } from '../../platform/telemetry/tracing';
import { createRunDefinitions, type ClaimedRun } from './run-definitions';
import { Interrupted } from './run-errors';
import { createSubWorkflows } from './sub-workflow';
import type { NoModelStepParts } from './no-model-steps';
import type { RunBudgets } from '../costs/run-budgets.service';
import type { ChatCapMicrosSql } from '../costs/budgets.columns';

/** Tool, Code and Guardrail steps' parts (no-model-steps.ts): without one, such a step fails its run. */
export type ExecutionRunnerDeps = NoModelStepParts & {
  repository: ExecutionsRepository;
  workflows: WorkflowReads;
  agentModel: AgentModel;
  events: EventBus;
  delivery?: OutputDelivery;
  logger?: Logger;
  leaseMs: number;
  maxAttempts: number;
  /** Agents of one parallel run working at once. */
  parallelism?: number;
  /**
   * Whether someone watches the workflow's runs live (modules/realtime/watched-workflows.ts): only
   * then is a step's answer streamed to them. Without it nothing is streamed.
   */
  watching?: (organizationId: string, workflowId: string) => boolean;
  /** Agent memory (modules/memory): recalled before and kept after each step of an agent with it on. */
  memory?: Pick<MemoryService, 'stepMemory'>;
  /** Approvals and waits (approvals.repository.ts); without it an Approval or Delay step fails its run. */
  approvals?: ApprovalsRepository;
  /** The waits' clock: delays' ends and approvals' timeouts (tests move it). */
  clock?: () => Date;
  /** Tells a new approval's approvers once it has committed (approval-links.service.ts emails them). */
  notifyApprovers?: (approvalId: string) => void;
  /** Budgets (modules/costs): a run's own budget and the monthly caps its model calls count against. */
  budgets?: RunBudgets;
  /** A chat app's monthly cap (modules/mcp's `chatCapMicrosSql`): a chat run's claim reads it. */
  chatCapMicros?: ChatCapMicrosSql;
};

/**
 * Runs executions through the engine (docs/architecture.md, Runs and Runner) with the organization's
 * models and tools: claims a run, works it (run-attempt.ts), and keeps the attempts in progress so a
 * cancel or a worker's shutdown reaches them.
 */
export function createExecutionRunner(deps: ExecutionRunnerDeps) {
  const { repository } = deps;
  const active = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let draining = false;
  const definitions = createRunDefinitions(deps);
  const { claimColumns } = definitions;
  const attemptDeps = { ...deps, definitions, subWorkflows: createSubWorkflows(deps) };

  onRunCancelled(deps.events, (executionId) =>
    active.get(executionId)?.abort.abort(new Interrupted('cancelled')),
  );

  /** An attempt at a run this worker has just claimed. */
  async function attempt(run: ClaimedRun): Promise<void> {
    metrics.runClaimed(run);
    if (await abandonIfWornOut(attemptDeps, run)) return;
    const abort = new AbortController();
    let settle!: () => void;
    active.set(run.id, { abort, done: new Promise<void>((resolve) => (settle = resolve)) });
    try {
      // One span per attempt, continuing the trace of the request that started the run (platform/telemetry).
      await inRun(run, () => runAttempt(attemptDeps, run, { abort, draining: () => draining }));
    } finally {
      active.delete(run.id);
      settle();
    }
  }

  return {
    /**
     * Claims the oldest run free to run and works it; resolves once the attempt is over, with
     * whether a run was claimed and whether another was waiting, or undefined when none was free.
     */
    async runNext(): Promise<{ more: boolean } | undefined> {
      const run = await repository.claimNext(deps.leaseMs, claimColumns);
      if (!run) return undefined;
      await attempt(run);
      return { more: run.more };
    },

    /**
     * The runner's side of runs claimed as they start (local-claims.ts): the columns and lease their
     * insert claims with, working such a run, and handing one back unworked.
     */
    claimedAtStart: {
      columns: claimColumns,
      leaseMs: deps.leaseMs,
      run: (run: ClaimedRun) => attempt(run),
      release: (run: ClaimedRun) => repository.release(run.id, run.attempt),
    },

    /** Runs the given execution if it is free to run (tests drive single runs with it). */
    async run(executionId: string): Promise<void> {
      const run = await repository.claim(executionId, deps.leaseMs, claimColumns);
      if (run) await attempt(run);
    },

    /** Ids of the runs this process is working on. */
    activeRuns: () => [...active.keys()],

    /**
     * Worker shutdown: no new steps start; runs whose current step ends within `graceMs` keep it
     * (stored), then every run still going is released for another worker to resume.
     */
    async drain(graceMs: number): Promise<void> {
      draining = true;
      const all = () => Promise.all([...active.values()].map((a) => a.done));
      await Promise.race([all(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
      for (const { abort } of active.values()) abort.abort(new Interrupted('shutdown'));
      await all();
    },
  };
}
export type ExecutionRunner = ReturnType<typeof createExecutionRunner>;
