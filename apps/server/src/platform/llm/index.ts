// The LLM platform module: one gateway for every provider, the model catalogue and their errors.
export { createLlmGateway, type LlmGateway } from './gateway';
export type { ModerationScores } from './moderation';
export { createModelCatalogue, type ModelCatalogue } from './model-catalogue';
export { resolveConnection } from './connection';
export { LlmCallError, LlmConfigurationError } from './errors';
export { LLM_PROVIDERS, isLlmProvider } from './providers';
export type {
  LlmConnection,
  LlmMessage,
  LlmMeter,
  LlmPendingApproval,
  LlmProvider,
  LlmRequest,
  LlmResult,
  LlmSpendHooks,
  LlmTool,
  LlmToolTrace,
  LlmTrace,
  LlmUsage,
} from './types';
export { newLlmTrace } from './types';

/**
 * Why an output schema cannot be asked for (not an object schema, or not a JSON Schema that
 * compiles), or null: for checking one when it is saved. Loads the validator on first use.
 */
export async function outputSchemaProblem(schema: unknown): Promise<string | null> {
  const { outputSchemaProblem: problem } = await import('./output-schema');
  return problem(schema);
}
