import { WorkflowRunError, type RunAgent, type RunDefinition } from '@crewline/engine';
import { sql, type SQL } from 'drizzle-orm';
import type { AgentModel } from '../agents/agents.service';
import { workflowBudgetSchema } from '@crewline/contracts';
import { organizationBudgetJson, runChatCapSql, type ChatCapMicrosSql } from '../costs/budgets.columns';
import { organizationPricesJson, priceLookupFromJson } from '../costs/prices.columns';
import { runAgentIds } from '../workflows/workflows.columns';
import type { WorkflowReads } from '../workflows/workflows.service';
import type { Claimed } from './executions.repository';

/** Workflow versions a worker keeps in memory. */
const VERSIONS_KEPT = 500;

/** The columns a claim reads along with the run (RunDefinitions.claimColumns). */
type RunClaimColumns = ReturnType<AgentModel['runColumns']> & {
  prices: SQL<unknown>;
  budget: SQL<unknown>;
  chatCap: SQL<unknown>;
};
/** A run a worker has just claimed, with its agents, connections and the organization's prices. */
export type ClaimedRun = Claimed<RunClaimColumns>;

/**
 * Workflow versions as a worker reads them: they never change once written, so each is read once per
 * process (the newest VERSIONS_KEPT kept).
 */
export function versionCache(workflows: Pick<WorkflowReads, 'version'>) {
  const versions = new Map<string, Awaited<ReturnType<WorkflowReads['version']>>>();
  return async function versionOf(organizationId: string, workflowId: string, version: number) {
    const key = `${organizationId}:${workflowId}:${version}`;
    let found = versions.get(key);
    if (!found) {
      found = await workflows.version(organizationId, workflowId, version);
      if (found) versions.set(key, found);
      if (versions.size > VERSIONS_KEPT) versions.delete(versions.keys().next().value!);
    }
    return found;
  };
}

/**
 * What a claimed run runs: the definition it is pinned to (its workflow version), never the working
 * copy edited since (runs from before versions existed, with no version, use the working copy), and
 * its agents as read with the claim.
 */
export function createRunDefinitions(deps: {
  workflows: WorkflowReads;
  agentModel: Pick<AgentModel, 'runColumns' | 'forRun'>;
  /** A chat app's monthly cap (modules/mcp's), read with a chat run's claim. */
  chatCapMicros?: ChatCapMicrosSql;
}) {
  const versionOf = versionCache(deps.workflows);

  return {
    /**
     * What the claim reads along with the run, in the same statement: the agents its nodes name, with
     * their tools and the organization's connections, its own model prices and its budget, and a chat
     * run's app's monthly cap (metering and budgets read nothing more).
     */
    claimColumns: {
      ...deps.agentModel.runColumns('workflow_executions', runAgentIds('workflow_executions')),
      prices: organizationPricesJson('workflow_executions'),
      budget: organizationBudgetJson('workflow_executions'),
      chatCap: deps.chatCapMicros ? runChatCapSql('workflow_executions', deps.chatCapMicros) : sql`null`,
    } satisfies RunClaimColumns,

    async of(run: ClaimedRun) {
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
      return {
        name: workflow.name,
        definition,
        agents,
        ask: runAgents.ask,
        /** A guardrail's classifier and moderation calls, on the connections read with the claim. */
        guardModels: { askModel: runAgents.askModel, moderate: runAgents.moderate },
        connection: runAgents.connection,
        /** The price of a model call, as the organization's prices were when the attempt began. */
        priceOf: priceLookupFromJson(run.extra.prices),
        /** The version's budget (`config.budget`, checked when it was saved), and the organization's as claimed. */
        budget: workflowBudgetSchema.safeParse(workflow.config?.budget).data,
        organizationBudget: run.extra.budget,
        chatCap: run.extra.chatCap,
      };
    },
  };
}
export type RunDefinitions = ReturnType<typeof createRunDefinitions>;
