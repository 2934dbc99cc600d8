import { AGENT_BLOCKED_PATH, outputSchemaProblem, workflowMessages as m } from '@crewline/contracts';
import { WorkflowRunError } from '../errors';
import { checkTemplate, renderTemplate } from '../expressions';
import { asText } from '../prompt';
import { stepName } from '../step-name';
import { askAgent } from './ask-agent';
import { evaluatingIn } from './no-model';
import type { EngineNodeKind } from './types';

/** The agent an agent node runs: `agentId`, or the builder's `data.agentId`. */
export function nodeAgentId(node: { agentId?: string | null; data?: Record<string, unknown> }) {
  if (node.agentId) return node.agentId;
  return typeof node.data?.agentId === 'string' && node.data.agentId ? node.data.agentId : undefined;
}

/** The node's prompt template, when it replaces the default user message. */
const promptOf = (data: Record<string, unknown> | undefined) =>
  typeof data?.prompt === 'string' && data.prompt.trim() ? data.prompt : undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A step run by one of the organization's agents: the model, asked with the agent's prompt. */
export const agentKind: EngineNodeKind<'agent'> = {
  kind: 'agent',
  validate(nodes, { agentExists, scopeOf }) {
    const errors: string[] = [];
    for (const node of nodes) {
      const agentId = nodeAgentId(node);
      // Named as the canvas names the step, never by ids: this text reaches the user (Execute, triggers).
      if (!agentId) errors.push(m.noAgent(stepName(node)));
      else if (!agentExists(agentId)) errors.push(m.deletedAgent(stepName(node)));
      const schema = node.data?.outputSchema;
      const problem = schema === undefined || schema === null ? null : outputSchemaProblem(schema);
      if (problem) errors.push(m.badOutputSchema(stepName(node), problem));
      const prompt = promptOf(node.data);
      const reason = prompt && checkTemplate(prompt, scopeOf(node.id));
      if (reason) errors.push(m.badExpression(stepName(node), prompt, reason));
    }
    return errors;
  },
  // Its Blocked path when one of its guardrails blocked (and the node has that path), else its usual
  // one (any other handle: edges saved before agents had two paths keep theirs).
  takes: (output, handle) => (handle === AGENT_BLOCKED_PATH) === !!output.metadata.blockedBy,
  executor: {
    agentOf(node, agents) {
      const agentId = nodeAgentId(node);
      const agent = agentId ? agents[agentId] : undefined;
      if (!agentId || !agent)
        throw new WorkflowRunError(`Agent node "${node.id}" references an agent that no longer exists`);
      return { agentId, agent };
    },
    async execute({ step, node, agent, user, extra, delegatedBy, expressions }, ports) {
      if (!agent) throw new WorkflowRunError(`Agent node "${node.id}" has no agent`);
      const prompt = promptOf(node.data);
      const declared = node.data?.outputSchema ?? agent.outputSchema;
      return askAgent(ports, {
        step,
        agent,
        user: prompt
          ? asText(evaluatingIn(`Step "${stepName(node)}"`, () => renderTemplate(prompt, expressions)))
          : user,
        outputSchema: isObject(declared) ? declared : undefined,
        extra,
        delegatedBy,
      });
    },
  },
};
