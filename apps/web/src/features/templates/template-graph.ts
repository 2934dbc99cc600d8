// A template's preview graph (docs/product-rules.md, Templates).
import type { WorkflowNode, WorkflowTemplate } from '@crewline/contracts';

import type { GraphAgent } from '@/components/workflow-graph/graph-elements';

/**
 * The preview's graph: the template's nodes, each agent node labelled with its template agent's
 * name, role and model (nodes name their agent by the template agent's `key`, in `agentId` or
 * `data.agentId`), and those agents for the graph to fall back on.
 */
export function templateGraph(template: Pick<WorkflowTemplate, 'nodes' | 'agents'>): {
  nodes: WorkflowNode[];
  agents: GraphAgent[];
} {
  const byKey = new Map(template.agents.map((agent) => [agent.key, agent]));
  const nodes = template.nodes.map((node) => {
    if (node.type !== 'agent') return node;
    const key = node.agentId || (typeof node.data?.agentId === 'string' ? node.data.agentId : '');
    const agent = key ? byKey.get(key) : undefined;
    if (!agent) return node;
    return {
      ...node,
      data: { ...node.data, name: agent.name, role: agent.role, model: agent.llmModel },
    };
  });
  const agents = template.agents.map((agent) => ({
    id: agent.key,
    name: agent.name,
    role: agent.role,
    llmModel: agent.llmModel,
  }));
  return { nodes, agents };
}
