import { buildSystemPrompt } from '../prompt';
import type { AgentCall, RunAgent, StepRef } from '../run-workflow';
import type { StepExecutor, StepResult } from './types';

type Ports = Parameters<StepExecutor['execute']>[1];

/**
 * One agent call as a step's work (an agent node, a map's item, a loop's pass): the agent's system
 * prompt, the user message, its output schema when there is one; the answer as the step's result.
 */
export async function askAgent(
  ports: Ports,
  call: {
    step: StepRef;
    agent: RunAgent;
    user: string;
    outputSchema?: Record<string, unknown>;
    extra?: Partial<AgentCall>;
    delegatedBy?: string;
  },
): Promise<StepResult> {
  const { step, agent, outputSchema, delegatedBy } = call;
  const answer = await ports.callAgent({
    step,
    nodeId: step.nodeId,
    agent,
    system: buildSystemPrompt(agent),
    user: call.user,
    ...(outputSchema ? { outputSchema } : {}),
    ...call.extra,
  });
  return {
    content: answer.content,
    ...(answer.data !== undefined ? { data: answer.data } : {}),
    metadata: {
      agentName: agent.name,
      role: agent.role,
      model: answer.model ?? agent.llmModel,
      baseNodeId: step.baseNodeId,
      ...(delegatedBy ? { delegatedBy } : {}),
      ...(answer.blockedBy ? { blockedBy: answer.blockedBy } : {}),
    },
    usage: answer.usage,
  };
}
