import { workflowMessages as m } from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { buildSystemPrompt } from '../prompt';
import { stepName } from '../step-name';
import type { EngineNodeKind } from './types';

/** The agent an agent node runs: `agentId`, or the builder's `data.agentId`. */
export function nodeAgentId(node: { agentId?: string | null; data?: Record<string, unknown> }) {
  if (node.agentId) return node.agentId;
  return typeof node.data?.agentId === 'string' && node.data.agentId ? node.data.agentId : undefined;
}

/** A step run by one of the organization's agents: the model, asked with the agent's prompt. */
export const agentKind: EngineNodeKind<'agent'> = {
  kind: 'agent',
  validate(nodes, { agentExists }) {
    const errors: string[] = [];
    for (const node of nodes) {
      const agentId = nodeAgentId(node);
      // Named as the canvas names the step, never by ids: this text reaches the user (Execute, triggers).
      if (!agentId) errors.push(m.noAgent(stepName(node)));
      else if (!agentExists(agentId)) errors.push(m.deletedAgent(stepName(node)));
    }
    return errors;
  },
  executor: {
    agentOf(node, agents) {
      const agentId = nodeAgentId(node);
      const agent = agentId ? agents[agentId] : undefined;
      if (!agentId || !agent)
        throw new WorkflowRunError(`Agent node "${node.id}" references an agent that no longer exists`);
      return { agentId, agent };
    },
    async execute({ step, agent, user, extra, delegatedBy }, ports) {
      const answer = await ports.callAgent({
        step,
        nodeId: step.nodeId,
        agent,
        system: buildSystemPrompt(agent),
        user,
        ...extra,
      });
      return {
        content: answer.content,
        metadata: {
          agentName: agent.name,
          role: agent.role,
          model: answer.model ?? agent.llmModel,
          baseNodeId: step.baseNodeId,
          ...(delegatedBy ? { delegatedBy } : {}),
        },
        usage: answer.usage,
      };
    },
  },
};
