import { DEFAULT_AI_TOOL_MODEL, DEFAULT_LLM_PROVIDER } from '@crewline/contracts';
import { z } from 'zod';
import {
  isLlmProvider,
  type LlmConnection,
  type LlmGateway,
  type LlmProvider,
  type LlmTool,
} from '../../../platform/llm';

const aiArgs = z.object({ prompt: z.string().min(1).max(50_000) });

/** `ai` tools: ask another configured model (the tool's provider and model) a question. */
export function createAiTool(
  settings: { provider?: unknown; model?: unknown; systemPrompt?: unknown },
  deps: {
    llm: LlmGateway;
    /** Whose tool it is: its model calls are charged to the organization (source `tool`). */
    organizationId: string;
    connectionFor(provider: LlmProvider): Promise<LlmConnection>;
  },
): LlmTool {
  const provider: LlmProvider =
    typeof settings.provider === 'string' && isLlmProvider(settings.provider)
      ? settings.provider
      : DEFAULT_LLM_PROVIDER;
  const model = typeof settings.model === 'string' && settings.model ? settings.model : DEFAULT_AI_TOOL_MODEL;
  return {
    description: `Asks another AI model (${provider} ${model}) and returns its answer.`,
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The question or task' } },
      required: ['prompt'],
    },
    async execute(raw, options) {
      const args = aiArgs.parse(raw);
      const result = await deps.llm.generate({
        connection: await deps.connectionFor(provider),
        model,
        temperaturePercent: 70,
        maxTokens: 1000,
        system:
          typeof settings.systemPrompt === 'string' && settings.systemPrompt
            ? settings.systemPrompt
            : 'You are a helpful assistant.',
        messages: [{ role: 'user', content: args.prompt }],
        signal: options?.signal,
        meter: { organizationId: deps.organizationId, source: 'tool' },
      });
      return { answer: result.text, model: result.model, usage: result.usage };
    },
  };
}
