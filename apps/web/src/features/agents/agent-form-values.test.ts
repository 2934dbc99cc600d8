import type { Agent, GuardrailCheck } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import {
  agentFormSchema,
  agentToFormValues,
  emptyAgentFormValues,
  errorFieldPaths,
  firstErrorField,
  formFieldOfServerPath,
  formOutputToPayload,
  tabForFirstError,
  tabsWithErrors,
} from './agent-form-values';

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
  memory: { enabled: false, connection: 'openai', model: 'text-embedding-3-small' },
  guardrails: {},
  organizationId: 'o1',
  createdBy: 'u1',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
} satisfies Agent;

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

  it('finds the memory settings’ errors on the Advanced tab, and the server’s under their fields', () => {
    const errors = errorFieldPaths({ name: { message: 'x' }, memory: { model: { message: 'y' } } });
    expect(errors).toEqual(['name', 'memory.model']);
    expect(tabForFirstError(['memory.model'])).toBe('advanced');
    expect([...tabsWithErrors(errorFieldPaths({ memory: { message: 'bad' } }))]).toEqual(['advanced']);
    expect(formFieldOfServerPath('memory.model')).toBe('memory.model');
    expect(formFieldOfServerPath('memory.connection')).toBe('memory.connection');
    expect(formFieldOfServerPath('memory')).toBe('memory.enabled');
    // The free-form config is no field of the form.
    expect(formFieldOfServerPath('config.memory')).toBeNull();
    expect(formFieldOfServerPath('maxTokens')).toBe('maxTokens');
    expect(formFieldOfServerPath('config.other')).toBeNull();
    expect(formFieldOfServerPath('tools')).toBeNull();
  });
});

describe('memory settings in the form', () => {
  const base = { ...emptyAgentFormValues(), name: 'A', role: 'R', goal: 'G' };

  it('starts off, with OpenAI and its small embedding model', () => {
    expect(emptyAgentFormValues().memory).toEqual({
      enabled: false,
      connection: 'openai',
      model: 'text-embedding-3-small',
    });
  });

  it('asks for an embedding model only while memory is on', () => {
    const off = { ...base, memory: { ...base.memory, model: '  ' } };
    expect(agentFormSchema('create').safeParse(off).success).toBe(true);
    const on = agentFormSchema('edit').safeParse({ ...off, memory: { ...off.memory, enabled: true } });
    expect(on.success).toBe(false);
    expect(on.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['memory.model', 'Choose the embedding model memories are searched with'],
    ]);
  });

  it('reads an agent’s saved settings, off or on, and ignores bad ones', () => {
    const saved = (memory: unknown) => agentToFormValues({ ...agent, memory } as Agent).memory;
    expect(saved({ enabled: true, connection: 'local', model: 'nomic-embed-text' })).toEqual({
      enabled: true,
      connection: 'local',
      model: 'nomic-embed-text',
    });
    expect(saved({ enabled: false })).toEqual({
      enabled: false,
      connection: 'openai',
      model: 'text-embedding-3-small',
    });
    expect(saved('yes').enabled).toBe(false);
  });
});

describe('form values and payload', () => {
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
      memory: { enabled: false, connection: 'openai', model: 'text-embedding-3-small' },
      guardrails: { input: [], output: [], tools: [] },
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
      guardrails: {},
    });
    expect(payload).not.toHaveProperty('tools');
    expect(payload).not.toHaveProperty('config');
  });

  const withConfig = { ...agent, config: { theme: 'formal', limits: { daily: 3 } } };
  const submit = (
    memory: Partial<ReturnType<typeof emptyAgentFormValues>['memory']>,
    saved: Agent = withConfig,
  ) => {
    const values = agentToFormValues(saved);
    const parsed = agentFormSchema('edit').parse({ ...values, memory: { ...values.memory, ...memory } });
    return formOutputToPayload(parsed, saved.memory);
  };

  it('turning memory on sends the memory field, never the free-form config', () => {
    const on = submit({ enabled: true });
    expect(on.memory).toEqual({
      enabled: true,
      connection: 'openai',
      model: 'text-embedding-3-small',
    });
    expect(on).not.toHaveProperty('config');
    expect(submit({ enabled: true, connection: 'custom', model: ' bge-m3 ' }).memory).toEqual({
      enabled: true,
      connection: 'custom',
      model: 'bge-m3',
    });
  });

  it('sends no memory when it was left off, or turned on and off again', () => {
    expect(submit({})).not.toHaveProperty('memory');
    // Off → on (a model typed) → off: nothing to save, nothing reset.
    expect(submit({ enabled: false, model: 'text-embedding-3-small' })).not.toHaveProperty('memory');
  });

  it('turning a saved memory off keeps its settings', () => {
    const on: Agent = {
      ...withConfig,
      memory: { enabled: true, connection: 'local', model: 'nomic-embed-text' },
    };
    expect(submit({}, on)).not.toHaveProperty('memory');
    expect(submit({ enabled: false }, on).memory).toEqual({
      enabled: false,
      connection: 'local',
      model: 'nomic-embed-text',
    });
  });

  it('a new agent with memory on sends its memory settings', () => {
    const parsed = agentFormSchema('create').parse({
      ...emptyAgentFormValues(),
      name: 'A',
      role: 'R',
      goal: 'G',
      memory: { enabled: true, connection: 'openai', model: 'text-embedding-3-small' },
    });
    expect(formOutputToPayload(parsed).memory).toEqual({
      enabled: true,
      connection: 'openai',
      model: 'text-embedding-3-small',
    });
    expect(
      formOutputToPayload({ ...parsed, memory: { ...parsed.memory, enabled: false } }),
    ).not.toHaveProperty('memory');
  });
});

describe('guardrails in the form', () => {
  const pii: GuardrailCheck = { type: 'pii', enabled: true, entities: ['email'], action: 'redact' };
  const secrets: GuardrailCheck = { type: 'secrets', enabled: false, action: 'block' };
  const guarded: Agent = { ...agent, guardrails: { input: [pii], tools: [secrets] } };

  it('reads an agent’s guardrails into three lists, empty where it has none', () => {
    expect(agentToFormValues(guarded).guardrails).toEqual({ input: [pii], output: [], tools: [secrets] });
    expect(emptyAgentFormValues().guardrails).toEqual({ input: [], output: [], tools: [] });
  });

  it('reads an agent saved before guardrails, or with bad ones, as none', () => {
    const { guardrails: _, ...older } = agent;
    expect(agentToFormValues(older as unknown as Agent).guardrails).toEqual({
      input: [],
      output: [],
      tools: [],
    });
    const bad = { ...agent, guardrails: { input: [{ type: 'pii', action: 'explode' }] } } as unknown as Agent;
    expect(agentToFormValues(bad).guardrails).toEqual({ input: [], output: [], tools: [] });
  });

  it('sends the lists that hold checks, switched-off ones too, and {} once all are removed', () => {
    const values = agentToFormValues(guarded);
    const answer = { type: 'moderation', enabled: true, threshold: 0.8, action: 'flag' } as const;
    const parsed = agentFormSchema('edit').parse({
      ...values,
      guardrails: { ...values.guardrails, output: [answer] },
    });
    expect(formOutputToPayload(parsed).guardrails).toEqual({
      input: [pii],
      output: [answer],
      tools: [secrets],
    });
    const cleared = agentFormSchema('edit').parse({
      ...values,
      guardrails: { input: [], output: [], tools: [] },
    });
    expect(formOutputToPayload(cleared).guardrails).toEqual({});
  });

  it('refuses a check the server would refuse (a moderation check cannot redact)', () => {
    const values = agentToFormValues(agent);
    const result = agentFormSchema('create').safeParse({
      ...values,
      guardrails: { ...values.guardrails, output: [{ type: 'moderation', enabled: true, action: 'redact' }] },
    });
    expect(result.success).toBe(false);
    expect(errorFieldPaths({ guardrails: { output: {} } })).toEqual(['guardrails']);
    expect(tabForFirstError(['guardrails'])).toBe('advanced');
    expect(formFieldOfServerPath('guardrails.output.0.action')).toBe('guardrails');
  });
});
