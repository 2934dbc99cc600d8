import {
  createWorkflowSchema,
  type Agent,
  type AgentTemplate,
  type CreateFromTemplateInput,
  type SaveAsTemplateData,
  type SeedTemplatesResponse,
  type TemplateAgent,
  type TemplateLibraryResponse,
  type TemplateSort,
  type TemplatesResponse,
  type Workflow,
  type WorkflowNode,
  type WorkflowTemplate,
} from '@crewline/contracts';
import { nodeAgentId } from '@crewline/engine';
import { NotFoundError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { requireUuid } from '../../platform/ids';
import type { LimitReader } from '../billing/billing.service';
import type { AgentsService } from '../agents/agents.service';
import type { WorkflowsService } from '../workflows/workflows.service';
import { sampleAgentTemplates, sampleWorkflowTemplates } from './sample-templates';
import type { TemplatesRepository } from './templates.repository';

const notFound = 'Template not found';

/** What a map or a loop runs, when it names an agent (`data.run.agentId`). */
function runAgentId(node: WorkflowNode): string | undefined {
  if (node.type !== 'map' && node.type !== 'loop') return undefined;
  const run = node.data?.run;
  if (typeof run !== 'object' || run === null || !('agentId' in run)) return undefined;
  return typeof run.agentId === 'string' && run.agentId ? run.agentId : undefined;
}

/**
 * The agent a node names: an agent step's own, or the one a map or a loop runs for each item or
 * pass (as the workflows' agent references read them: workflows.columns.ts, nodeAgentRefs).
 */
function agentOfNode(node: WorkflowNode): string | undefined {
  return node.type === 'agent' ? nodeAgentId(node) : runAgentId(node);
}

/** The node with its agent reference rewritten (template key ↔ agent id), wherever its kind keeps it. */
function withAgent(node: WorkflowNode, agentId: string | undefined): WorkflowNode {
  if (agentId === undefined) return node;
  if (node.type === 'agent') return { ...node, agentId, data: { ...node.data, agentId } };
  if (runAgentId(node) === undefined) return node;
  return { ...node, data: { ...node.data, run: { ...(node.data.run as object), agentId } } };
}

/** A key for an agent in a saved template: its name in kebab case, numbered when taken. */
function keyFor(name: string, taken: Set<string>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'agent';
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

/** What a template keeps of an agent: who it is and its model, never its tools, connections or config. */
function definitionOf(agent: Agent): Omit<TemplateAgent, 'key'> {
  return {
    name: agent.name,
    description: agent.description,
    role: agent.role,
    goal: agent.goal,
    backstory: agent.backstory,
    llmProvider: agent.llmProvider,
    llmModel: agent.llmModel,
    temperature: agent.temperature,
    maxTokens: agent.maxTokens,
    systemPrompt: agent.systemPrompt,
    ...(agent.outputSchema ? { outputSchema: agent.outputSchema } : {}),
  };
}

/**
 * The template marketplace (docs/product-rules.md, Templates): the shipped library, the
 * organization's own templates, and making workflows and agents from them.
 */
export function createTemplatesService(deps: {
  repository: TemplatesRepository;
  agents: AgentsService;
  workflows: WorkflowsService;
  limits: { checkAgentLimit(organizationId: string, adding?: number, tx?: LimitReader): Promise<void> };
  events: Pick<EventBus, 'publish'>;
}) {
  const { repository } = deps;

  async function workflowTemplate(organizationId: string, id: string): Promise<WorkflowTemplate> {
    const found = await repository.workflowTemplate(organizationId, requireUuid(id, notFound));
    if (!found) throw new NotFoundError(notFound);
    return found;
  }

  async function agentTemplate(organizationId: string, id: string): Promise<AgentTemplate> {
    const found = await repository.agentTemplate(organizationId, requireUuid(id, notFound));
    if (!found) throw new NotFoundError(notFound);
    return found;
  }

  return {
    list: (organizationId: string, sort: TemplateSort): Promise<TemplatesResponse> =>
      repository.list(organizationId, sort),

    async library(): Promise<TemplateLibraryResponse> {
      const workflows = await repository.library();
      return {
        workflows: workflows.map((t) => ({
          id: t.id,
          name: t.name,
          description: t.description,
          category: t.category,
          processType: t.processType,
          triggerType: t.triggerType,
          agentCount: t.agents.length,
          usageCount: t.usageCount,
        })),
      };
    },

    /** Start-up and 'Load Sample Templates': every shipped sample is there once, with the shipped text. */
    async seed(): Promise<SeedTemplatesResponse> {
      const added = await repository.upsertLibrary({
        workflows: sampleWorkflowTemplates,
        agents: sampleAgentTemplates,
      });
      return {
        added,
        total: { workflows: sampleWorkflowTemplates.length, agents: sampleAgentTemplates.length },
      };
    },

    /**
     * A draft workflow '{name}' from the template, with the agents its nodes need: an agent the
     * organization already made from the same template agent is reused, the others are made now.
     * One transaction under the organization's lock (docs/decisions/0023-plan-limits-under-lock.md):
     * the plan's agent limit counts every agent it makes before any is made, concurrent copies and
     * creates wait for it, and a refusal (402) or a failure leaves nothing behind.
     */
    async createWorkflow(
      organizationId: string,
      userId: string,
      templateId: string,
      input: CreateFromTemplateInput,
    ): Promise<{ workflow: Workflow; agents: Agent[] }> {
      const template = await workflowTemplate(organizationId, templateId);
      const sourceOf = (agent: TemplateAgent) => `${template.id}:${agent.key}`;
      const sources = template.agents.map(sourceOf);
      const missingOf = (reused: Map<string, string>) =>
        template.agents.filter((agent) => !reused.has(sourceOf(agent)));

      const { workflow, idOfKey, made } = await repository.transaction(async (tx) => {
        let reused = await deps.agents.fromTemplateSources(organizationId, sources, tx);
        if (missingOf(reused).length > 0) {
          // The first check takes the organization's lock (it refuses only an organization already
          // past its limit). The agents another copy of this template committed while this one
          // waited are reused, not made twice, so what is missing is read again under the lock, and
          // checked: the agents are made in this transaction, before the lock is released.
          await deps.limits.checkAgentLimit(organizationId, 0, tx);
          reused = await deps.agents.fromTemplateSources(organizationId, sources, tx);
          const missing = missingOf(reused).length;
          if (missing > 0) await deps.limits.checkAgentLimit(organizationId, missing, tx);
        }
        const idOfKey = new Map(template.agents.map((a) => [a.key, reused.get(sourceOf(a))]));
        const made: string[] = [];
        for (const definition of missingOf(reused)) {
          const { key: _key, ...fields } = definition;
          const agent = await deps.agents.create(
            organizationId,
            userId,
            { ...fields, status: 'active', templateCategory: template.category, templateTags: template.tags },
            sourceOf(definition),
            tx,
          );
          made.push(agent.id);
          idOfKey.set(definition.key, agent.id);
        }
        const workflow = await deps.workflows.create(
          organizationId,
          userId,
          createWorkflowSchema.parse({
            name: input.name,
            description: template.description,
            processType: template.processType,
            triggerType: template.triggerType,
            triggerConfig: deps.workflows.withoutSecret(template.triggerConfig),
            nodes: template.nodes.map((node) => {
              const key = agentOfNode(node);
              return withAgent(node, key === undefined ? undefined : idOfKey.get(key));
            }),
            edges: template.edges,
            status: 'draft',
            templateCategory: template.category,
            templateTags: template.tags,
          }),
          tx,
        );
        await repository.countUse('workflow', template.id, tx);
        return { workflow, idOfKey, made };
      });
      // Announced once they are committed (the agents' service does this for a plain create).
      for (const agentId of made) deps.events.publish({ type: 'agent_created', organizationId, agentId });
      const ids = [...new Set([...idOfKey.values()].filter((id): id is string => Boolean(id)))];
      return { workflow, agents: await deps.agents.list(organizationId, ids) };
    },

    /** An agent '{name}' from an agent template (the plan's agent limit applies). */
    async createAgent(
      organizationId: string,
      userId: string,
      templateId: string,
      input: CreateFromTemplateInput,
    ): Promise<Agent> {
      const template = await agentTemplate(organizationId, templateId);
      const agent = await deps.agents.create(organizationId, userId, {
        name: input.name,
        description: template.description,
        role: template.role,
        goal: template.goal,
        backstory: template.backstory,
        llmProvider: template.llmProvider,
        llmModel: template.llmModel,
        temperature: template.temperature,
        maxTokens: template.maxTokens,
        systemPrompt: template.systemPrompt,
        templateCategory: template.category,
        templateTags: template.tags,
      });
      await repository.countUse('agent', template.id);
      return agent;
    },

    /**
     * A private template of the organization's workflow with its agents' definitions (named by key
     * in its nodes). A webhook secret, tools and connections stay behind.
     */
    async saveWorkflow(
      organizationId: string,
      userId: string,
      workflowId: string,
      fields: SaveAsTemplateData,
    ): Promise<WorkflowTemplate> {
      const workflow = await deps.workflows.get(organizationId, workflowId);
      const agentIds = [
        ...new Set(workflow.nodes.map(agentOfNode).filter((id): id is string => id !== undefined)),
      ];
      // In the order the graph names them, so keys and the preview follow the workflow.
      const agents = (await deps.agents.list(organizationId, agentIds)).sort(
        (a, b) => agentIds.indexOf(a.id) - agentIds.indexOf(b.id),
      );
      const taken = new Set<string>();
      const keyOfId = new Map(agents.map((agent) => [agent.id, keyFor(agent.name, taken)]));
      return repository.saveWorkflowTemplate({
        organizationId,
        isPublic: false,
        createdBy: userId,
        name: fields.name,
        description: fields.description ?? null,
        category: fields.category,
        tags: fields.tags,
        processType: workflow.processType,
        triggerType: workflow.triggerType,
        triggerConfig: deps.workflows.withoutSecret(workflow.triggerConfig),
        // An agent step whose agent no longer exists keeps no reference, a map or a loop keeps the id
        // (its run target needs one): either way the workflow made from it warns, as this one did.
        nodes: workflow.nodes.map((node) => {
          const id = agentOfNode(node);
          if (id === undefined) return node;
          return withAgent(node, keyOfId.get(id) ?? (node.type === 'agent' ? '' : undefined));
        }),
        edges: workflow.edges,
        agents: agents.map((agent) => ({ key: keyOfId.get(agent.id)!, ...definitionOf(agent) })),
        config: {},
      });
    },

    /** A private template of one of the organization's agents (its tools and connections stay behind). */
    async saveAgent(
      organizationId: string,
      userId: string,
      agentId: string,
      fields: SaveAsTemplateData,
    ): Promise<AgentTemplate> {
      const agent = await deps.agents.get(organizationId, agentId);
      return repository.saveAgentTemplate({
        ...definitionOf(agent),
        organizationId,
        isPublic: false,
        createdBy: userId,
        name: fields.name,
        description: fields.description ?? agent.description,
        category: fields.category,
        tags: fields.tags,
        tools: [],
        config: {},
      });
    },
  };
}
export type TemplatesService = ReturnType<typeof createTemplatesService>;
