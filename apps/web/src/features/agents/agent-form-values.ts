// The agent form's rules (docs/product-rules.md): which tab holds which field, the form schema (create
// dialog: max tokens 100–8000; edit page: 100–4000), the memory settings (the agent's `memory` field),
// its guardrails (the agent's `guardrails` field), and the conversions between an agent, the form
// values and the request body.
import {
  agentGuardrailsSchema,
  agentMemorySettingsSchema,
  createAgentSchema,
  DEFAULT_EMBEDDING_MODEL,
  embeddingProviderSchema,
  guardrailChecksSchema,
  type Agent,
  type AgentGuardrails,
  type AgentMemorySettings,
  type CreateAgentInput,
  type EmbeddingProvider,
  type GuardrailCheck,
} from '@crewline/contracts';
import { DEFAULT_LLM_PROVIDER } from '@crewline/contracts/vocabulary';
import { z } from 'zod';

import { DEFAULT_PROVIDER_CATALOGUE, defaultModelFor } from './provider-catalogue';

/* ----------------------------------------------------------------------------------------------
 * Tabs
 * -------------------------------------------------------------------------------------------- */

export const AGENT_FORM_TABS = [
  { value: 'basic', label: 'Basic Info' },
  { value: 'llm', label: 'LLM Settings' },
  { value: 'tools', label: 'Tools' },
  { value: 'advanced', label: 'Advanced' },
] as const;

export type AgentFormTab = (typeof AGENT_FORM_TABS)[number]['value'];

/** The form's fields in the order they appear, tab by tab. */
const AGENT_FORM_FIELDS = [
  'name',
  'role',
  'goal',
  'description',
  'backstory',
  'llmProvider',
  'llmModel',
  'temperature',
  'maxTokens',
  'systemPrompt',
  'status',
  'memory.enabled',
  'memory.connection',
  'memory.model',
  'guardrails',
] as const;

export type AgentFormField = (typeof AGENT_FORM_FIELDS)[number];

const FIELD_TAB: Record<AgentFormField, AgentFormTab> = {
  name: 'basic',
  role: 'basic',
  goal: 'basic',
  description: 'basic',
  backstory: 'basic',
  llmProvider: 'llm',
  llmModel: 'llm',
  temperature: 'llm',
  maxTokens: 'llm',
  systemPrompt: 'advanced',
  status: 'advanced',
  'memory.enabled': 'advanced',
  'memory.connection': 'advanced',
  'memory.model': 'advanced',
  guardrails: 'advanced',
};

export function tabOfField(field: string): AgentFormTab | null {
  return (FIELD_TAB as Record<string, AgentFormTab | undefined>)[field] ?? null;
}

/**
 * The fields holding an error, as paths ('memory.model'): react-hook-form nests the errors of
 * the memory settings under `memory`.
 */
export function errorFieldPaths(errors: Record<string, unknown>): string[] {
  return Object.entries(errors).flatMap(([key, value]) => {
    if (key !== 'memory' || !value || typeof value !== 'object') return [key];
    const nested = Object.keys(value).filter((name) => tabOfField(`memory.${name}`));
    return nested.length > 0 ? nested.map((name) => `memory.${name}`) : ['memory.enabled'];
  });
}

/**
 * The form field a server error's path names ('memory.model' is its own field, 'memory'
 * alone the switch).
 */
export function formFieldOfServerPath(path: string): AgentFormField | null {
  const field = path === 'memory' ? 'memory.enabled' : path.startsWith('guardrails') ? 'guardrails' : path;
  return (AGENT_FORM_FIELDS as readonly string[]).includes(field) ? (field as AgentFormField) : null;
}

/** The first field (in form order) among those with an error, or null. */
export function firstErrorField(errorFields: Iterable<string>): AgentFormField | null {
  const set = new Set(errorFields);
  return AGENT_FORM_FIELDS.find((field) => set.has(field)) ?? null;
}

/** The tab the form switches to after a failed submit: the one holding the first error. */
export function tabForFirstError(errorFields: Iterable<string>): AgentFormTab | null {
  const field = firstErrorField(errorFields);
  return field ? FIELD_TAB[field] : null;
}

/** The tabs holding at least one error (to mark their triggers). */
export function tabsWithErrors(errorFields: Iterable<string>): Set<AgentFormTab> {
  const tabs = new Set<AgentFormTab>();
  for (const field of errorFields) {
    const tab = tabOfField(field);
    if (tab) tabs.add(tab);
  }
  return tabs;
}

/* ----------------------------------------------------------------------------------------------
 * Schema
 * -------------------------------------------------------------------------------------------- */

export const MAX_TOKENS_MIN = 100;
/** The create dialog's bound (the server's too). */
export const CREATE_MAX_TOKENS_MAX = 8000;
/** The edit page's bound. */
export const EDIT_MAX_TOKENS_MAX = 4000;
export const TEMPERATURE_STEP = 5;

const formShape = {
  name: true,
  role: true,
  goal: true,
  description: true,
  backstory: true,
  llmProvider: true,
  llmModel: true,
  temperature: true,
  maxTokens: true,
  systemPrompt: true,
  status: true,
} as const;

/**
 * The Memory section: its fields are kept while it is off (so off and on again restores them); its
 * model is checked only when on, by the same rules as the server's (`agentMemorySettingsSchema`).
 */
const memoryFormSchema = z
  .object({
    enabled: z.boolean(),
    connection: embeddingProviderSchema,
    model: z.string().trim(),
  })
  .superRefine((memory, ctx) => {
    if (!memory.enabled) return;
    for (const issue of agentMemorySettingsSchema.safeParse(memory).error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  });

/** The Guardrails section: the checks on the agent's input, its answer and its tool calls. */
const guardrailsFormSchema = z.object({
  input: guardrailChecksSchema,
  output: guardrailChecksSchema,
  tools: guardrailChecksSchema,
});

/**
 * The create dialog's schema: the form's fields of `createAgentSchema`, the memory settings and the
 * guardrails.
 */
const agentCreateFormSchema = createAgentSchema
  .pick(formShape)
  .extend({ memory: memoryFormSchema, guardrails: guardrailsFormSchema });

function maxTokensRule(max: number) {
  const message = `Max tokens must be between ${MAX_TOKENS_MIN} and ${max}`;
  return z
    .number({ message: 'Max tokens must be a number' })
    .int({ message: 'Max tokens must be a whole number' })
    .min(MAX_TOKENS_MIN, { message })
    .max(max, { message });
}

/** The edit page's schema: the same fields, max tokens at most 4000. */
const agentEditFormSchema = agentCreateFormSchema.extend({
  maxTokens: maxTokensRule(EDIT_MAX_TOKENS_MAX),
});

export function agentFormSchema(mode: 'create' | 'edit') {
  return mode === 'edit' ? agentEditFormSchema : agentCreateFormSchema;
}

/** What the inputs hold (text fields as strings, '' when empty). */
export interface AgentFormValues {
  name: string;
  role: string;
  goal: string;
  description: string;
  backstory: string;
  llmProvider: Agent['llmProvider'];
  llmModel: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
  status: Agent['status'];
  /** Saved as the agent's `memory`. */
  memory: AgentMemoryFormValues;
  /** Saved as the agent's `guardrails`. */
  guardrails: AgentGuardrailsFormValues;
}

/** Each list of checks, empty when the agent has none there. */
interface AgentGuardrailsFormValues {
  input: GuardrailCheck[];
  output: GuardrailCheck[];
  tools: GuardrailCheck[];
}

export interface AgentMemoryFormValues {
  enabled: boolean;
  connection: EmbeddingProvider;
  model: string;
}

/** What the schema hands to submit. */
export type AgentFormOutput = z.output<typeof agentCreateFormSchema>;

/** Memory off, with OpenAI's small embedding model ready for when it is switched on. */
function defaultMemoryFormValues(): AgentMemoryFormValues {
  return { enabled: false, connection: 'openai', model: DEFAULT_EMBEDDING_MODEL };
}

/** An agent's memory settings as the form holds them (the defaults, off, for none or bad ones). */
function memoryFormValuesOf(memory: unknown): AgentMemoryFormValues {
  const parsed = agentMemorySettingsSchema.safeParse(memory);
  if (!parsed.success) return defaultMemoryFormValues();
  const { enabled, connection, model } = parsed.data;
  return { enabled, connection, model };
}

/** An agent's guardrails as the form holds them (none for absent or bad ones). */
function guardrailsFormValuesOf(guardrails: unknown): AgentGuardrailsFormValues {
  const parsed = agentGuardrailsSchema.safeParse(guardrails ?? {}).data;
  return { input: parsed?.input ?? [], output: parsed?.output ?? [], tools: parsed?.tools ?? [] };
}

/**
 * A new agent's values: the data model's defaults (provider openai, 70, 2000, inactive), with OpenAI's
 * built-in default model until the server's catalogue names the connection's (`prefilledModel`).
 */
export function emptyAgentFormValues(): AgentFormValues {
  return {
    name: '',
    role: '',
    goal: '',
    description: '',
    backstory: '',
    llmProvider: DEFAULT_LLM_PROVIDER,
    llmModel: defaultModelFor(DEFAULT_PROVIDER_CATALOGUE, DEFAULT_LLM_PROVIDER),
    temperature: 70,
    maxTokens: 2000,
    systemPrompt: '',
    status: 'inactive',
    memory: defaultMemoryFormValues(),
    guardrails: { input: [], output: [], tools: [] },
  };
}

/** An existing agent's values for the edit form; absent values fall back to the defaults. */
export function agentToFormValues(agent: Agent): AgentFormValues {
  const defaults = emptyAgentFormValues();
  return {
    name: agent.name ?? '',
    role: agent.role ?? '',
    goal: agent.goal ?? '',
    description: agent.description ?? '',
    backstory: agent.backstory ?? '',
    llmProvider: agent.llmProvider ?? defaults.llmProvider,
    llmModel: agent.llmModel ?? defaults.llmModel,
    temperature: typeof agent.temperature === 'number' ? agent.temperature : defaults.temperature,
    maxTokens: typeof agent.maxTokens === 'number' ? agent.maxTokens : defaults.maxTokens,
    systemPrompt: agent.systemPrompt ?? '',
    status: agent.status ?? defaults.status,
    memory: memoryFormValuesOf(agent.memory),
    guardrails: guardrailsFormValuesOf(agent.guardrails),
  };
}

const emptyToNull = (value: string | null | undefined): string | null => {
  const text = value?.trim() ?? '';
  return text ? text : null;
};

/** The memory settings as the agent keeps them (a blank model, possible while off, is the default). */
function memorySettingsFrom(memory: AgentMemoryFormValues): AgentMemorySettings {
  return {
    enabled: memory.enabled,
    connection: memory.connection,
    model: memory.model.trim() || DEFAULT_EMBEDDING_MODEL,
  };
}

function sameMemory(a: AgentMemorySettings, b: AgentMemorySettings): boolean {
  return a.enabled === b.enabled && a.connection === b.connection && a.model === b.model;
}

/** The guardrails as the agent keeps them: only the lists that hold checks (`{}` for none). */
function guardrailsFrom(guardrails: AgentGuardrailsFormValues): AgentGuardrails {
  return Object.fromEntries(
    (['input', 'output', 'tools'] as const)
      .filter((k) => guardrails[k].length > 0)
      .map((k) => [k, guardrails[k]]),
  );
}

/**
 * The request body for POST /api/agents or PUT /api/agents/:id: the form's fields, empty optional
 * texts as null, and the guardrails, always (`{}` removes them). `memory` is sent only when it
 * differs from `savedMemory` (the agent's as saved; off for a new agent). `config` is never sent: it
 * is the API's free-form field, the form leaves it be.
 */
export function formOutputToPayload(values: AgentFormOutput, savedMemory?: AgentMemorySettings | null) {
  const memory = memorySettingsFrom(values.memory);
  const changed = !sameMemory(memory, memorySettingsFrom(memoryFormValuesOf(savedMemory)));
  return {
    name: values.name,
    role: values.role,
    goal: values.goal,
    description: emptyToNull(values.description),
    backstory: emptyToNull(values.backstory),
    llmProvider: values.llmProvider,
    llmModel: values.llmModel,
    temperature: values.temperature,
    maxTokens: values.maxTokens,
    systemPrompt: emptyToNull(values.systemPrompt),
    status: values.status,
    guardrails: guardrailsFrom(values.guardrails),
    ...(changed ? { memory } : {}),
  } satisfies CreateAgentInput;
}
