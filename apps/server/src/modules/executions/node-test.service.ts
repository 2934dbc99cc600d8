import {
  isStepKind,
  nodeKinds,
  nodeTestMessages,
  type Agent,
  type NodeTestResult,
  type TestNodeData,
  type WorkflowNode,
} from '@crewline/contracts';
import {
  addUsage,
  contextFromRun,
  nodeAgentId,
  NodeTestRefused,
  testNode,
  upstreamSteps,
  WorkflowRunError,
  type NodeTestContext,
  type RunAgent,
  type RunDefinition,
} from '@crewline/engine';
import { databaseUnavailable } from '../../platform/database-unavailable';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors';
import { isUuid } from '../../platform/ids';
import type { AgentModel, AgentsService } from '../agents/agents.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import type { NodeTestReads } from './node-test.repository';
import { isExpected, readableError } from './run-errors';
import { createRunLog } from './run-log';
import { agentGuardrails, noGuard } from './agent-guardrails';
import { createNoModelSteps, type NoModelStepParts } from './no-model-steps';

/** The agents a node asks: an agent node's, a map's or loop's run target's. */
function agentIdsOf(node: Pick<WorkflowNode, 'agentId' | 'data'>): string[] {
  const run = node.data?.run as { agentId?: unknown } | undefined;
  const ids = [nodeAgentId(node), typeof run?.agentId === 'string' ? run.agentId : undefined];
  return [...new Set(ids.filter((id): id is string => !!id && isUuid(id)))];
}

/**
 * "Test this node" (docs/product-rules.md, Workflows that decide): one step of a workflow run outside
 * any run, with the newest run's upstream data or the caller's sample data, through the same model and
 * tool ports as a run (the organization's connection, the agent's tools, the egress rules). Nothing is
 * stored: no run, no step, no event, no memory. A Tool step really calls its tool.
 */
/** `NoModelStepParts`: Tool, Code and Guardrail steps' parts, as runs have them (without one, such a step fails its test). */
export function createNodeTests(
  deps: NoModelStepParts & {
    workflows: Pick<WorkflowsService, 'get'>;
    agents: Pick<AgentsService, 'list'>;
    agentModel: Pick<AgentModel, 'ask' | 'askModel' | 'moderate'>;
    reads: NodeTestReads;
  },
) {
  return {
    async test(
      organizationId: string,
      workflowId: string,
      nodeId: string,
      body: TestNodeData,
    ): Promise<NodeTestResult> {
      const workflow = await deps.workflows.get(organizationId, workflowId);
      const saved = workflow.nodes.find((n) => n.id === nodeId);
      if (!saved) throw new NotFoundError(nodeTestMessages.nodeNotFound);
      if (body.node && body.node.id !== nodeId) throw new BadRequestError(nodeTestMessages.otherNode);
      const node = body.node ?? saved;
      if (!isStepKind(node.type))
        throw new BadRequestError(
          `Only steps can be tested: ${nodeKinds[node.type].label} nodes never run as steps`,
        );

      const agentIds = agentIdsOf(node);
      const agents = agentIds.length > 0 ? await deps.agents.list(organizationId, agentIds) : [];
      const definition: RunDefinition = {
        processType: workflow.processType ?? 'sequential',
        nodes: workflow.nodes.map((n) => (n.id === nodeId ? node : n)),
        edges: workflow.edges,
        agents: Object.fromEntries(agents.map((a) => [a.id, a as RunAgent])),
      };

      let context: NodeTestContext;
      let runId: string | null = null;
      let started: { instructions?: string | null; parameters?: Record<string, unknown> } = {};
      if (body.context) {
        context = {
          input: body.context.input ?? {},
          nodes: Object.fromEntries(
            Object.entries(body.context.nodes ?? {}).map(([id, entry]) => [
              id,
              { content: entry.content, data: entry.data ?? null, status: entry.status },
            ]),
          ),
          vars: body.context.vars ?? {},
        };
      } else {
        const upstream = upstreamSteps(nodeId, definition.nodes, definition.edges);
        const run = await deps.reads.newestRunWith(organizationId, workflowId, upstream);
        // No run: the test would only read emptiness; the caller is told to give sample data instead.
        if (!run) throw new ConflictError(nodeTestMessages.noRunYet);
        runId = run.id;
        context = contextFromRun(definition, nodeId, {
          input: run.input,
          output: run.output,
          run: {
            id: run.id,
            trigger: run.trigger,
            startedAt: (run.startedAt ?? run.createdAt).toISOString(),
          },
        });
        started = { instructions: run.dynamicInstructions, parameters: run.parameters };
      }

      // The test runs while the request waits; nothing cancels it but its own timeouts.
      const signal = new AbortController().signal;
      // A test's log is not kept; a guardrail's classifier calls are charged to the test, on the
      // connections read now.
      const meter = { source: 'node_test' as const, workflowId };
      const noModel = createNoModelSteps(deps, {
        organizationId,
        nodes: definition.nodes,
        runLog: createRunLog(),
        signal,
        guardModels: {
          models: {
            askModel: (request, options) =>
              deps.agentModel.askModel(organizationId, request, { ...options, meter }),
            moderate: (input, aborted) => deps.agentModel.moderate(organizationId, input, aborted),
          },
        },
      });
      try {
        const result = await testNode(
          { definition, nodeId, context, ...started },
          {
            now: () => Date.now(),
            async callAgent(call) {
              const agent = agents.find((a) => a.id === call.agent.id) as Agent;
              // The agent's own guardrails hold in a test as in a run.
              const guards = agentGuardrails({
                guard: noModel.guard ?? noGuard,
                step: call.step,
                agent,
                context: { input: context.input, run: context.run },
              });
              const user = await guards.input(call.user);
              const answer = await deps.agentModel
                .ask(
                  organizationId,
                  agent,
                  { system: call.system, user },
                  {
                    signal: AbortSignal.any([signal, guards.signal]),
                    guardTool: guards.tool,
                    meter: { source: 'node_test', agentId: agent.id, workflowId },
                    ...(call.outputSchema ? { outputSchema: call.outputSchema } : {}),
                  },
                )
                .catch((error: unknown) => {
                  throw guards.blocked() ?? error;
                });
              const checked = await guards.output({
                content: answer.text,
                ...(answer.data !== undefined ? { data: answer.data } : {}),
              });
              return { ...checked, usage: addUsage(answer.usage, guards.usage()), model: answer.model };
            },
            ...noModel.ports,
            // A map or loop over another workflow would start a run of it: a test never does.
            async runWorkflow() {
              throw new WorkflowRunError(
                'A test does not run other workflows: run the workflow to try this step',
              );
            },
            // The database away is the server's 503, not the node's failure.
            stops: (error) => !isExpected(error) && databaseUnavailable(error) !== undefined,
            readable: readableError,
          },
        );
        return { ...result, runId };
      } catch (error) {
        if (error instanceof NodeTestRefused)
          throw error.reason === 'unknown'
            ? new NotFoundError(nodeTestMessages.nodeNotFound)
            : new BadRequestError(error.message);
        throw error;
      }
    },
  };
}
export type NodeTests = ReturnType<typeof createNodeTests>;
