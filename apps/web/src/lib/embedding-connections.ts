// The connections that embed texts (a knowledge base's documents, an agent's memories): the
// organization's OpenAI, local or custom connection (Anthropic has no embeddings). Shared by the
// Knowledge pages and the agent form, so both offer and name them alike.
import type { EmbeddingProvider } from '@crewline/contracts';
import { llmProviderLabels } from '@crewline/contracts/vocabulary';

export const EMBEDDING_PROVIDERS: readonly EmbeddingProvider[] = ['openai', 'local', 'custom'];

const PROVIDER_LABELS: Record<EmbeddingProvider, string> = llmProviderLabels;

export function embeddingProviderLabel(provider: string): string {
  return PROVIDER_LABELS[provider as EmbeddingProvider] ?? provider;
}

/** Where each connection's address and key are set, for the hint under the select. */
export const EMBEDDING_PROVIDER_HINTS: Record<EmbeddingProvider, string> = {
  openai: "Uses your organization's OpenAI connection (Settings → Tools).",
  local: "Uses the OpenAI-compatible embeddings endpoint of your organization's local connection.",
  custom: "Uses the OpenAI-compatible embeddings endpoint of your organization's custom connection.",
};
