// Pure rules of the Tools tab of Profile & Settings (docs/product-rules.md): which tool
// configurations are shown and with which fields, how a configuration reads in read-only mode, the
// edit/cancel state of a card, and the body of its Save.
import { connectionFields, type ConnectionId } from '@crewline/contracts';
import {
  builtInModels,
  llmProviderNames,
  llmProviderValues,
  type LlmProvider,
} from '@crewline/contracts/vocabulary';

export type ConnectionConfig = Record<string, unknown>;

export interface ConnectionFieldDef {
  key: string;
  label: string;
  /**
   * model: the provider's models (a select, or free text with suggestions for local and custom
   * servers); secret: masked with a show/hide toggle; select: fixed options.
   */
  kind: 'text' | 'url' | 'secret' | 'model' | 'number' | 'email' | 'select';
  placeholder?: string;
  hint?: string;
  /** Shown under "Advanced settings" in edit mode (opened when it holds a value). */
  advanced?: boolean;
  options?: readonly { value: string; label: string }[];
  /** The value used when the configuration has none (shown in read-only mode as the default). */
  defaultValue?: string;
}

export interface ConnectionDef {
  id: ConnectionId;
  title: string;
  description: string;
  /** The LLM provider of /api/llm/providers this connection backs. */
  provider?: LlmProvider;
  /** Whether the default model is typed (with suggestions) instead of picked. */
  freeTextModel?: boolean;
  fields: readonly ConnectionFieldDef[];
}

const modelField: ConnectionFieldDef = { key: 'defaultModel', label: 'Default Model', kind: 'model' };
const apiKeyField: ConnectionFieldDef = {
  key: 'apiKey',
  label: 'API Key',
  kind: 'secret',
  hint: 'Stored encrypted. Only the last characters are shown again.',
};

/** SSL modes of the database connection; require is the default. */
const SSL_MODES = [
  { value: 'disable', label: 'Disable' },
  { value: 'require', label: 'Require' },
  { value: 'prefer', label: 'Prefer' },
] as const;
const DEFAULT_SSL_MODE = 'require';

/** The LLM Connections section, in screen order. */
export const LLM_CONNECTIONS: readonly ConnectionDef[] = [
  {
    id: 'openai_config',
    title: llmProviderNames.openai,
    description: 'GPT models through the OpenAI API, or any gateway that mirrors it',
    provider: 'openai',
    fields: [
      modelField,
      {
        key: 'baseUrl',
        label: 'Base URL',
        kind: 'url',
        placeholder: 'https://api.openai.com/v1',
        defaultValue: 'https://api.openai.com/v1',
        hint: 'Leave empty for the official API.',
      },
      { ...apiKeyField, placeholder: 'sk-…' },
    ],
  },
  {
    id: 'anthropic_config',
    title: llmProviderNames.anthropic,
    description: 'Claude models through the Anthropic API',
    provider: 'anthropic',
    fields: [
      modelField,
      { ...apiKeyField, placeholder: 'sk-ant-…' },
      {
        key: 'baseUrl',
        label: 'Base URL',
        kind: 'url',
        placeholder: 'https://api.anthropic.com/v1',
        defaultValue: 'https://api.anthropic.com/v1',
        hint: 'Only for a proxy in front of the Anthropic API. Leave empty for the official API.',
        advanced: true,
      },
    ],
  },
  {
    id: 'local_config',
    title: llmProviderNames.local,
    description: 'Models served by Ollama or another OpenAI-compatible server you run',
    provider: 'local',
    freeTextModel: true,
    fields: [
      {
        key: 'baseUrl',
        label: 'Base URL',
        kind: 'url',
        placeholder: 'http://127.0.0.1:11434/v1',
        defaultValue: 'http://127.0.0.1:11434/v1',
        hint: 'The address must be reachable from the Crewline server.',
      },
      { ...modelField, placeholder: 'llama3.1:8b' },
    ],
  },
  {
    id: 'custom_config',
    title: llmProviderNames.custom,
    description: 'Any server that speaks the OpenAI Chat Completions API',
    provider: 'custom',
    freeTextModel: true,
    fields: [
      {
        key: 'baseUrl',
        label: 'Base URL',
        kind: 'url',
        placeholder: 'https://llm.example.com/v1',
        hint: 'Required for this provider.',
      },
      { ...apiKeyField, hint: 'Optional. Sent as a Bearer token.' },
      { ...modelField, placeholder: 'my-model' },
    ],
  },
];

/** Organization-wide connections outside the LLM section (collapsed under "Other connections"). */
export const OTHER_CONNECTIONS: readonly ConnectionDef[] = [
  {
    id: 'database_config',
    title: 'PostgreSQL Database',
    description: 'A database your workflows can read from and write to',
    fields: [
      { key: 'host', label: 'Host', kind: 'text', placeholder: 'db.example.com' },
      { key: 'port', label: 'Port', kind: 'number', placeholder: '5432' },
      { key: 'database', label: 'Database', kind: 'text', placeholder: 'analytics' },
      { key: 'username', label: 'Username', kind: 'text', placeholder: 'crewline' },
      { key: 'password', label: 'Password', kind: 'secret', hint: 'Stored encrypted.' },
      {
        key: 'ssl',
        label: 'SSL Mode',
        kind: 'select',
        options: SSL_MODES,
        defaultValue: DEFAULT_SSL_MODE,
      },
    ],
  },
  {
    id: 'sendgrid_config',
    title: 'SendGrid',
    description: 'Sends the email of workflow outputs and notifications',
    fields: [
      { key: 'fromEmail', label: 'From Email', kind: 'email', placeholder: 'agents@yourcompany.com' },
      { key: 'fromName', label: 'From Name', kind: 'text', placeholder: 'Crewline Agents' },
      { ...apiKeyField, placeholder: 'SG.…' },
    ],
  },
];

/* ----------------------------------------------------------------------------------------------
 * Read-only mode
 * -------------------------------------------------------------------------------------------- */

export interface DisplayValue {
  text: string;
  /** Not set by the organization: a default or nothing. */
  muted: boolean;
  mono: boolean;
}

/** How a field reads in read-only mode: secrets stay masked, empty values say so. */
export function displayValue(field: ConnectionFieldDef, config: ConnectionConfig): DisplayValue {
  const raw = config[field.key];
  const text = raw === undefined || raw === null ? '' : String(raw).trim();
  if (text === '') {
    if (field.defaultValue) {
      const option = field.options?.find((o) => o.value === field.defaultValue);
      return { text: `Default (${option?.label ?? field.defaultValue})`, muted: true, mono: false };
    }
    return { text: 'Not set', muted: true, mono: false };
  }
  if (field.kind === 'select') {
    return { text: field.options?.find((o) => o.value === text)?.label ?? text, muted: false, mono: false };
  }
  const mono = field.kind === 'secret' || field.kind === 'url' || field.kind === 'model';
  return { text, muted: false, mono };
}

/* ----------------------------------------------------------------------------------------------
 * Edit mode
 * -------------------------------------------------------------------------------------------- */

export type Draft = Record<string, string>;

export type CardState = { mode: 'view' } | { mode: 'edit'; draft: Draft; errors: Record<string, string> };

export const viewState: CardState = { mode: 'view' };

/** Edit starts from the stored values (secrets as their mask, which keeps them when saved unchanged). */
export function startEditing(def: ConnectionDef, config: ConnectionConfig): CardState {
  const draft: Draft = {};
  for (const field of def.fields) {
    const raw = config[field.key];
    draft[field.key] =
      typeof raw === 'string' ? raw : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : '';
    if (field.kind === 'select' && draft[field.key] === '' && field.defaultValue) {
      draft[field.key] = field.defaultValue;
    }
  }
  return { mode: 'edit', draft, errors: {} };
}

/** Cancel discards the draft. */
export function cancelEditing(): CardState {
  return viewState;
}

export function updateDraft(state: CardState, key: string, value: string): CardState {
  if (state.mode !== 'edit') return state;
  const errors = { ...state.errors };
  delete errors[key];
  return { mode: 'edit', draft: { ...state.draft, [key]: value }, errors };
}

export function withErrors(state: CardState, errors: Record<string, string>): CardState {
  return state.mode === 'edit' ? { ...state, errors } : state;
}

/**
 * The `config` of Save: the stored configuration (keys this screen does not edit are kept) with the
 * draft over it. Text is trimmed, the port is a number, a masked secret goes back unchanged (the
 * server keeps it) and an emptied one goes as '' (the server clears it).
 */
export function buildConnectionConfig(
  def: ConnectionDef,
  draft: Draft,
  original: ConnectionConfig = {},
): ConnectionConfig {
  const config: ConnectionConfig = { ...original };
  for (const field of def.fields) {
    const raw = draft[field.key] ?? '';
    if (field.kind === 'number') {
      const text = raw.trim();
      if (text === '') delete config[field.key];
      else config[field.key] = Number(text);
    } else {
      config[field.key] = raw.trim();
    }
  }
  return config;
}

/** Client-side check with the contract's messages, keyed by field. */
export function validateConnectionConfig(id: ConnectionId, config: ConnectionConfig): Record<string, string> {
  const result = connectionFields[id].safeParse(config);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??=
      key === 'port' && issue.code !== 'invalid_type' ? 'Enter a port from 1 to 65535' : issue.message;
  }
  return errors;
}

/** The server's 400 `errors` (paths 'config.baseUrl' or 'baseUrl') keyed by field. */
export function fieldErrorsFromServer(
  def: ConnectionDef,
  errors: readonly { path: string; message: string }[],
): Record<string, string> {
  const keys = new Set(def.fields.map((field) => field.key));
  const mapped: Record<string, string> = {};
  for (const error of errors) {
    const key = error.path.replace(/^config\./, '');
    mapped[keys.has(key) ? key : 'form'] ??= error.message;
  }
  return mapped;
}

/* ----------------------------------------------------------------------------------------------
 * Provider catalogue (GET /api/llm/providers) for the Default Model choices
 * -------------------------------------------------------------------------------------------- */

export type ProviderModels = Record<string, string[]>;

/** Shown while the catalogue loads or when it fails (the server's own built-in lists). */
export const FALLBACK_MODELS: ProviderModels = Object.fromEntries(
  llmProviderValues.map((provider) => [provider, [...builtInModels[provider]]]),
);

export function normalizeProviderModels(raw: unknown): ProviderModels {
  const result: ProviderModels = { ...FALLBACK_MODELS };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return result;
  for (const [provider, entry] of Object.entries(raw as Record<string, unknown>)) {
    const models = (entry as { models?: unknown } | null)?.models;
    if (!Array.isArray(models)) continue;
    const ids = models
      .map((m) => (typeof m === 'string' ? m : (m as { id?: unknown } | null)?.id))
      .filter((m): m is string => typeof m === 'string' && m.trim() !== '');
    if (ids.length > 0) result[provider] = [...new Set(ids)];
  }
  return result;
}

/** The choices of the Default Model select; the stored value stays listed even if the catalogue lacks it. */
export function modelChoices(
  models: ProviderModels,
  provider: string | undefined,
  current: string,
): string[] {
  const list = (provider && models[provider]) || [];
  const value = current.trim();
  return value && !list.includes(value) ? [value, ...list] : [...list];
}
