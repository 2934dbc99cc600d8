import type { AgentKnowledgeBase, KnowledgeBase, Tool } from '@crewline/contracts';
import { NotFoundError } from '../../platform/errors';
import { requireUuid } from '../../platform/ids';
import type { KnowledgeService } from '../knowledge/knowledge.service';
import type { ToolsService } from '../tools/tools.service';
import type { AgentsService } from './agents.service';

const baseNotFound = 'Knowledge base not found';

/** The knowledge base a tool searches: a vector-store tool on the organization's own store. */
function baseOf(tool: Pick<Tool, 'category' | 'config'>): string | undefined {
  const id = tool.config.knowledgeBaseId;
  return tool.category === 'vector_store' && typeof id === 'string' && id ? id : undefined;
}

/**
 * The agent's knowledge: the knowledge bases it searches, each through a vector-store tool linked to
 * it, so a run searches them as it runs any tool (runtime, step records, egress unchanged). Picking a
 * base reuses the organization's tool for it that carries the base's name, or makes one (named and
 * described as the base: the model is told both); unpicking removes the link, never the tool.
 */
export function createAgentKnowledgeService(deps: {
  agents: Pick<AgentsService, 'get'>;
  tools: Pick<ToolsService, 'list' | 'listLinks' | 'create' | 'connect' | 'disconnect'>;
  knowledge: Pick<KnowledgeService, 'list'>;
}) {
  const { tools } = deps;

  /** The agent's linked bases (one entry per base, the oldest link's tool), in link order. */
  async function linked(organizationId: string, agentId: string) {
    const [links, all, bases] = await Promise.all([
      tools.listLinks(organizationId, agentId),
      tools.list(organizationId),
      deps.knowledge.list(organizationId),
    ]);
    const toolsById = new Map(all.map((tool) => [tool.id, tool]));
    const basesById = new Map(bases.map((base) => [base.id, base]));
    const found = new Map<string, AgentKnowledgeBase>();
    const baseLinks: { toolId: string; baseId: string }[] = [];
    for (const link of links) {
      const tool = toolsById.get(link.toolId);
      const base = tool && basesById.get(baseOf(tool) ?? '');
      if (!base) continue;
      baseLinks.push({ toolId: link.toolId, baseId: base.id });
      if (!found.has(base.id))
        found.set(base.id, {
          id: base.id,
          name: base.name,
          description: base.description,
          toolId: link.toolId,
        });
    }
    return { bases: [...found.values()], links: baseLinks, all, basesById };
  }

  /** The organization's tool for the base: active, on it, named as it; else a new one. */
  async function toolFor(organizationId: string, userId: string, base: KnowledgeBase, all: Tool[]) {
    const reused = all.find(
      (tool) => tool.isActive && baseOf(tool) === base.id && tool.name === base.name.slice(0, 100),
    );
    if (reused) return reused;
    // A knowledge base's tool holds no credential: the audit log does not record it.
    const actor = { userId, ip: null };
    return tools.create(organizationId, actor, {
      name: base.name.slice(0, 100),
      description: base.description?.slice(0, 2000) ?? null,
      category: 'vector_store',
      config: { knowledgeBaseId: base.id },
    });
  }

  return {
    async list(organizationId: string, agentId: string): Promise<AgentKnowledgeBase[]> {
      const agent = await deps.agents.get(organizationId, agentId);
      return (await linked(organizationId, agent.id)).bases;
    },

    /**
     * Makes the agent search exactly these bases. Every id must be one of the organization's bases
     * (another organization's is not found, 404) before anything changes.
     */
    async set(
      organizationId: string,
      userId: string,
      agentId: string,
      knowledgeBaseIds: string[],
    ): Promise<AgentKnowledgeBase[]> {
      const agent = await deps.agents.get(organizationId, agentId);
      const current = await linked(organizationId, agent.id);
      const wanted = [...new Set(knowledgeBaseIds)].map((id) => {
        const base = current.basesById.get(requireUuid(id, baseNotFound));
        if (!base) throw new NotFoundError(baseNotFound);
        return base;
      });
      const wantedIds = new Set(wanted.map((base) => base.id));
      for (const link of current.links)
        if (!wantedIds.has(link.baseId)) await tools.disconnect(organizationId, agent.id, link.toolId);
      const have = new Set(current.links.map((link) => link.baseId));
      for (const base of wanted) {
        if (have.has(base.id)) continue;
        const tool = await toolFor(organizationId, userId, base, current.all);
        await tools.connect(organizationId, agent.id, tool.id, {});
      }
      return (await linked(organizationId, agent.id)).bases;
    },
  };
}
export type AgentKnowledgeService = ReturnType<typeof createAgentKnowledgeService>;
