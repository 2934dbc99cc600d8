import { describe, expect, it } from 'vitest';

import {
  DEFAULT_PROVIDER_CATALOGUE,
  defaultModelFor,
  isFreeTextProvider,
  modelFieldMode,
  modelOptions,
  normalizeCatalogue,
  prefilledModel,
} from './provider-catalogue';
import { emptyAgentFormValues } from './agent-form-values';

describe('provider catalogue', () => {
  it('falls back to the built-in catalogue', () => {
    expect(normalizeCatalogue(undefined)).toEqual(DEFAULT_PROVIDER_CATALOGUE);
    expect(normalizeCatalogue('nope').openai.models).toEqual(['gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo']);
  });

  it('uses what the server lists, models as ids or objects', () => {
    const catalogue = normalizeCatalogue({
      openai: { name: 'OpenAI', models: ['gpt-4.1', { id: 'o3-mini', name: 'o3 mini' }, 'gpt-4.1'] },
      local: { name: 'Ollama', models: [] },
    });
    expect(catalogue.openai.models).toEqual(['gpt-4.1', 'o3-mini']);
    expect(catalogue.local).toEqual({
      name: 'Ollama',
      models: DEFAULT_PROVIDER_CATALOGUE.local.models,
      defaultModel: '',
    });
    expect(catalogue.anthropic).toEqual(DEFAULT_PROVIDER_CATALOGUE.anthropic);
  });

  it('keeps the current model listed and picks the first model on a provider change', () => {
    expect(modelOptions(DEFAULT_PROVIDER_CATALOGUE, 'openai', 'gpt-4-legacy')[0]).toBe('gpt-4-legacy');
    expect(modelOptions(DEFAULT_PROVIDER_CATALOGUE, 'openai', 'gpt-4o')).toEqual(
      DEFAULT_PROVIDER_CATALOGUE.openai.models,
    );
    expect(defaultModelFor(DEFAULT_PROVIDER_CATALOGUE, 'anthropic')).toBe(
      DEFAULT_PROVIDER_CATALOGUE.anthropic.models[0],
    );
    expect(defaultModelFor(DEFAULT_PROVIDER_CATALOGUE, 'custom')).toBe('');
    expect(isFreeTextProvider('local')).toBe(true);
    expect(isFreeTextProvider('custom')).toBe(true);
    expect(isFreeTextProvider('openai')).toBe(false);
  });
});

describe('the Model field of Local and Custom', () => {
  it("lists the models their server reported, like the other providers' lists", () => {
    const served = normalizeCatalogue({
      local: { name: 'Local (Ollama)', models: ['llama3.2:3b', 'qwen2.5:7b'], defaultModel: 'llama3.2:3b' },
    });
    expect(modelFieldMode(served, 'local')).toEqual({ kind: 'list' });
    expect(modelOptions(served, 'local', 'llama3.2:3b')).toEqual(['llama3.2:3b', 'qwen2.5:7b']);
    expect(modelFieldMode(served, 'openai')).toEqual({ kind: 'list' });
  });

  it('takes a typed name, and says why, when their server could not be listed or listed nothing', () => {
    const failed = normalizeCatalogue({
      local: { name: 'Local', models: ['llama3.1:8b'], defaultModel: '', listError: 'connection refused' },
      custom: { name: 'Custom', models: [], defaultModel: '' },
    });
    expect(failed.local.listError).toBe('connection refused');
    expect(modelFieldMode(failed, 'local')).toEqual({
      kind: 'typed',
      note: 'Could not list models: connection refused',
    });
    expect(modelFieldMode(failed, 'custom')).toEqual({
      kind: 'typed',
      note: 'Could not list models: the server reported no models',
    });
    // Before the server's catalogue answers: typed, with no reason to give yet.
    expect(modelFieldMode(undefined, 'custom')).toEqual({ kind: 'typed', note: null });
  });
});

describe("a new agent's model", () => {
  const served = normalizeCatalogue({
    openai: { name: 'OpenAI', models: ['gpt-4o', 'gpt-4o-mini'], defaultModel: 'gpt-4o-mini' },
    local: { name: 'Local (Ollama)', models: ['llama3.2:3b', 'qwen2.5:7b'], defaultModel: 'llama3.2:3b' },
    custom: { name: 'Custom', models: [], defaultModel: '' },
  });

  it("is the provider connection's default model the server names", () => {
    expect(defaultModelFor(served, 'openai')).toBe('gpt-4o-mini');
    expect(defaultModelFor(served, 'local')).toBe('llama3.2:3b');
    expect(defaultModelFor(served, 'custom')).toBe('');
    // A server that sends no default (an older one) leaves the built-in default.
    expect(
      defaultModelFor(normalizeCatalogue({ openai: { name: 'OpenAI', models: ['gpt-4.1'] } }), 'openai'),
    ).toBe('gpt-4o');
  });

  it('is never a guessed name for Local or Custom before their server has answered', () => {
    expect(defaultModelFor(DEFAULT_PROVIDER_CATALOGUE, 'local')).toBe('');
    expect(defaultModelFor(DEFAULT_PROVIDER_CATALOGUE, 'custom')).toBe('');
    expect(emptyAgentFormValues()).toMatchObject({ llmProvider: 'openai', llmModel: 'gpt-4o' });
  });

  it("switches the create form's prefilled model to the connection's when the catalogue arrives", () => {
    expect(prefilledModel(served, 'openai', 'gpt-4o', false)).toBe('gpt-4o-mini');
    expect(prefilledModel(served, 'local', '', false)).toBe('llama3.2:3b');
    // What the user picked or typed stays.
    expect(prefilledModel(served, 'openai', 'gpt-4o', true)).toBeNull();
    expect(prefilledModel(served, 'openai', 'gpt-4o-mini', false)).toBeNull();
    expect(prefilledModel(served, 'local', 'mistral:7b', false)).toBeNull();
    expect(prefilledModel(served, 'custom', '', false)).toBeNull();
  });
});
