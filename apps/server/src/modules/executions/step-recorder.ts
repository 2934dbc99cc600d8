import {
  microsOfUsd,
  nodeKinds,
  type Agent,
  type NodeKind,
  type NodeOutput,
  type RealtimeEvent,
} from '@crewline/contracts';
import type { AgentCall, EngineEvent } from '@crewline/engine';
import type { Logger } from 'pino';
import { databaseUnavailable } from '../../platform/database-unavailable';
import { metrics } from '../../platform/metrics/metrics';
import { LlmCallError, type LlmTrace } from '../../platform/llm';
import type { EventOutbox } from './event-outbox';
import type { ExecutionsRepository, StepRecord } from './executions.repository';
import { Interrupted, isExpected, readableError } from './run-errors';
import type { RunLog } from './run-log';
import type { StepDelivery } from './step-delivery';
import { stepRecord } from '../../platform/llm/step-record';
import type { StepSpend } from '../costs/spend-ledger.columns';

/** A step's call as it was made (agent-step.ts), for its record. */
export type MadeCall = { call: AgentCall; agent: Agent; trace: LlmTrace };

type Started = Extract<EngineEvent, { type: 'node_started' }>;
type Completed = Extract<EngineEvent, { type: 'node_completed' }>;
type Failed = Extract<EngineEvent, { type: 'node_failed' }>;
type Skipped = Extract<EngineEvent, { type: 'node_skipped' }>;

export type StepRecorderDeps = {
  repository: Pick<ExecutionsRepository, 'recordStep' | 'recordFailedStep'>;
  ids: { organizationId: string; executionId: string; workflowId: string };
  attempt: number;
  outbox: EventOutbox;
  runLog: RunLog;
  delivery: Pick<StepDelivery, 'sends' | 'deliver'>;
  agents: Map<string, Agent>;
  nodeData: Map<string, Record<string, unknown>>;
  /** Whether the run's calls to a provider go through the server's own key (the spend ledger says so). */
  serverKey?: (provider: Agent['llmProvider']) => boolean;
  /** The failed steps' names by their readable error: the run's card names the one its error came from. */
  failedSteps: Map<string, string>;
  signal: AbortSignal;
  logger?: Logger;
};

/** A step's record, built when the step is stored. */
type RecordOf = (nodeId: string, answer: NodeOutput | null) => ReturnType<typeof stepRecord> | undefined;

/**
 * A finished step not stored yet: it finished while no other step was running, so it waits for what
 * comes next. The run's end stores it with the run (one statement, `completeWithStep`); anything else
 * (another step starting, a wait, a failure, the attempt stopping) stores it first, so no step's work
 * starts before the steps before it are stored.
 */
export type ParkedStep = {
  record: StepRecord;
  /** Its completed event, for the statement that stores it. */
  event: RealtimeEvent;
  /** The run's log lines it carries: given back if its statement fails. */
  runLogs: { release(): void };
  /** What follows its storing (metrics). */
  stored(): void;
};

/**
 * An attempt's steps through their lifecycle, as the engine reports them (docs/architecture.md, Runs):
 * a started step is announced; a completed one is stored (the checkpoint a later attempt resumes
 * from, with its record and the run's log lines not stored yet), then delivered where its node says,
 * then published; a failed one is stored as failed with its readable error and published. Every
 * write carries the attempt number, so a worker that lost the run can no longer change it.
 */
export function createStepRecorder(deps: StepRecorderDeps) {
  /** Each step's call as it was made, by step id, for its record. */
  const calls = new Map<string, MadeCall>();
  /** A hierarchical lead's delegations that ran, by the lead's node id. */
  const delegations = new Map<string, number>();
  const recordOf: RecordOf = (nodeId, answer) => {
    const made = calls.get(nodeId);
    calls.delete(nodeId);
    const by = answer?.metadata.delegatedBy;
    if (by) delegations.set(by, (delegations.get(by) ?? 0) + 1);
    return made && stepRecord({ ...made, answer, delegations: delegations.get(nodeId) ?? 0 });
  };

  /** Steps started and not ended yet. */
  let running = 0;
  let parked: ParkedStep | undefined;
  /** Takes the parked step, if any: whoever takes it stores it, so it is never stored twice. */
  const takeParked = () => {
    const step = parked;
    parked = undefined;
    return step;
  };
  const storeParked = async () => {
    const step = takeParked();
    if (step) await storeCompleted(deps, step);
  };

  return {
    /** The one handler of the engine's step events. */
    async onStep(event: EngineEvent): Promise<void> {
      await storeParked();
      switch (event.type) {
        case 'node_started':
          running++;
          return started(deps, event);
        case 'node_completed':
          running--;
          // Parked only with nothing else running: a step still working could cost its model call twice
          // if the worker died with this one unstored.
          return completed(deps, recordOf, event, running === 0 ? (step) => (parked = step) : undefined);
        case 'node_failed':
          running--;
          return failed(deps, recordOf, event);
        case 'node_skipped':
          return skipped(deps, event);
        case 'node_waiting':
          running--;
          // The run waits here: the wait's own statement stored it (run-waits.ts); this says so live.
          return deps.outbox.soon({
            type: 'execution_node_waiting',
            ...deps.ids,
            nodeId: event.nodeId,
            baseNodeId: event.baseNodeId,
          });
        case 'node_items':
          return deps.outbox.soon({
            type: 'execution_node_items',
            ...deps.ids,
            nodeId: event.nodeId,
            baseNodeId: event.baseNodeId,
            total: event.total,
          });
        default:
          event satisfies never;
      }
    },
    /** Keeps a step's call for its record, stored with the step. */
    made(made: MadeCall) {
      calls.set(made.call.nodeId, made);
    },
    /** The parked step, for the run's end to store with the run; it is no longer the recorder's. */
    takeParked,
    /** Stores the parked step now (the attempt stops before the run's end). */
    storeParked,
  };
}

/** An agent step's model use for the spend ledger; none for steps that call no model. */
function stepSpend(deps: StepRecorderDeps, event: Completed): StepSpend | undefined {
  const agent = event.agentId ? deps.agents.get(event.agentId) : undefined;
  if (event.kind !== 'agent' || !agent) return undefined;
  const { usage, metadata } = event.output;
  return {
    provider: agent.llmProvider,
    model: metadata.model ?? agent.llmModel,
    serverKey: deps.serverKey?.(agent.llmProvider) ?? false,
    calls: usage.calls ?? 1,
    inputTokens: usage.promptTokens,
    cachedInputTokens: usage.cachedInputTokens ?? 0,
    outputTokens: usage.completionTokens,
    // Without a price table (steps tested alone) the cost is as unknown as a model without a price.
    costMicros: usage.costUsd === undefined || usage.costUsd === null ? null : microsOfUsd(usage.costUsd),
  };
}

/** A started step is announced with the run's next statement (event-outbox.ts). */
function started(deps: StepRecorderDeps, event: Started) {
  deps.outbox.soon({
    type: 'execution_node_started',
    ...deps.ids,
    nodeId: event.nodeId,
    baseNodeId: event.baseNodeId,
    agentName: event.agentId ? deps.agents.get(event.agentId)?.name : undefined,
  });
}

/** A step whose path was not taken is announced with the run's next statement, and never stored. */
function skipped(deps: StepRecorderDeps, event: Skipped) {
  deps.outbox.soon({
    type: 'execution_node_skipped',
    ...deps.ids,
    nodeId: event.nodeId,
    baseNodeId: event.baseNodeId,
  });
}

/**
 * A step finished: stored (the checkpoint), then delivered where its node says, then published. With
 * `park`, a step that sends nothing is handed over instead, to be stored by what comes next.
 */
async function completed(
  deps: StepRecorderDeps,
  recordOf: RecordOf,
  event: Completed,
  park?: (step: ParkedStep) => void,
) {
  const { repository, ids, outbox, runLog, delivery } = deps;
  const { nodeId, baseNodeId, agentId, output, evaluation, startedAt, completedAt } = event;
  const name = output.metadata.agentName ?? stepName(deps, baseNodeId, agentId, event.kind);
  runLog.add('info', `${name} finished in ${output.executionTime} ms`, nodeId);
  const runLogs = runLog.claim();
  const completedEvent: RealtimeEvent = {
    type: 'execution_node_completed',
    ...ids,
    nodeId,
    baseNodeId,
    executionTime: output.executionTime,
    totalTokens: output.usage.totalTokens,
    ...(output.usage.costUsd !== undefined ? { costUsd: output.usage.costUsd } : {}),
    ...(event.kind === 'condition' ? { branch: (output.data as { branch: string }).branch } : {}),
  };
  // A step with nothing to send is published by the statement that stores it; one that sends
  // its output is published once it is sent.
  // A step its agent's guardrail blocked sends nothing: its content is only the block.
  const sends = delivery.sends(baseNodeId) && !output.metadata.blockedBy;
  const spend = stepSpend(deps, event);
  const record: StepRecord = {
    nodeId,
    baseNodeId,
    agentId,
    kind: event.kind,
    delivery: sends ? 'pending' : null,
    record: recordOf(nodeId, output),
    ...(evaluation ? { evaluation } : {}),
    output,
    metrics: { executionTime: output.executionTime, ...output.usage },
    spend,
    logs: runLog.ofStep(nodeId),
    // The engine's clock (ports.now): the times its step events and executionTime come from.
    startedAt: new Date(startedAt),
    completedAt: new Date(completedAt),
    runLogs: runLogs.lines,
  };
  const stored = () => {
    metrics.stepEnded(event.kind, 'completed', startedAt, completedAt);
    metrics.modelSpend(spend);
  };
  if (!sends) {
    const step = { record, event: completedEvent, runLogs, stored };
    if (park) park(step);
    else await storeCompleted(deps, step);
    return;
  }
  await outbox.flush();
  const ours = await repository.recordStep(ids.executionId, deps.attempt, record).catch((err: unknown) => {
    runLogs.release();
    throw err;
  });
  if (!ours) throw new Interrupted('superseded');
  stored();
  await delivery.deliver(nodeId, baseNodeId, output);
  await outbox.publish(completedEvent);
}

/** Stores a finished step that sends nothing, with its completed event in the statement. */
async function storeCompleted(deps: StepRecorderDeps, step: ParkedStep) {
  const inStore = await deps.outbox.withStatement(step.event);
  const ours = await deps.repository
    .recordStep(deps.ids.executionId, deps.attempt, step.record, inStore.notify)
    .catch((err: unknown) => {
      step.runLogs.release();
      throw err;
    });
  if (!ours) throw new Interrupted('superseded');
  step.stored();
}

/**
 * A step's agent call failed: stored as failed (with the readable error, so per-agent figures
 * count it) and published. Not when the run was interrupted (nothing failed) or the database is
 * away (the run resumes later).
 */
async function failed(deps: StepRecorderDeps, recordOf: RecordOf, event: Failed) {
  const { ids, runLog } = deps;
  const { nodeId, baseNodeId, agentId, kind, error, startedAt, completedAt } = event;
  if (deps.signal.aborted || error instanceof Interrupted) return;
  if (!isExpected(error) && databaseUnavailable(error)) return;
  metrics.stepEnded(kind, 'failed', startedAt, completedAt);
  const message = readableError(error);
  const name = stepName(deps, baseNodeId, agentId, kind);
  if (!deps.failedSteps.has(message)) deps.failedSteps.set(message, name);
  // The run's error line names the step that failed (the run review marks it on the graph).
  runLog.add('error', message, nodeId);
  const record = recordOf(nodeId, null);
  if (error instanceof LlmCallError)
    modelCallFailed(deps, error, {
      nodeId,
      step: name,
      model: record?.model ?? (agentId ? deps.agents.get(agentId)?.llmModel : undefined),
    });
  await deps.repository
    .recordFailedStep(ids.executionId, deps.attempt, {
      nodeId,
      baseNodeId,
      agentId,
      kind,
      error: message,
      record,
      logs: runLog.ofStep(nodeId),
      startedAt: new Date(startedAt),
      completedAt: new Date(completedAt),
    })
    .catch((err: unknown) =>
      deps.logger?.warn({ err, executionId: ids.executionId }, 'failed step not stored'),
    );
  await deps.outbox.flush();
  await deps.outbox.publish({ type: 'execution_node_failed', ...ids, nodeId, baseNodeId, error: message });
}

/** A step as people know it: its node's label on the canvas, else its agent's name, else its kind's. */
function stepName(deps: StepRecorderDeps, baseNodeId: string, agentId: string | null, kind?: NodeKind) {
  const label = deps.nodeData.get(baseNodeId)?.label;
  if (typeof label === 'string' && label.trim()) return label.trim();
  if (agentId) return deps.agents.get(agentId)?.name || 'Agent';
  return kind ? nodeKinds[kind].label : 'Agent';
}

/**
 * The server log's one line for a failed model call (after the gateway's own retries, which log
 * nothing): where, which model, what status; never the key, the prompt or the answer.
 */
function modelCallFailed(
  deps: StepRecorderDeps,
  error: LlmCallError,
  where: { nodeId: string; step: string; model: string | undefined },
) {
  deps.logger?.warn(
    {
      executionId: deps.ids.executionId,
      nodeId: where.nodeId,
      step: where.step,
      provider: error.provider,
      model: where.model,
      status: error.statusCode,
      kind: error.kind,
      attempts: error.attempts,
    },
    'model call failed',
  );
}
