import type { Agent } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  agentFormSchema,
  agentToFormValues,
  DEFAULT_PROVIDER_CATALOGUE,
  defaultModelFor,
  emptyAgentFormValues,
  firstErrorField,
  formOutputToPayload,
  isFreeTextProvider,
  modelOptions,
  normalizeCatalogue,
  tabForFirstError,
  tabsWithErrors,
} from './agent-form-logic';

function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
}

describe('agent form schema', () => {
  it('requires name, role and goal, each with its message', () => {
    const result = agentFormSchema('create').safeParse(emptyAgentFormValues());
    expect(result.success).toBe(false);
    expect(messages(result)).toEqual({
      name: 'Name is required',
      role: 'Role is required',
      goal: 'Goal is required',
    });
  });

  it('accepts 100–8000 max tokens in the create dialog and 100–4000 on the edit page', () => {
    const base = { ...emptyAgentFormValues(), name: 'A', role: 'R', goal: 'G' };
    expect(agentFormSchema('create').safeParse({ ...base, maxTokens: 8000 }).success).toBe(true);
    expect(agentFormSchema('create').safeParse({ ...base, maxTokens: 8001 }).success).toBe(false);
    expect(agentFormSchema('create').safeParse({ ...base, maxTokens: 99 }).success).toBe(false);
    expect(agentFormSchema('edit').safeParse({ ...base, maxTokens: 4000 }).success).toBe(true);
    const edit = agentFormSchema('edit').safeParse({ ...base, maxTokens: 6000 });
    expect(messages(edit)).toEqual({ maxTokens: 'Max tokens must be between 100 and 4000' });
    expect(messages(agentFormSchema('edit').safeParse({ ...base, maxTokens: Number.NaN }))).toEqual({
      maxTokens: 'Max tokens must be a number',
    });
  });
});

describe('error tabs', () => {
  it('picks the tab of the first error in form order', () => {
    expect(tabForFirstError(['goal', 'name'])).toBe('basic');
    expect(firstErrorField(['goal', 'name'])).toBe('name');
    expect(tabForFirstError(['maxTokens'])).toBe('llm');
    expect(tabForFirstError(['status', 'llmModel'])).toBe('llm');
    expect(tabForFirstError(['systemPrompt'])).toBe('advanced');
    expect(tabForFirstError([])).toBeNull();
    expect(tabForFirstError(['unknown'])).toBeNull();
  });

  it('marks every tab holding an error', () => {
    expect([...tabsWithErrors(['role', 'maxTokens', 'status'])].sort()).toEqual(['advanced', 'basic', 'llm']);
  });
});

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
    expect(catalogue.local).toEqual({ name: 'Ollama', models: DEFAULT_PROVIDER_CATALOGUE.local.models });
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

describe('form values and payload', () => {
  const agent = {
    id: 'a1',
    name: 'Scout',
    description: null,
    role: 'Researcher',
    goal: 'Find facts',
    backstory: null,
    llmProvider: 'anthropic',
    llmModel: 'claude-3-5-sonnet-20241022',
    temperature: 35,
    maxTokens: 1500,
    systemPrompt: null,
    tools: ['web_search'],
    status: 'active',
    templateCategory: null,
    templateTags: [],
    config: {},
    organizationId: 'o1',
    createdBy: 'u1',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  } satisfies Agent;

  it('turns an agent into form values (nulls as empty text)', () => {
    expect(agentToFormValues(agent)).toEqual({
      name: 'Scout',
      role: 'Researcher',
      goal: 'Find facts',
      description: '',
      backstory: '',
      llmProvider: 'anthropic',
      llmModel: 'claude-3-5-sonnet-20241022',
      temperature: 35,
      maxTokens: 1500,
      systemPrompt: '',
      status: 'active',
    });
  });

  it('sends only the form fields, with empty optional texts as null', () => {
    const parsed = agentFormSchema('edit').parse({
      ...agentToFormValues(agent),
      description: '  ',
      name: ' Scout 2 ',
    });
    const payload = formOutputToPayload(parsed);
    expect(payload).toEqual({
      name: 'Scout 2',
      role: 'Researcher',
      goal: 'Find facts',
      description: null,
      backstory: null,
      llmProvider: 'anthropic',
      llmModel: 'claude-3-5-sonnet-20241022',
      temperature: 35,
      maxTokens: 1500,
      systemPrompt: null,
      status: 'active',
    });
    expect(payload).not.toHaveProperty('tools');
    expect(payload).not.toHaveProperty('config');
  });
});
