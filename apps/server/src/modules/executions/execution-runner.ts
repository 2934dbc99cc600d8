import type { Agent, ExecutionLog, RealtimeEvent } from '@crewline/contracts';
import {
  nodeAgentId,
  runWorkflow,
  WorkflowRunError,
  type AgentCall,
  type NodeOutput,
  type RunAgent,
  type RunDefinition,
} from '@crewline/engine';
import { DrizzleQueryError } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { EventBus } from '../../platform/events';
import { databaseUnavailable } from '../../platform/database-unavailable';
import { isUuid } from '../../platform/ids';
import { LlmCallError, LlmConfigurationError, type LlmTool } from '../../platform/llm';
import type { AgentModel } from '../agents/agent-model';
import type { AgentsRepository } from '../agents/agents.repository';
import type { WorkflowsRepository } from '../workflows/workflows.repository';
import type { ExecutionsRepository } from './executions.repository';
import type { OutputDelivery } from './output-delivery';

export type ExecutionRunnerDeps = {
  repository: ExecutionsRepository;
  workflows: WorkflowsRepository;
  agents: AgentsRepository;
  agentModel: AgentModel;
  events: EventBus;
  delivery?: OutputDelivery;
  logger?: Logger;
  leaseMs: number;
  maxAttempts: number;
  /** Agents of one parallel run working at once. */
  parallelism?: number;
};

/** Why an attempt stopped without an outcome of its own: the run was cancelled or taken over, or the worker is stopping. */
class Interrupted extends Error {
  constructor(readonly reason: 'cancelled' | 'superseded' | 'shutdown') {
    super(`run interrupted: ${reason}`);
  }
}

const log = (level: ExecutionLog['level'], message: string, nodeId?: string): ExecutionLog => ({
  at: new Date().toISOString(),
  level,
  message,
  ...(nodeId ? { nodeId } : {}),
});

/** Failures a run can meet in normal use (provider errors, missing configuration, a broken workflow). */
const isExpected = (error: unknown): error is Error =>
  error instanceof LlmCallError ||
  error instanceof LlmConfigurationError ||
  error instanceof WorkflowRunError;

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
  // Set by the database copy (executions.repository.ts, reuseSteps), so not in the engine's type.
  const reused = Object.values(completed).filter(
    (step) => (step.metadata as Record<string, unknown>).reused === true,
  );
  const less = (key: keyof typeof totals) =>
    Math.max(0, totals[key] - reused.reduce((sum, step) => sum + (step.usage?.[key] ?? 0), 0));
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
 * write carries the attempt number, so a worker that lost the run can no longer change it.
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
  async function definitionOf(organizationId: string, workflowId: string, version: number | null) {
    const workflow =
      version === null
        ? await deps.workflows.get(organizationId, workflowId)
        : await deps.workflows.version(organizationId, workflowId, version);
    if (!workflow) throw new WorkflowRunError('The workflow of this run no longer exists');
    // Only the agents its nodes name (an id that is not a UUID names none, and would fail the cast).
    const ids = workflow.nodes.map(nodeAgentId).filter((id): id is string => !!id && isUuid(id));
    const referenced = await deps.agents.list(organizationId, [...new Set(ids)]);
    const agents = new Map(referenced.map((agent) => [agent.id, agent]));
    const definition: RunDefinition = {
      processType: workflow.processType,
      nodes: workflow.nodes,
      edges: workflow.edges,
      agents: Object.fromEntries(agents) as Record<string, RunAgent>,
    };
    return { name: workflow.name, definition, agents };
  }

  async function attempt(executionId: string): Promise<void> {
    const run = await repository.claim(executionId, deps.leaseMs);
    if (!run) return; // finished, cancelled, or another worker holds a live lease
    const { organizationId, workflowId, attempt: attemptNo } = run;
    const ids = { organizationId, executionId, workflowId };
    const publish = (event: RealtimeEvent) => Promise.resolve(events.publish(event)).catch(() => undefined);

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

    const logs: ExecutionLog[] = [];
    // Lines already stored with a step (recordStep); the rest are stored when the run ends.
    const stored = new WeakSet<ExecutionLog>();
    const unstored = () => logs.filter((line) => !stored.has(line));
    const stepStarts = new Map<string, Date>();
    const stopIfInterrupted = () => {
      if (abort.signal.aborted)
        throw abort.signal.reason instanceof Error ? abort.signal.reason : new Interrupted('cancelled');
      if (draining) throw new Interrupted('shutdown');
    };

    try {
      const completed = (await repository.completedSteps(executionId)) as Record<string, NodeOutput>;
      logs.push(
        run.resumed
          ? log(
              'warn',
              `Resumed (attempt ${attemptNo}) after the previous worker stopped; ${Object.keys(completed).length} finished step(s) reused`,
            )
          : log('info', 'Run started'),
      );
      await publish({ type: 'workflow_execution_started', ...ids });
      const {
        name: workflowName,
        definition,
        agents,
      } = await definitionOf(organizationId, workflowId, run.workflowVersion);
      const nodeData = new Map(definition.nodes.map((n) => [n.id, n]));
      const baseNode = (nodeId: string) => nodeData.get(nodeId.split('#')[0]);
      const agentIdOf = (nodeId: string) => {
        const node = baseNode(nodeId);
        return (node && nodeAgentId(node)) ?? null;
      };

      /** One agent call: the model (with its tools), then the node's output destination. */
      const askAgent = async (call: AgentCall, agent: Agent) => {
        const answer = await deps.agentModel.ask(
          organizationId,
          agent,
          { system: call.system, user: call.user },
          { extraTools: call.tools as Record<string, LlmTool> | undefined, signal: abort.signal },
        );
        for (const step of answer.steps)
          for (const tool of step.toolResults)
            logs.push(
              log(
                tool.isError ? 'warn' : 'info',
                `${agent.name} used the tool ${tool.name}${tool.isError ? ' (it failed)' : ''}`,
                call.nodeId,
              ),
            );
        const node = baseNode(call.nodeId);
        if (deps.delivery && node) {
          const delivered = await deps.delivery.deliver(
            { ...ids, workflowName, nodeId: call.nodeId, agentName: agent.name, data: node.data ?? {} },
            answer.text,
            { signal: abort.signal },
          );
          if (delivered) logs.push(log('info', `${agent.name}: ${delivered}`, call.nodeId));
        }
        return { content: answer.text, usage: answer.usage, model: answer.model };
      };

      const result = await runWorkflow(
        definition,
        { input: run.input ?? {}, instructions: run.dynamicInstructions, parameters: run.parameters ?? {} },
        {
          now: () => Date.now(),
          completed,
          concurrency: deps.parallelism,
          async callAgent(call) {
            stopIfInterrupted();
            const agent = agents.get(call.agent.id)!;
            try {
              return await askAgent(call, agent);
            } catch (error) {
              // The failed step is stored too (with the readable error), so per-agent figures count it.
              if (!abort.signal.aborted && !(error instanceof Interrupted))
                await repository
                  .recordFailedStep(executionId, attemptNo, {
                    nodeId: call.nodeId,
                    agentId: agentIdOf(call.nodeId),
                    error: readableError(error),
                    logs: logs.filter((l) => l.nodeId === call.nodeId),
                    startedAt: stepStarts.get(call.nodeId) ?? new Date(),
                    completedAt: new Date(),
                  })
                  .catch((err: unknown) => deps.logger?.warn({ err, executionId }, 'failed step not stored'));
              throw error;
            }
          },
          async onEvent(event) {
            if (event.type === 'node_started') {
              stepStarts.set(event.nodeId, new Date());
              await publish({ type: 'execution_node_started', ...ids, nodeId: event.nodeId });
              return;
            }
            const { nodeId, output } = event;
            const startedAt = stepStarts.get(nodeId) ?? new Date();
            logs.push(
              log('info', `${output.metadata.agentName} finished in ${output.executionTime} ms`, nodeId),
            );
            // Claimed before the write, so a parallel step storing at the same time does not repeat them.
            const runLogs = unstored();
            for (const line of runLogs) stored.add(line);
            const ours = await repository
              .recordStep(executionId, attemptNo, {
                nodeId,
                agentId: agentIdOf(nodeId),
                input: {},
                output,
                metrics: { executionTime: output.executionTime, ...output.usage },
                logs: logs.filter((l) => l.nodeId === nodeId),
                startedAt,
                completedAt: new Date(),
                runLogs,
              })
              .catch((err: unknown) => {
                for (const line of runLogs) stored.delete(line);
                throw err;
              });
            if (!ours) throw new Interrupted('superseded');
            await publish({
              type: 'execution_node_completed',
              ...ids,
              nodeId,
              executionTime: output.executionTime,
              totalTokens: output.usage.totalTokens,
            });
          },
        },
      );

      const startedAt = run.startedAt ?? new Date();
      logs.push(log('info', 'Run completed'));
      const finished = await repository.finish(executionId, attemptNo, {
        status: 'completed',
        output: result.output,
        result: result.result,
        metrics: {
          ...result.metrics,
          ...ownTokens(result.metrics, completed),
          durationMs: Date.now() - startedAt.getTime(),
          attempts: attemptNo,
        },
        logs: unstored(),
      });
      if (finished) await publish({ type: 'workflow_execution_completed', ...ids });
    } catch (caught) {
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
        // the sweeper resumes it from the stored steps once the database is back (bounded by maxAttempts).
        deps.logger?.warn(
          { executionId, code: unavailable.code, reason: unavailable.message },
          'run attempt interrupted: the database is unavailable',
        );
        return;
      }
      const message = readableError(error);
      if (!isExpected(error)) deps.logger?.error({ err: error, executionId }, 'run failed unexpectedly');
      logs.push(log('error', message));
      // The finished steps are already in the run's output (recordStep).
      const finished = await repository.finish(executionId, attemptNo, {
        status: 'failed',
        error: message,
        logs: unstored(),
      });
      if (finished) await publish({ type: 'workflow_execution_failed', ...ids, error: message });
    } finally {
      clearInterval(lease);
      active.delete(executionId);
      settle();
    }
  }

  return {
    /** Runs the execution if it is free to run; returns once this attempt is over. */
    run: attempt,

    /** Runs nobody is working on (see the repository), for the worker's sweeper. */
    orphans: (queue: string) => repository.orphans(queue, deps.leaseMs),

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
