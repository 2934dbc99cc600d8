import type { Agent, ExecutionLog, NodeOutput, RealtimeEvent } from '@crewline/contracts';
import {
  runWorkflow,
  WorkflowRunError,
  type AgentCall,
  type EngineEvent,
  type RunAgent,
  type RunDefinition,
} from '@crewline/engine';
import { DrizzleQueryError } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { EventBus } from '../../platform/events';
import { databaseUnavailable } from '../../platform/database-unavailable';
import {
  LlmCallError,
  LlmConfigurationError,
  newLlmTrace,
  type LlmTool,
  type LlmTrace,
  type LlmUsage,
} from '../../platform/llm';
import type { AgentModel } from '../agents/agent-model';
import type { MemoryService } from '../memory/memory.service';
import { createStepMemory } from '../memory/step-memory';
import { runAgentIds, type WorkflowsRepository } from '../workflows/workflows.repository';
import type { Claimed, ExecutionsRepository } from './executions.repository';
import { OutputDeliveryError, sendsOutput, type OutputDelivery } from './output-delivery';
import { stepRecord } from './step-record';
import { createStepStream } from './step-stream';

export type ExecutionRunnerDeps = {
  repository: ExecutionsRepository;
  workflows: WorkflowsRepository;
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
  memory?: Pick<MemoryService, 'recall' | 'remember'>;
};

/** Why an attempt stopped without an outcome of its own: the run was cancelled or taken over, or the worker is stopping. */
class Interrupted extends Error {
  constructor(readonly reason: 'cancelled' | 'superseded' | 'shutdown') {
    super(`run interrupted: ${reason}`);
  }
}

/** Workflow versions a worker keeps in memory. */
const VERSIONS_KEPT = 500;
/** How long a started event (the run's, a step's) may wait to travel with the run's next statement. */
const STARTED_EVENT_WAIT_MS = 50;
/** A running step's answer reaches its watchers at most ten times a second (step-stream.ts). */
const STREAM_INTERVAL_MS = 100;

const addUsage = (a: LlmUsage, b: LlmUsage): LlmUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  totalTokens: a.totalTokens + b.totalTokens,
});

const log = (level: ExecutionLog['level'], message: string, nodeId?: string): ExecutionLog => ({
  at: new Date().toISOString(),
  level,
  message,
  ...(nodeId ? { nodeId } : {}),
});

/**
 * Failures a run can meet in normal use (provider errors, missing configuration, a broken workflow,
 * an output destination that refused the output): their messages are written for the user.
 */
const isExpected = (error: unknown): error is Error =>
  error instanceof LlmCallError ||
  error instanceof LlmConfigurationError ||
  error instanceof WorkflowRunError ||
  error instanceof OutputDeliveryError;

/** What the user reads in the Error box: the provider's or engine's words, never a stack. */
function readableError(error: unknown): string {
  if (isExpected(error)) return error.message;
  // Drizzle's message quotes the failed statement and its parameters: for the server log, not the run.
  if (error instanceof DrizzleQueryError) return 'The run stopped unexpectedly: a database error';
  if (error instanceof Error && error.message) return `The run stopped unexpectedly: ${error.message}`;
  return 'The run stopped unexpectedly';
}

/**
 * A retry's reused steps (`metadata.reused`) were paid for by the run it retried: the run's token
 * totals count only its own model calls, and `reusedSteps` says how many it reused.
 */
function ownTokens(
  totals: { totalTokens: number; promptTokens: number; completionTokens: number },
  completed: Record<string, NodeOutput>,
) {
  const reused = Object.values(completed).filter((step) => step.metadata.reused === true);
  const less = (key: keyof typeof totals) =>
    Math.max(0, totals[key] - reused.reduce((sum, step) => sum + step.usage[key], 0));
  return {
    totalTokens: less('totalTokens'),
    promptTokens: less('promptTokens'),
    completionTokens: less('completionTokens'),
    reusedSteps: reused.length,
  };
}

/**
 * Runs one execution through the engine (docs/architecture.md, Runs) with the organization's models and tools.
 * Each finished step is stored at once — the checkpoint a later attempt resumes from — and every
 * write carries the attempt number, so a worker that lost the run can no longer change it. One
 * handler (`onStep`) takes each step through its lifecycle: stored, then delivered, then published.
 */
export function createExecutionRunner(deps: ExecutionRunnerDeps) {
  const { repository, events } = deps;
  const active = new Map<string, { abort: AbortController; done: Promise<void> }>();
  let draining = false;

  // Cancel is a row update made by any API process; its event reaches this worker over LISTEN/NOTIFY.
  events.subscribe((event) => {
    if (event.type === 'workflow_execution_cancelled')
      active.get(event.executionId)?.abort.abort(new Interrupted('cancelled'));
  });

  /**
   * The definition the run is pinned to (its workflow version), never the working copy edited since;
   * runs from before versions existed (no version) use the working copy.
   */
  const noCompletedSteps: Awaited<ReturnType<ExecutionsRepository['completedSteps']>> = {
    outputs: {},
    undelivered: [],
  };

  /** Workflow versions never change once written: each is read once per process (the newest kept). */
  const versions = new Map<string, Awaited<ReturnType<WorkflowsRepository['version']>>>();
  async function versionOf(organizationId: string, workflowId: string, version: number) {
    const key = `${organizationId}:${workflowId}:${version}`;
    let found = versions.get(key);
    if (!found) {
      found = await deps.workflows.version(organizationId, workflowId, version);
      if (found) versions.set(key, found);
      if (versions.size > VERSIONS_KEPT) versions.delete(versions.keys().next().value!);
    }
    return found;
  }

  /**
   * What the claim reads along with the run, in the same statement: the agents its nodes name, with
   * their tools and the organization's connections.
   */
  const claimColumns = deps.agentModel.runColumns('workflow_executions', runAgentIds('workflow_executions'));

  async function definitionOf(run: Claimed<typeof claimColumns>) {
    const { organizationId, workflowId, workflowVersion: version } = run;
    const workflow =
      version === null
        ? await deps.workflows.get(organizationId, workflowId)
        : await versionOf(organizationId, workflowId, version);
    if (!workflow) throw new WorkflowRunError('The workflow of this run no longer exists');
    const runAgents = deps.agentModel.forRun(organizationId, run.extra);
    const agents = runAgents.agents;
    const definition: RunDefinition = {
      processType: workflow.processType,
      nodes: workflow.nodes,
      edges: workflow.edges,
      agents: Object.fromEntries(agents) as Record<string, RunAgent>,
    };
    return { name: workflow.name, definition, agents, ask: runAgents.ask, connection: runAgents.connection };
  }

  const publish = (event: RealtimeEvent) => Promise.resolve(events.publish(event)).catch(() => undefined);
  /** The event's NOTIFY for the statement that makes it true, when the bus has one (else: publish after). */
  const inStatement = (event: RealtimeEvent | RealtimeEvent[]) => events.statementNotification?.(event);

  /** An attempt at a run this worker has just claimed. */
  async function attempt(run: Claimed<typeof claimColumns>): Promise<void> {
    const { id: executionId, organizationId, workflowId, attempt: attemptNo } = run;
    const ids = { organizationId, executionId, workflowId };

    // Attempts handed back on a graceful stop (deploys) are not failures of the run's workers.
    if (attemptNo - run.handedBack > deps.maxAttempts) {
      const reason = `The run was stopped: its worker stopped ${deps.maxAttempts} times before it could finish.`;
      if (await repository.abandon(executionId, attemptNo, reason))
        await publish({ type: 'workflow_execution_failed', ...ids, error: reason });
      return;
    }

    const abort = new AbortController();
    let settle!: () => void;
    active.set(executionId, { abort, done: new Promise<void>((resolve) => (settle = resolve)) });
    const lease = setInterval(
      () => {
        repository
          .renewLease(executionId, attemptNo, deps.leaseMs)
          .then((ours) => {
            if (!ours && !abort.signal.aborted) abort.abort(new Interrupted('superseded'));
          })
          .catch((err: unknown) => deps.logger?.warn({ err, executionId }, 'lease renewal failed'));
      },
      Math.max(200, Math.floor(deps.leaseMs / 3)),
    );

    /**
     * Events that may wait for the run's next statement (the run, or a step, started): they travel
     * in its notification, in order before its own event, or on their own after STARTED_EVENT_WAIT_MS,
     * so a step that takes its time still shows as started at once.
     */
    let waiting: RealtimeEvent[] = [];
    let waitTimer: NodeJS.Timeout | undefined;
    const takeWaiting = () => {
      clearTimeout(waitTimer);
      waitTimer = undefined;
      const taken = waiting;
      waiting = [];
      return taken;
    };
    const publishWaiting = async () => {
      for (const event of takeWaiting()) await publish(event);
    };
    const publishSoon = (event: RealtimeEvent) => {
      waiting.push(event);
      waitTimer ??= setTimeout(() => void publishWaiting(), STARTED_EVENT_WAIT_MS);
    };
    /** `event`, after the waiting ones, in the statement that makes it true; else all published after. */
    const withStatement = (event: RealtimeEvent) => {
      const events = [...takeWaiting(), event];
      const notify = inStatement(events);
      return {
        notify,
        async published() {
          if (!notify) for (const each of events) await publish(each);
        },
      };
    };

    const logs: ExecutionLog[] = [];
    /** The failed steps' names by their readable error: the run's card names the one its error came from. */
    const failedStepNames = new Map<string, string>();
    // Lines already stored with a step (recordStep); the rest are stored when the run ends.
    const stored = new WeakSet<ExecutionLog>();
    const unstored = () => logs.filter((line) => !stored.has(line));
    const stepStarts = new Map<string, Date>();
    const baseNodeOf = new Map<string, string>();
    const stopIfInterrupted = () => {
      if (abort.signal.aborted)
        throw abort.signal.reason instanceof Error ? abort.signal.reason : new Interrupted('cancelled');
      if (draining) throw new Interrupted('shutdown');
    };

    try {
      // A first attempt has finished steps only when a retry copied them in, and those are in its
      // output already: a fresh run skips the read.
      const fresh = attemptNo === 1 && Object.keys(run.output ?? {}).length === 0;
      const completed = fresh ? noCompletedSteps : await repository.completedSteps(executionId);
      logs.push(
        run.resumed
          ? log(
              'warn',
              `Resumed (attempt ${attemptNo}) after the previous worker stopped; ${Object.keys(completed.outputs).length} finished step(s) reused`,
            )
          : log('info', 'Run started'),
      );
      publishSoon({ type: 'workflow_execution_started', ...ids });
      const { name: workflowName, definition, agents, ask, connection } = await definitionOf(run);
      const nodeData = new Map(definition.nodes.map((n) => [n.id, n.data ?? {}]));

      /** Each step's call as it was made, by step id, for its record (stepCompleted, stepFailed). */
      const calls = new Map<string, { call: AgentCall; agent: Agent; trace: LlmTrace }>();
      /** A hierarchical lead's delegations that ran, by the lead's node id. */
      const delegations = new Map<string, number>();
      const recordOf = (nodeId: string, answer: NodeOutput | null) => {
        const made = calls.get(nodeId);
        calls.delete(nodeId);
        const by = answer?.metadata.delegatedBy;
        if (by) delegations.set(by, (delegations.get(by) ?? 0) + 1);
        return made && stepRecord({ ...made, answer, delegations: delegations.get(nodeId) ?? 0 });
      };

      /** Agent memory around each step of an agent with it on (modules/memory/step-memory.ts). */
      const memory =
        deps.memory &&
        createStepMemory({
          memory: deps.memory,
          organizationId,
          executionId,
          signal: abort.signal,
          connection,
          log: (level, message, nodeId) => logs.push(log(level, message, nodeId)),
          logger: deps.logger,
        });

      /** One agent call: the model, with its tools, its answer streamed to the run's watchers. */
      const askAgent = async (call: AgentCall, agent: Agent) => {
        const trace = newLlmTrace();
        const remembering = await memory?.recall(agent, call);
        const system = remembering?.system ?? call.system;
        calls.set(call.nodeId, { call: { ...call, system }, agent, trace });
        const step = { nodeId: call.nodeId, baseNodeId: baseNodeOf.get(call.nodeId) ?? call.nodeId };
        // Asked at each step: a builder opened mid-run streams the run's next steps.
        const watched = deps.watching?.(organizationId, workflowId) ?? false;
        const stream = createStepStream({
          intervalMs: STREAM_INTERVAL_MS,
          async publish(update) {
            // The step's started event goes first.
            await publishWaiting();
            await publish({ type: 'execution_node_delta', ...ids, ...step, ...update });
          },
        });
        const answer = await ask(
          agent,
          { system, user: call.user },
          {
            extraTools: call.tools as Record<string, LlmTool> | undefined,
            signal: abort.signal,
            trace,
            onTextDelta: watched ? stream.push : undefined,
          },
        ).finally(() => stream.close());
        for (const step of answer.steps)
          for (const tool of step.toolResults)
            logs.push(
              log(
                tool.isError ? 'warn' : 'info',
                `${agent.name} used the tool ${tool.name}${tool.isError ? ' (it failed)' : ''}`,
                call.nodeId,
              ),
            );
        // The extraction is the step's model call too: its tokens count with the step's.
        const extraction = await remembering?.keep(answer.text, (prompt) =>
          ask(agent, prompt, { signal: abort.signal, withoutTools: true }),
        );
        const usage = extraction ? addUsage(answer.usage, extraction) : answer.usage;
        return { content: answer.text, usage, model: answer.model };
      };

      /** A step as people know it: its node's label on the canvas, else its agent's name. */
      const stepName = (baseNodeId: string, agentId: string | null) => {
        const label = nodeData.get(baseNodeId)?.label;
        if (typeof label === 'string' && label.trim()) return label.trim();
        return (agentId && agents.get(agentId)?.name) || 'Agent';
      };
      const sends = (baseNodeId: string) => !!deps.delivery && sendsOutput(nodeData.get(baseNodeId) ?? {});

      /**
       * Sends a stored step's output where its node says, then marks it sent. A failure fails the run
       * and leaves the step unsent: resuming or retrying the run sends it (with the same idempotency key).
       */
      const deliver = async (nodeId: string, baseNodeId: string, output: NodeOutput) => {
        if (!deps.delivery) return;
        const delivered = await deps.delivery.deliver(
          {
            ...ids,
            workflowName,
            nodeId,
            agentName: output.metadata.agentName,
            data: nodeData.get(baseNodeId) ?? {},
            producedBy: output.metadata.reusedFrom,
          },
          output.content,
          { signal: abort.signal },
        );
        await repository.markDelivered(executionId, attemptNo, nodeId);
        if (delivered) logs.push(log('info', `${output.metadata.agentName}: ${delivered}`, nodeId));
      };

      // Outputs an earlier attempt (or the retried run) stored but did not send go out first.
      for (const step of completed.undelivered) {
        stopIfInterrupted();
        await deliver(step.nodeId, step.baseNodeId, completed.outputs[step.nodeId]);
      }

      /** A step finished: stored (the checkpoint), then delivered where its node says, then published. */
      const stepCompleted = async (event: Extract<EngineEvent, { type: 'node_completed' }>) => {
        const { nodeId, baseNodeId, agentId, output } = event;
        logs.push(log('info', `${output.metadata.agentName} finished in ${output.executionTime} ms`, nodeId));
        // Claimed before the write, so a parallel step storing at the same time does not repeat them.
        const runLogs = unstored();
        for (const line of runLogs) stored.add(line);
        const completedEvent: RealtimeEvent = {
          type: 'execution_node_completed',
          ...ids,
          nodeId,
          baseNodeId,
          executionTime: output.executionTime,
          totalTokens: output.usage.totalTokens,
        };
        // A step with nothing to send is published by the statement that stores it; one that sends
        // its output is published once it is sent.
        if (sends(baseNodeId)) await publishWaiting();
        const inStore = sends(baseNodeId) ? undefined : withStatement(completedEvent);
        const notify = inStore?.notify;
        const ours = await repository
          .recordStep(
            executionId,
            attemptNo,
            {
              nodeId,
              baseNodeId,
              agentId,
              delivery: sends(baseNodeId) ? 'pending' : null,
              record: recordOf(nodeId, output),
              output,
              metrics: { executionTime: output.executionTime, ...output.usage },
              logs: logs.filter((l) => l.nodeId === nodeId),
              startedAt: stepStarts.get(nodeId) ?? new Date(),
              completedAt: new Date(),
              runLogs,
            },
            notify,
          )
          .catch((err: unknown) => {
            for (const line of runLogs) stored.delete(line);
            throw err;
          });
        if (!ours) throw new Interrupted('superseded');
        // Only a stored step is sent, with the content stored; its log line is stored with the next
        // step or when the run ends.
        if (sends(baseNodeId)) await deliver(nodeId, baseNodeId, output);
        if (inStore) await inStore.published();
        else await publish(completedEvent);
      };

      /**
       * A step's agent call failed: stored as failed (with the readable error, so per-agent figures
       * count it) and published. Not when the run was interrupted (nothing failed) or the database is
       * away (the run resumes later).
       */
      const stepFailed = async (event: Extract<EngineEvent, { type: 'node_failed' }>) => {
        const { nodeId, baseNodeId, agentId, error } = event;
        if (abort.signal.aborted || error instanceof Interrupted) return;
        if (!isExpected(error) && databaseUnavailable(error)) return;
        const message = readableError(error);
        const name = stepName(baseNodeId, agentId);
        if (!failedStepNames.has(message)) failedStepNames.set(message, name);
        // The run's error line names the step that failed (the run review marks it on the graph).
        logs.push(log('error', message, nodeId));
        const record = recordOf(nodeId, null);
        // The server log's one line for a failed model call (after the gateway's own retries, which
        // log nothing): where, which model, what status; never the key, the prompt or the answer.
        if (error instanceof LlmCallError)
          deps.logger?.warn(
            {
              executionId,
              nodeId,
              step: name,
              provider: error.provider,
              model: record?.model ?? agents.get(agentId ?? '')?.llmModel,
              status: error.statusCode,
              kind: error.kind,
              attempts: error.attempts,
            },
            'model call failed',
          );
        await repository
          .recordFailedStep(executionId, attemptNo, {
            nodeId,
            baseNodeId,
            agentId,
            error: message,
            record,
            logs: logs.filter((l) => l.nodeId === nodeId),
            startedAt: stepStarts.get(nodeId) ?? new Date(),
            completedAt: new Date(),
          })
          .catch((err: unknown) => deps.logger?.warn({ err, executionId }, 'failed step not stored'));
        await publishWaiting();
        await publish({ type: 'execution_node_failed', ...ids, nodeId, baseNodeId, error: message });
      };

      /** The one handler of the engine's step events. */
      const onStep = async (event: EngineEvent): Promise<void> => {
        switch (event.type) {
          case 'node_started':
            stepStarts.set(event.nodeId, new Date());
            baseNodeOf.set(event.nodeId, event.baseNodeId);
            publishSoon({
              type: 'execution_node_started',
              ...ids,
              nodeId: event.nodeId,
              baseNodeId: event.baseNodeId,
              agentName: agents.get(event.agentId)?.name,
            });
            return;
          case 'node_completed':
            return stepCompleted(event);
          case 'node_failed':
            return stepFailed(event);
          default:
            event satisfies never;
        }
      };

      const result = await runWorkflow(
        definition,
        { input: run.input ?? {}, instructions: run.dynamicInstructions, parameters: run.parameters ?? {} },
        {
          now: () => Date.now(),
          completed: completed.outputs,
          concurrency: deps.parallelism,
          async callAgent(call) {
            stopIfInterrupted();
            return askAgent(call, agents.get(call.agent.id)!);
          },
          onEvent: onStep,
        },
      );

      const startedAt = run.startedAt ?? new Date();
      logs.push(log('info', 'Run completed'));
      const completedRun = withStatement({ type: 'workflow_execution_completed', ...ids });
      const finished = await repository.finish(
        executionId,
        attemptNo,
        {
          status: 'completed',
          output: result.output,
          result: result.result,
          metrics: {
            ...result.metrics,
            ...ownTokens(result.metrics, completed.outputs),
            durationMs: Date.now() - startedAt.getTime(),
            attempts: attemptNo,
          },
          logs: unstored(),
        },
        completedRun.notify,
      );
      if (finished) await completedRun.published();
    } catch (caught) {
      // Whatever waited (a started event) goes out before the run's end.
      await publishWaiting();
      const error =
        abort.signal.aborted && abort.signal.reason instanceof Interrupted ? abort.signal.reason : caught;
      if (error instanceof Interrupted) {
        // Cancelled: the row already says so. Superseded: another attempt owns it. Shutdown: the
        // lease is released so another worker resumes from the stored steps.
        if (error.reason === 'shutdown')
          await repository.release(executionId, attemptNo).catch(() => undefined);
        deps.logger?.info({ executionId, reason: error.reason }, 'run attempt interrupted');
        return;
      }
      const unavailable = isExpected(error) ? undefined : databaseUnavailable(error);
      if (unavailable) {
        // Nothing was wrong with the run: failing it for an outage would lose it. Its lease lapses and
        // the next claim resumes it from the stored steps once the database is back (bounded by maxAttempts).
        deps.logger?.warn(
          { executionId, code: unavailable.code, reason: unavailable.message },
          'run attempt interrupted: the database is unavailable',
        );
        return;
      }
      const message = readableError(error);
      if (!isExpected(error)) deps.logger?.error({ err: error, executionId }, 'run failed unexpectedly');
      // Logged once: on its step when a step failed (stepFailed), else for the run.
      if (!logs.some((line) => line.level === 'error' && line.message === message))
        logs.push(log('error', message));
      // The finished steps are already in the run's output (recordStep).
      const finished = await repository.finish(executionId, attemptNo, {
        status: 'failed',
        error: message,
        failedStep: failedStepNames.get(message) ?? null,
        logs: unstored(),
      });
      if (finished) await publish({ type: 'workflow_execution_failed', ...ids, error: message });
    } finally {
      clearTimeout(waitTimer);
      clearInterval(lease);
      active.delete(executionId);
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
