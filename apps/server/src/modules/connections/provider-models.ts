import type { LlmProvider, ModelCatalogue } from '../../platform/llm';
import type { ConnectionsService } from './connections.service';

/**
 * The models an organization's agents can use, per provider, and the one a new agent starts with:
 * the organization's connections (Settings → Tools) read once, the models from the model catalogue.
 */
export function createProviderModels(configurations: ConnectionsService, catalogue: ModelCatalogue) {
  async function list(organizationId: string) {
    const { connections, defaults, version } = await configurations.providerConnections(organizationId);
    return catalogue.providers(connections, version, defaults);
  }
  return {
    list,
    /** '' when there is none (a local or custom server that names no model): the caller must choose. */
    async defaultModel(organizationId: string, provider: LlmProvider): Promise<string> {
      return (await list(organizationId))[provider].defaultModel;
    },
  };
}
export type ProviderModelsService = ReturnType<typeof createProviderModels>;
