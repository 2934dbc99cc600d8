// The provider catalogue of the agent form (docs/product-rules.md): GET /api/llm/providers read
// defensively with the built-in fallback, how the Model field lists a Local or Custom server's models,
// and a new agent's model.
import {
  builtInDefaultModel,
  builtInModels,
  llmProviderLabels,
  llmProviderValues,
  serverListedProviders,
} from '@crewline/contracts/vocabulary';

import type { ProviderCatalogue, ProviderEntry } from './types';

/**
 * Used until GET /api/llm/providers answers, and when it fails: the server's built-in lists and
 * default models, under the providers' short names.
 */
export const DEFAULT_PROVIDER_CATALOGUE: ProviderCatalogue = Object.fromEntries(
  llmProviderValues.map((provider) => [
    provider,
    {
      name: llmProviderLabels[provider],
      models: [...builtInModels[provider]],
      defaultModel: builtInDefaultModel(provider),
    },
  ]),
);

function modelId(model: unknown): string | null {
  if (typeof model === 'string') return model.trim() || null;
  if (model && typeof model === 'object') {
    const { id, value, name } = model as { id?: unknown; value?: unknown; name?: unknown };
    for (const candidate of [id, value, name]) {
      if (typeof candidate === 'string' && candidate.trim()) return candidate.trim();
    }
  }
  return null;
}

/**
 * Reads the provider catalogue answer defensively: every provider of the fallback is present, a
 * provider the server lists replaces its fallback entry, models may be ids or `{ id, name }`. The
 * server's `defaultModel` (the connection's default model, see `defaultModelFor`) is kept when it
 * sends one, '' included.
 */
export function normalizeCatalogue(raw: unknown): ProviderCatalogue {
  const catalogue: ProviderCatalogue = { ...DEFAULT_PROVIDER_CATALOGUE };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return catalogue;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!value || typeof value !== 'object') continue;
    const entry = value as { name?: unknown; models?: unknown; defaultModel?: unknown };
    const models = Array.isArray(entry.models)
      ? [...new Set(entry.models.map(modelId).filter((m): m is string => !!m))]
      : [];
    const fallback: ProviderEntry | undefined = DEFAULT_PROVIDER_CATALOGUE[key];
    catalogue[key] = {
      name: typeof entry.name === 'string' && entry.name.trim() ? entry.name : (fallback?.name ?? key),
      models: models.length > 0 ? models : (fallback?.models ?? []),
      defaultModel:
        typeof entry.defaultModel === 'string' ? entry.defaultModel.trim() : (fallback?.defaultModel ?? ''),
      ...(typeof (entry as { listError?: unknown }).listError === 'string'
        ? { listError: (entry as { listError: string }).listError }
        : {}),
    };
  }
  return catalogue;
}

/** Local and custom providers serve whatever their own server has: only it can list their models. */
export function isFreeTextProvider(provider: string): boolean {
  return (serverListedProviders as readonly string[]).includes(provider);
}

/**
 * How the Model field offers a provider's models: a list to pick from, or a name to type. Local and
 * Custom list what their server reported; they take a typed name while the server's catalogue has not
 * answered (`loaded` undefined), and when their server could not be listed or listed nothing, then
 * with the reason (`note`) shown quietly under the field.
 */
export function modelFieldMode(
  loaded: ProviderCatalogue | undefined,
  provider: string,
): { kind: 'list' } | { kind: 'typed'; note: string | null } {
  if (!isFreeTextProvider(provider)) return { kind: 'list' };
  const entry = loaded?.[provider];
  if (!entry) return { kind: 'typed', note: null };
  if (entry.listError) return { kind: 'typed', note: `Could not list models: ${entry.listError}` };
  if (entry.models.length === 0)
    return { kind: 'typed', note: 'Could not list models: the server reported no models' };
  return { kind: 'list' };
}

/** The model choices for a provider; the current value stays listed even when the catalogue lacks it. */
export function modelOptions(catalogue: ProviderCatalogue, provider: string, current?: string): string[] {
  const models = catalogue[provider]?.models ?? [];
  const value = current?.trim();
  return value && !models.includes(value) ? [value, ...models] : [...models];
}

/**
 * The model a new agent and a provider change start with: the server's default for the provider (the
 * connection's default model; for Local and Custom, else the first model their server reports; '' when
 * the user must choose — never a guessed name such a server may not serve).
 */
export function defaultModelFor(catalogue: ProviderCatalogue, provider: string): string {
  return catalogue[provider]?.defaultModel ?? '';
}

/**
 * The model a new agent's form switches to once the server's catalogue arrives: the provider's
 * default, while the model is still the one the built-in catalogue prefilled (for the provider shown)
 * and the user has not been in its field (`modelTouched`). Null: no change.
 */
export function prefilledModel(
  catalogue: ProviderCatalogue,
  provider: string,
  current: string,
  modelTouched: boolean,
): string | null {
  if (modelTouched || current !== defaultModelFor(DEFAULT_PROVIDER_CATALOGUE, provider)) return null;
  const model = defaultModelFor(catalogue, provider);
  return model === current ? null : model;
}
