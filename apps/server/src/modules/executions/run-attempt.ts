import { microsOfUsd, type NodeOutput } from '@crewline/contracts';
import { runWorkflow } from '@crewline/engine';
import type { LlmConnection, LlmProvider } from '../../platform/llm';
import { createAgentStep } from './agent-step';
import { createEventOutbox } from './event-outbox';
import type { ExecutionRunnerDeps } from './execution-runner';
import type { ExecutionsRepository } from './executions.repository';
import type { ClaimedRun, RunDefinitions } from './run-definitions';
import { completeRun, endStoppedRun, type AttemptEnd } from './run-end';
import { Interrupted, stopsRun } from './run-errors';
import { holdLease } from './run-lease';
import { createRunLog } from './run-log';
import { createStepDelivery } from './step-delivery';
import { createStepRecorder } from './step-recorder';
import type { SubWorkflows } from './sub-workflow';
import { createNoModelSteps } from './no-model-steps';
import { createRunWaits } from './run-waits';
import { readStoredWait } from './stored-wait';
import { inStep } from '../../platform/telemetry/tracing';
import { metrics } from '../../platform/metrics/metrics';

export type AttemptDeps = Omit<ExecutionRunnerDeps, 'workflows' | 'agentModel'> & {
  definitions: Pick<RunDefinitions, 'of'>;
  /** Maps and loops that run another workflow (sub-workflow.ts); without it such a step fails its run. */
  subWorkflows?: SubWorkflows;
};

const noCompletedSteps: Awaited<ReturnType<ExecutionsRepository['completedSteps']>> = {
  outputs: {},
  undelivered: [],
};

/**
 * A run whose attempts were cut short too often is failed instead of run again (then true). Attempts
 * handed back on a graceful stop (deploys) are not failures of the run's workers.
 */
export async function abandonIfWornOut(deps: AttemptDeps, run: ClaimedRun): Promise<boolean> {
  if (run.attempt - run.handedBack <= deps.maxAttempts) return false;
  const reason = `The run was stopped: its worker stopped ${deps.maxAttempts} times before it could finish.`;
  if (await deps.repository.abandon(run.id, run.attempt, reason)) {
    metrics.runEnded(run.trigger, 'failed');
    await createEventOutbox(deps.events).publish({
      type: 'workflow_execution_failed',
      organizationId: run.organizationId,
      executionId: run.id,
      workflowId: run.workflowId,
      error: reason,
    });
  }
  return true;
}

/** What a run's own finished steps spent: micro-dollars (of priced calls) and tokens. */
function spentBy(outputs: Record<string, NodeOutput>) {
  const own = Object.values(outputs).filter((step) => step.metadata.reused !== true);
  return {
    micros: own.reduce((sum, step) => sum + microsOfUsd(step.usage.costUsd ?? 0), 0),
    tokens: own.reduce((sum, step) => sum + step.usage.totalTokens, 0),
  };
}

/** Whether the run's connection to a provider uses the server's key (false when it has none: the step failed). */
function serverKeyOf(connection: (provider: LlmProvider) => LlmConnection, provider: LlmProvider) {
  try {
    return connection(provider).serverKey === true;
  } catch {
    return false;
  }
}

/**
 * An attempt at a run this worker has just claimed (docs/architecture.md, Runner): it holds the
 * lease, sends what earlier attempts stored but did not send, runs the engine with the agent step as
 * its model port and the step recorder as its event handler, and ends the run. `abort` stops it
 * (cancel, lease lost, shutdown); `draining` says the worker is stopping (no new step starts).
 */
export async function runAttempt(
  deps: AttemptDeps,
  run: ClaimedRun,
  control: { abort: AbortController; draining(): boolean },
): Promise<void> {
  const { id: executionId, organizationId, workflowId, attempt } = run;
  const ids = { organizationId, executionId, workflowId };
  const { signal } = control.abort;
  const { repository, logger } = deps;
  const outbox = createEventOutbox(deps.events);
  const lease = holdLease({
    repository,
    executionId,
    attempt,
    leaseMs: deps.leaseMs,
    abort: control.abort,
    logger,
  });
  const runLog = createRunLog();
  const failedSteps = new Map<string, string>();
  const end: AttemptEnd = { repository, ids, trigger: run.trigger, attempt, outbox, runLog, logger };
  /** The attempt's step recorder, once the run's definitions are loaded. */
  let recorder: ReturnType<typeof createStepRecorder> | undefined;
  const stopIfInterrupted = () => {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Interrupted('cancelled');
    if (control.draining()) throw new Interrupted('shutdown');
  };

  try {
    // A first attempt has finished steps only when a retry copied them in, and those are in its
    // output already: a fresh run skips the read.
    const fresh = attempt === 1 && Object.keys(run.output ?? {}).length === 0;
    const completed = fresh ? noCompletedSteps : await repository.completedSteps(executionId);
    const waited = readStoredWait(run.waiting);
    if (waited) runLog.add('info', `Resumed after waiting: ${waited.title}`);
    else if (run.resumed)
      runLog.add(
        'warn',
        `Resumed (attempt ${attempt}) after the previous worker stopped; ${Object.keys(completed.outputs).length} finished step(s) reused`,
      );
    else runLog.add('info', 'Run started');
    outbox.soon({ type: 'workflow_execution_started', ...ids });
    const {
      name,
      definition,
      agents,
      ask,
      guardModels,
      connection,
      priceOf,
      budget,
      organizationBudget,
      chatCap,
    } = await deps.definitions.of(run);
    // The run's budgets start from what its own finished steps spent (a retry's reused ones were the earlier run's).
    const runSpend = deps.budgets?.forRun({
      organizationId,
      workflowId,
      budget,
      organizationBudget,
      chatCap,
      priceOf,
      spent: spentBy(completed.outputs),
    });
    const nodeData = new Map(definition.nodes.map((n) => [n.id, n.data ?? {}]));
    const parts = { ids, attempt, outbox, runLog, signal, logger };
    const delivery = createStepDelivery({
      ...parts,
      delivery: deps.delivery,
      repository,
      workflowName: name,
      nodeData,
    });
    recorder = createStepRecorder({
      ...parts,
      repository,
      delivery,
      agents,
      nodeData,
      failedSteps,
      serverKey: (provider) => serverKeyOf(connection, provider),
    });
    // Approval and Delay steps, and tool calls that need approval, wait through them (run-waits.ts).
    const waits =
      deps.approvals &&
      createRunWaits({
        approvals: deps.approvals,
        ids,
        attempt,
        resumedFrom: run.waiting,
        outbox,
        runLog,
        clock: () => (deps.clock?.() ?? new Date()).getTime(),
        notifyApprovers: deps.notifyApprovers,
      });
    // What expressions read as `run` (the first attempt's start, kept by every claim).
    const runInfo = {
      id: executionId,
      trigger: run.trigger,
      startedAt: (run.startedAt ?? new Date()).toISOString(),
    };
    const noModel = createNoModelSteps(deps, {
      organizationId,
      nodes: definition.nodes,
      runLog,
      signal,
      guardModels: {
        models: guardModels,
        priceOf,
        runSpend,
        serverKey: (provider) => serverKeyOf(connection, provider),
      },
      before: stopIfInterrupted,
    });
    const agentStep = createAgentStep({
      ...parts,
      guard: noModel.guard,
      guardContext: { input: run.input ?? {}, run: runInfo },
      ask,
      connection,
      priceOf,
      memory: deps.memory,
      untrusted: run.untrusted,
      waits,
      // A chat's reply streams to the person who wrote (modules/chat) whether or not a builder watches.
      watched: () => run.trigger === 'chat' || (deps.watching?.(organizationId, workflowId) ?? false),
      made: recorder.made,
      runSpend,
      serverKey: (provider) => serverKeyOf(connection, provider),
    });

    await delivery.pending(completed, stopIfInterrupted);
    const result = await runWorkflow(
      definition,
      {
        input: run.input ?? {},
        instructions: run.dynamicInstructions,
        parameters: run.parameters ?? {},
        run: runInfo,
        mapItems: run.mapItems ?? undefined,
      },
      {
        now: () => Date.now(),
        completed: completed.outputs,
        concurrency: deps.parallelism,
        async callAgent(call) {
          stopIfInterrupted();
          return inStep(call.step, () => agentStep(call, agents.get(call.agent.id)!));
        },
        ...noModel.ports,
        ...(deps.subWorkflows && {
          runWorkflow: deps.subWorkflows.forAttempt({
            ...parts,
            run,
            workflowName: name,
            memory: deps.memory,
            tools: deps.tools,
            sandbox: deps.sandbox,
            guardrails: deps.guardrails,
            stopIfInterrupted,
            parallelism: deps.parallelism,
          }),
        }),
        onEvent: recorder.onStep,
        stops: stopsRun,
        ...(waits && { waits }),
      },
    );
    await completeRun(end, run, result, completed.outputs, recorder.takeParked());
  } catch (caught) {
    // A finished step still parked is stored while the lease is held, so the next attempt reuses it.
    await recorder?.storeParked().catch(() => undefined);
    // The lease stops before the run is handed back (endStoppedRun), never after.
    await lease.release();
    await endStoppedRun(end, caught, signal, failedSteps);
  } finally {
    outbox.close();
    await lease.release();
  }
}
