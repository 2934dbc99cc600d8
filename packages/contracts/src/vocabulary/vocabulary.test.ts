import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
  executionStatusSchema,
  executionTriggerLabels,
  executionTriggerSchema,
  llmProviderSchema,
  planIdSchema,
  processTypeSchema,
  toolCategorySchema,
  triggerTypeSchema,
} from '../index';
import {
  API_ACCESS_PLANS,
  builtInDefaultModel,
  builtInModels,
  DEFAULT_AI_TOOL_MODEL,
  DEFAULT_LLM_MODEL,
  DEFAULT_LLM_PROVIDER,
  executionStatusValues,
  FREE_LIMITS,
  isLlmProvider,
  isPlanId,
  isRunActive,
  isRunEnded,
  llmProviderLabels,
  llmProviderNames,
  llmProviderValues,
  PLAN_LIMITS,
  PLAN_PRICE_CENTS,
  planDisplayNames,
  planIdValues,
  processTypeLabels,
  processTypeValues,
  toolCategoryLabels,
  toolCategoryValues,
  TRIAL_DAYS,
  triggerTypeLabels,
  triggerTypeValues,
} from './index';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe('the vocabulary entry', () => {
  it('imports nothing: no zod, no other contract file (the web loads it without the schemas)', () => {
    const dir = import.meta.dirname;
    const sources = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(sources.sort()).toEqual([
      'index.ts',
      'plans.ts',
      'process-kinds.ts',
      'providers.ts',
      'run-statuses.ts',
      'tool-categories.ts',
      'trigger-kinds.ts',
    ]);
    for (const name of sources) {
      const imports = [...readFileSync(join(dir, name), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const from of imports) expect(from, name).toMatch(/^\.\/[a-z-]+$/);
    }
  });

  it('is what the schemas accept', () => {
    expect(planIdSchema.options).toEqual([...planIdValues]);
    expect(llmProviderSchema.options).toEqual([...llmProviderValues]);
    expect(toolCategorySchema.options).toEqual([...toolCategoryValues]);
    expect(executionStatusSchema.options).toEqual([...executionStatusValues]);
    // A run also starts from an MCP client calling a published workflow, an eval run's item, or a chat message.
    expect(executionTriggerSchema.options).toEqual([...triggerTypeValues, 'mcp', 'eval', 'chat']);
    expect(processTypeSchema.options).toEqual([...processTypeValues]);
    expect(triggerTypeSchema.options).toEqual([...triggerTypeValues]);
    expect(executionTriggerLabels).toEqual({
      ...triggerTypeLabels,
      mcp: 'MCP',
      eval: 'Evaluation',
      chat: 'Chat',
    });
  });
});

describe('plans', () => {
  it('names, monthly prices, trial and API access', () => {
    expect(planIdValues).toEqual(['starter', 'professional', 'enterprise']);
    expect(planDisplayNames).toEqual({
      starter: 'Starter',
      professional: 'Professional',
      enterprise: 'Enterprise',
      free: 'Free',
    });
    expect(PLAN_PRICE_CENTS).toEqual({ starter: 1900, professional: 4900, enterprise: 14900 });
    expect(TRIAL_DAYS).toBe(14);
    expect(API_ACCESS_PLANS).toEqual(['professional', 'enterprise']);
  });

  it('limits: Free, Starter, Professional and Enterprise (null is unlimited)', () => {
    expect(FREE_LIMITS).toEqual({
      agents: 3,
      executionsPerMonth: 100,
      mapItems: 100,
      members: 1,
      knowledgeStorageBytes: 50 * MiB,
      concurrentRuns: 2,
    });
    expect(PLAN_LIMITS).toEqual({
      starter: {
        agents: 5,
        executionsPerMonth: 1000,
        members: 3,
        knowledgeStorageBytes: GiB,
        mapItems: 1000,
        concurrentRuns: 5,
      },
      professional: {
        agents: null,
        executionsPerMonth: 10_000,
        mapItems: 1000,
        members: 15,
        knowledgeStorageBytes: 10 * GiB,
        concurrentRuns: 20,
      },
      enterprise: {
        agents: null,
        executionsPerMonth: null,
        members: null,
        knowledgeStorageBytes: null,
        mapItems: 10_000,
        concurrentRuns: 50,
      },
    });
  });

  it('isPlanId knows the three plans only', () => {
    for (const plan of planIdValues) expect(isPlanId(plan)).toBe(true);
    for (const value of ['free', 'Starter', '', null, 3]) expect(isPlanId(value)).toBe(false);
  });
});

describe('providers and models', () => {
  it('names: the catalogue’s long ones and the cards’ short ones', () => {
    expect(llmProviderValues).toEqual(['openai', 'anthropic', 'local', 'custom']);
    expect(llmProviderNames).toEqual({
      openai: 'OpenAI',
      anthropic: 'Anthropic',
      local: 'Local (Ollama)',
      custom: 'Custom (OpenAI-compatible)',
    });
    expect(llmProviderLabels).toEqual({
      openai: 'OpenAI',
      anthropic: 'Anthropic',
      local: 'Local',
      custom: 'Custom',
    });
  });

  it('built-in models and the defaults a new agent and an AI tool start with', () => {
    expect(builtInModels).toEqual({
      openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo'],
      anthropic: ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'],
      local: ['llama3.1:8b', 'mistral', 'qwen2.5'],
      custom: [],
    });
    expect(llmProviderValues.map(builtInDefaultModel)).toEqual(['gpt-4o', 'claude-sonnet-4-5', '', '']);
    expect([DEFAULT_LLM_PROVIDER, DEFAULT_LLM_MODEL, DEFAULT_AI_TOOL_MODEL]).toEqual([
      'openai',
      'gpt-4o',
      'gpt-4o-mini',
    ]);
  });

  it('isLlmProvider knows the four providers only', () => {
    for (const provider of llmProviderValues) expect(isLlmProvider(provider)).toBe(true);
    for (const value of ['OpenAI', 'ollama', '', undefined]) expect(isLlmProvider(value)).toBe(false);
  });
});

describe('kinds and their labels', () => {
  it('tool categories', () => {
    expect(toolCategoryLabels).toEqual({
      web: 'Web Tools',
      vector_store: 'Vector Store',
      api: 'API Integration',
      file: 'File Operations',
      communication: 'Communication',
      database: 'Database',
      ai: 'AI Services',
      custom: 'Custom',
      mcp: 'MCP Server',
    });
    expect(Object.keys(toolCategoryLabels)).toEqual([...toolCategoryValues]);
  });

  it('process and trigger kinds', () => {
    expect(processTypeLabels).toEqual({
      sequential: 'Sequential',
      hierarchical: 'Hierarchical',
      parallel: 'Parallel',
    });
    expect(triggerTypeLabels).toEqual({
      manual: 'Manual',
      schedule: 'Schedule',
      webhook: 'Webhook',
      email: 'Email',
    });
  });
});

describe('run statuses', () => {
  it('pending, running and waiting are active; completed, failed and cancelled have ended', () => {
    expect(executionStatusValues).toEqual([
      'pending',
      'running',
      'waiting',
      'completed',
      'failed',
      'cancelled',
    ]);
    expect(executionStatusValues.filter(isRunActive)).toEqual(['pending', 'running', 'waiting']);
    expect(executionStatusValues.filter(isRunEnded)).toEqual(['completed', 'failed', 'cancelled']);
  });

  it('an unknown or missing status is neither', () => {
    for (const status of [null, undefined, '', 'queued', 'Running']) {
      expect(isRunActive(status)).toBe(false);
      expect(isRunEnded(status)).toBe(false);
    }
  });
});
