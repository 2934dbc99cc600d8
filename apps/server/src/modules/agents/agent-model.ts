import type { Agent } from '@crewline/contracts';
import type { LlmGateway, LlmResult, LlmTool } from '../../platform/llm';
import type { ToolConfigurationsService } from '../tool-configurations/tool-configurations.service';
import type { ToolRuntime } from '../tools/runtime/tool-runtime';
import type { ToolsService } from '../tools/tools.service';

/**
 * An agent talking to its model: the organization's connection for the agent's provider, the agent's
 * model settings and its enabled tools (run by the server). Used by the agent test and by workflow runs.
 */
export function createAgentModel(deps: {
  llm: LlmGateway;
  toolConfigurations: ToolConfigurationsService;
  tools: ToolsService;
  toolRuntime: ToolRuntime;
}) {
  return {
    async ask(
      organizationId: string,
      agent: Agent,
      prompt: { system: string; user: string },
      options: { extraTools?: Record<string, LlmTool>; signal?: AbortSignal } = {},
    ): Promise<LlmResult> {
      const connection = await deps.toolConfigurations.connectionFor(organizationId, agent.llmProvider);
      const tools = await deps.toolRuntime.modelTools(
        organizationId,
        await deps.tools.resolveForAgent(organizationId, agent.id),
      );
      return deps.llm.generate({
        connection,
        model: agent.llmModel,
        temperaturePercent: agent.temperature,
        maxTokens: agent.maxTokens,
        system: prompt.system,
        messages: [{ role: 'user', content: prompt.user }],
        tools: { ...tools, ...options.extraTools },
        signal: options.signal,
      });
    },
  };
}
export type AgentModel = ReturnType<typeof createAgentModel>;
