import { asText, runWorkflow, WorkflowRunError, type RunDefinition, type RunPorts } from '@crewline/engine';
import { isUuid } from '../../platform/ids';
import type { AgentModel } from '../agents/agents.service';
import type { MemoryService } from '../memory/memory.service';
import { versionAtAgentIds } from '../workflows/workflows.columns';
import type { WorkflowReads } from '../workflows/workflows.service';
import { createAgentStep } from './agent-step';
import type { EventOutbox } from './event-outbox';
import { versionCache, type ClaimedRun } from './run-definitions';
import { isExpected, stopsRun } from './run-errors';
import type { RunLog } from './run-log';
import { createNoModelSteps, type NoModelStepParts } from './no-model-steps';

/** How deep workflows may run inside one another: the run's own workflow runs at depth 0. */
const MAX_WORKFLOW_DEPTH = 3;

type RunWorkflowPort = NonNullable<RunPorts['runWorkflow']>;
/** A workflow on the way down from the run's own: its id and name, for the messages. */
type Link = { id: string; name: string };

/**
 * Maps and loops that run another workflow of the organization (the engine's `runWorkflow` port,
 * docs/architecture.md, Runs): the child runs nested in the attempt, in-process, at its newest
 * version recorded when the parent run was created, with the attempt's model and tool ports and its
 * abort signal. Its inner steps are not stored: the whole child run is the one child step
 * (`map[3]`, `loop#2`) the engine records, with the child's answer, last data and summed tokens.
 */
export function createSubWorkflows(deps: {
  workflows: Pick<WorkflowReads, 'version' | 'versionAt'>;
  agentModel: Pick<AgentModel, 'runColumns' | 'forRun'>;
}) {
  /** The child's agents (those its version's nodes name, with their tools), read with the child. */
  const columns = {
    agents: deps.agentModel.runColumns('workflows', versionAtAgentIds('workflows')).agents,
  };
  const versionOf = versionCache(deps.workflows);

  return {
    /** The `runWorkflow` port of one attempt at `run` (its agent steps' parts, its tools). */
    forAttempt(
      attempt: NoModelStepParts & {
        run: Pick<ClaimedRun, 'organizationId' | 'workflowId' | 'createdAt' | 'extra' | 'untrusted'>;
        /** The run's workflow's name: the first link of a loop's message. */
        workflowName: string;
        ids: { organizationId: string; executionId: string; workflowId: string };
        outbox: EventOutbox;
        runLog: RunLog;
        signal: AbortSignal;
        memory?: Pick<MemoryService, 'stepMemory'>;
        /** Throws the reason the attempt must stop (a cancel, a lost lease, the worker stopping). */
        stopIfInterrupted(): void;
        parallelism?: number;
      },
    ): RunWorkflowPort {
      const { run, signal, stopIfInterrupted } = attempt;
      const { organizationId } = run;

      type Child = { name: string; definition: RunDefinition; forRun: ReturnType<AgentModel['forRun']> };
      /** Each child workflow is read once an attempt (its status, version and agents, one statement). */
      const children = new Map<string, Promise<Child>>();
      async function load(workflowId: string): Promise<Child> {
        const found = isUuid(workflowId)
          ? await deps.workflows.versionAt(organizationId, workflowId, run.createdAt, columns)
          : undefined;
        if (!found) throw new WorkflowRunError('The workflow it runs no longer exists');
        if (found.status !== 'active')
          throw new WorkflowRunError(
            `Workflow "${found.name}" is ${found.status}: activate it so that other workflows can run it`,
          );
        const version =
          found.version === null ? undefined : await versionOf(organizationId, workflowId, found.version);
        if (!version)
          throw new WorkflowRunError(
            `Workflow "${found.name}" had no active version when this run started: activate it and run again`,
          );
        // The parent's connections, read with its claim: the same organization, the same settings.
        const forRun = deps.agentModel.forRun(organizationId, {
          agents: found.extra.agents,
          configurations: run.extra.configurations,
        });
        return {
          name: found.name,
          definition: {
            processType: version.processType,
            nodes: version.nodes,
            edges: version.edges,
            agents: Object.fromEntries(forRun.agents),
          },
          forRun,
        };
      }
      const child = (workflowId: string) => {
        let loading = children.get(workflowId);
        if (!loading) children.set(workflowId, (loading = load(workflowId)));
        return loading;
      };

      // A cancel, a stopping worker or the database away stop the run: never a child's failure.

      /** The port for the workflows run `chain` deep (the run's own first). */
      const port =
        (chain: Link[]): RunWorkflowPort =>
        async ({ step, workflowId, input }) => {
          stopIfInterrupted();
          const seen = chain.findIndex((link) => link.id === workflowId);
          if (seen >= 0) {
            const path = [...chain.slice(seen), chain[seen]].map((link) => `"${link.name}"`).join(' → ');
            throw new WorkflowRunError(
              `Workflow "${chain[seen].name}" runs itself (${path}): a workflow cannot run itself, directly or through others`,
            );
          }
          if (chain.length > MAX_WORKFLOW_DEPTH)
            throw new WorkflowRunError(
              `Workflows run inside one another at most ${MAX_WORKFLOW_DEPTH} deep (${chain.map((link) => `"${link.name}"`).join(' → ')} → …)`,
            );
          const { name, definition, forRun } = await child(workflowId);
          // What the child's steps log is about the parent's step that runs it (`map[3]`).
          const runLog: RunLog = {
            ...attempt.runLog,
            add: (level, message) => attempt.runLog.add(level, message, step.nodeId),
          };
          const noModel = createNoModelSteps(attempt, {
            organizationId,
            nodes: definition.nodes,
            runLog,
            signal,
            guardModels: { models: forRun },
            before: stopIfInterrupted,
          });
          const agentStep = createAgentStep({
            guard: noModel.guard,
            guardContext: { input },
            ids: attempt.ids,
            outbox: attempt.outbox,
            runLog,
            signal,
            ask: forRun.ask,
            connection: forRun.connection,
            memory: attempt.memory,
            untrusted: run.untrusted,
            // Only stored steps stream to watchers; a child's steps are not.
            watched: () => false,
            made: () => {},
          });
          try {
            const { output, result, metrics } = await runWorkflow(
              definition,
              { input },
              {
                now: () => Date.now(),
                concurrency: attempt.parallelism,
                async callAgent(call) {
                  stopIfInterrupted();
                  return agentStep(call, forRun.agents.get(call.agent.id)!);
                },
                ...noModel.ports,
                runWorkflow: port([...chain, { id: workflowId, name }]),
                stops: stopsRun,
              },
            );
            const last = Object.values(output)
              .filter((s) => s.status !== 'skipped')
              .at(-1);
            return {
              content: asText(result),
              ...(last?.data !== undefined ? { data: last.data } : {}),
              usage: {
                promptTokens: metrics.promptTokens,
                completionTokens: metrics.completionTokens,
                totalTokens: metrics.totalTokens,
              },
            };
          } catch (error) {
            stopIfInterrupted();
            // The user reads which workflow failed, then its own words; other errors stay what they are.
            if (isExpected(error)) throw new WorkflowRunError(`Workflow "${name}" failed: ${error.message}`);
            throw error;
          }
        };

      return port([{ id: run.workflowId, name: attempt.workflowName }]);
    },
  };
}
export type SubWorkflows = ReturnType<typeof createSubWorkflows>;
