// The LLM platform module: one gateway for every provider, the model catalogue and their errors.
export { createLlmGateway, type LlmGateway, type LlmGatewayOptions } from './gateway';
export { createModelCatalogue, type ModelCatalogue, type ProviderModels } from './model-catalogue';
export { resolveConnection, normalizeBaseUrl, type ConnectionSources } from './connection';
export { LlmCallError, LlmConfigurationError, type LlmCallErrorKind } from './errors';
export { LLM_PROVIDERS, PROVIDER_INFO, isLlmProvider, type ProviderInfo } from './providers';
export type {
  LlmConnection,
  LlmEmbedRequest,
  LlmEmbedResult,
  LlmMessage,
  LlmProvider,
  LlmRequest,
  LlmResult,
  LlmStep,
  LlmTool,
  LlmToolTrace,
  LlmTrace,
  LlmUsage,
} from './types';
export { newLlmTrace } from './types';
