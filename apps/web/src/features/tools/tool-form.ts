// Pure rules of the Tools page (docs/product-rules.md): which configuration fields each category
// has, the free JSON editor that keeps its last valid value, the create/update body, client-side
// validation with the contract's messages, and the server's field errors mapped onto the form.
import {
  createToolSchema,
  MCP_DEFAULT_TIMEOUT_SECONDS,
  mcpAuthValues,
  movesToolDestination,
  SECRET_CONFIG_KEYS,
  toolCategoryLabels,
  toolCategoryValues,
  type CreateToolInput,
  type McpAuth,
  type Tool,
  type ToolCategory,
  withToolCredentials,
} from '@crewline/contracts';

import { isMaskedSecret } from '@/lib/secret-mask';

export type ToolConfig = Record<string, unknown>;

/* ----------------------------------------------------------------------------------------------
 * Categories and their fields
 * -------------------------------------------------------------------------------------------- */

export const TOOL_CATEGORIES: readonly ToolCategory[] = toolCategoryValues;

/** New tools default to web. */
const DEFAULT_TOOL_CATEGORY: ToolCategory = 'web';

/** The vector dimension shown for a new vector store. */
const DEFAULT_VECTOR_DIMENSIONS = 1536;

export function toolCategoryLabel(category: string | null | undefined): string {
  if (!category) return 'Uncategorized';
  return (
    (toolCategoryLabels as Record<string, string>)[category] ??
    category.charAt(0).toUpperCase() + category.slice(1)
  );
}

/** The text fields of the form that map onto config keys. */
export type ConfigFieldKey =
  | 'baseUrl'
  | 'apiKey'
  | 'url'
  | 'connectionString'
  | 'schema'
  | 'knowledgeBaseId'
  | 'indexName'
  | 'namespace'
  | 'dimensions'
  | 'headerName'
  | 'headerValue'
  | 'timeoutSeconds';

/**
 * How an MCP server connection authenticates (`config.auth`): no credential, one header (a bearer
 * token…), or OAuth (an admin signs in once in the browser; no header is sent).
 */
export type { McpAuth };

/** The header an MCP server's credential goes in unless the user names another. */
const DEFAULT_MCP_HEADER = 'Authorization';

export interface ConfigFieldDef {
  key: ConfigFieldKey;
  label: string;
  /**
   * secret: masked (password input with a show/hide toggle); number: numeric input; knowledge-base:
   * one of the organization's knowledge bases (its id), or none.
   */
  kind: 'text' | 'url' | 'secret' | 'number' | 'knowledge-base';
  placeholder?: string;
  hint?: string;
  /** A Vector Store's Pinecone setting: neither shown nor sent while a knowledge base is chosen. */
  pineconeOnly?: boolean;
  /** An MCP server's header credential: shown and sent only while Authentication is Header. */
  mcpHeaderOnly?: boolean;
}

const baseUrlField: ConfigFieldDef = {
  key: 'baseUrl',
  label: 'Base URL',
  kind: 'url',
  placeholder: 'https://api.example.com/v1',
  hint: 'Requests from agents go to this address.',
};
const apiKeyField: ConfigFieldDef = {
  key: 'apiKey',
  label: 'API Key',
  kind: 'secret',
  placeholder: 'Paste the key',
  hint: 'Stored encrypted. Only the last characters are ever shown again.',
};

/** Category-specific configuration fields. Categories not listed take a JSON object. */
const CATEGORY_FIELDS: Partial<Record<ToolCategory, readonly ConfigFieldDef[]>> = {
  web: [baseUrlField, apiKeyField],
  api: [baseUrlField, apiKeyField],
  vector_store: [
    {
      key: 'knowledgeBaseId',
      label: 'Knowledge Base',
      kind: 'knowledge-base',
      hint: 'Agents search this knowledge base. Choose none for a Pinecone index.',
    },
    { key: 'indexName', label: 'Index Name', kind: 'text', placeholder: 'product-docs', pineconeOnly: true },
    {
      key: 'namespace',
      label: 'Namespace',
      kind: 'text',
      placeholder: 'Optional',
      hint: 'Search this namespace of the index (empty: the default one).',
      pineconeOnly: true,
    },
    {
      key: 'dimensions',
      label: 'Dimensions',
      kind: 'number',
      placeholder: String(DEFAULT_VECTOR_DIMENSIONS),
      hint: 'Length of the embedding vectors, e.g. 1536 for text-embedding-3-small.',
      pineconeOnly: true,
    },
    { ...apiKeyField, pineconeOnly: true },
  ],
  database: [
    {
      key: 'connectionString',
      label: 'Connection String',
      kind: 'secret',
      placeholder: 'postgres://user:password@host:5432/database',
      hint: 'PostgreSQL. Stored encrypted and never shown again in full.',
    },
    { key: 'schema', label: 'Schema', kind: 'text', placeholder: 'public' },
  ],
  // The credential's two fields go in the request's `credentials`, not its config (buildToolPayload).
  mcp: [
    {
      key: 'url',
      label: 'Server URL',
      kind: 'url',
      placeholder: 'https://mcp.example.com/mcp',
      hint: 'The server’s Streamable HTTP endpoint.',
    },
    {
      key: 'headerName',
      label: 'Header name',
      kind: 'text',
      placeholder: DEFAULT_MCP_HEADER,
      mcpHeaderOnly: true,
    },
    {
      key: 'headerValue',
      label: 'Header value',
      kind: 'secret',
      placeholder: 'Bearer …',
      hint: 'Stored encrypted. Only the last characters are ever shown again.',
      mcpHeaderOnly: true,
    },
    {
      key: 'timeoutSeconds',
      label: 'Timeout (seconds)',
      kind: 'number',
      placeholder: String(MCP_DEFAULT_TIMEOUT_SECONDS),
      hint: 'How long one call of a server tool may take.',
    },
  ],
  custom: [
    {
      key: 'url',
      label: 'Endpoint URL',
      kind: 'url',
      placeholder: 'https://example.com/hooks/agent',
      hint: 'The address your custom tool calls.',
    },
  ],
};

export function configFieldsOf(category: ToolCategory): readonly ConfigFieldDef[] {
  return CATEGORY_FIELDS[category] ?? [];
}

/**
 * Whether a field is set aside: Pinecone's settings while the Vector Store names a knowledge base, an
 * MCP server's header while its Authentication is None or OAuth.
 */
const setAside = (field: ConfigFieldDef, fields: Record<ConfigFieldKey, string>, mcpAuth: McpAuth) =>
  (!!field.pineconeOnly && fields.knowledgeBaseId.trim() !== '') ||
  (!!field.mcpHeaderOnly && mcpAuth !== 'header');

/** The configuration fields the form shows for these values. */
export function visibleConfigFields(
  category: ToolCategory,
  fields: Record<ConfigFieldKey, string>,
  mcpAuth: McpAuth = 'none',
): readonly ConfigFieldDef[] {
  return configFieldsOf(category).filter((field) => !setAside(field, fields, mcpAuth));
}

/**
 * Whether the category edits (part of) its configuration as free JSON: every category without
 * fields of its own, and custom, whose endpoint URL comes with any extra settings.
 */
export function usesJsonEditor(category: ToolCategory): boolean {
  return !CATEGORY_FIELDS[category] || category === 'custom';
}

const SECRET_KEYS = new Set(['apiKey', 'connectionString', 'password', 'token', 'secret']);

/* ----------------------------------------------------------------------------------------------
 * JSON editor: invalid text is ignored, the last valid object is kept
 * -------------------------------------------------------------------------------------------- */

export interface JsonEditorState {
  /** What the user typed. */
  text: string;
  /** The last text that parsed to a JSON object. */
  value: ToolConfig;
  /** Whether `text` itself is valid. */
  valid: boolean;
}

export function jsonEditorFromValue(value: ToolConfig): JsonEditorState {
  const text = Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : '{}';
  return { text, value, valid: true };
}

/** Only a JSON object is accepted; an empty text is an empty object. Anything else keeps the last value. */
export function applyJsonText(state: JsonEditorState, text: string): JsonEditorState {
  if (text.trim() === '') return { text, value: {}, valid: true };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return { text, value: parsed as ToolConfig, valid: true };
    }
  } catch {
    // not JSON (yet): ignored
  }
  return { text, value: state.value, valid: false };
}

/* ----------------------------------------------------------------------------------------------
 * Form values
 * -------------------------------------------------------------------------------------------- */

export interface ToolFormValues {
  name: string;
  description: string;
  category: ToolCategory;
  provider: string;
  isActive: boolean;
  /** All category fields as typed text; only the chosen category's are sent. */
  fields: Record<ConfigFieldKey, string>;
  /** An MCP server's Authentication choice. */
  mcpAuth: McpAuth;
  json: JsonEditorState;
}

const emptyFields = (): Record<ConfigFieldKey, string> => ({
  baseUrl: '',
  apiKey: '',
  url: '',
  connectionString: '',
  schema: '',
  knowledgeBaseId: '',
  indexName: '',
  namespace: '',
  dimensions: String(DEFAULT_VECTOR_DIMENSIONS),
  headerName: DEFAULT_MCP_HEADER,
  headerValue: '',
  timeoutSeconds: String(MCP_DEFAULT_TIMEOUT_SECONDS),
});

/** A new tool's form, of the given category (Settings' Add MCP server opens it as `mcp`). */
export function emptyToolForm(category: ToolCategory = DEFAULT_TOOL_CATEGORY): ToolFormValues {
  return {
    name: '',
    description: '',
    category,
    provider: '',
    isActive: true,
    fields: emptyFields(),
    mcpAuth: 'none',
    json: jsonEditorFromValue({}),
  };
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function isMcpAuth(value: unknown): value is McpAuth {
  return typeof value === 'string' && (mcpAuthValues as readonly string[]).includes(value);
}

function isToolCategory(value: unknown): value is ToolCategory {
  return typeof value === 'string' && (toolCategoryValues as readonly string[]).includes(value);
}

/** The edit dialog's starting values: the tool as stored (secrets stay masked). */
export function toolFormFromTool(
  tool: Pick<Tool, 'name' | 'description' | 'category' | 'provider' | 'config' | 'isActive'>,
): ToolFormValues {
  const config: ToolConfig = tool.config && typeof tool.config === 'object' ? tool.config : {};
  const category = isToolCategory(tool.category) ? tool.category : DEFAULT_TOOL_CATEGORY;
  const fields = emptyFields();
  const own = new Set(configFieldsOf(category).map((field) => field.key));
  for (const key of own) fields[key] = asText(config[key]);
  if (category !== 'vector_store') fields.dimensions = String(DEFAULT_VECTOR_DIMENSIONS);
  // A stored header (its value masked) is kept unless replaced; without one, the defaults show. A
  // connection saved before `auth` existed authenticates with its header when it has one.
  const mcpAuth: McpAuth =
    category !== 'mcp'
      ? 'none'
      : isMcpAuth(config.auth)
        ? config.auth
        : fields.headerName || fields.headerValue
          ? 'header'
          : 'none';
  if (!fields.headerName) fields.headerName = DEFAULT_MCP_HEADER;
  if (!fields.timeoutSeconds) fields.timeoutSeconds = String(MCP_DEFAULT_TIMEOUT_SECONDS);
  const extra = usesJsonEditor(category)
    ? Object.fromEntries(Object.entries(config).filter(([key]) => !own.has(key as ConfigFieldKey)))
    : {};
  return {
    name: tool.name ?? '',
    description: tool.description ?? '',
    category,
    provider: tool.provider ?? '',
    isActive: tool.isActive !== false,
    fields,
    mcpAuth,
    json: jsonEditorFromValue(extra),
  };
}

/* ----------------------------------------------------------------------------------------------
 * Request body
 * -------------------------------------------------------------------------------------------- */

/**
 * The configuration of the chosen category only. Empty fields are left out, dimensions is a
 * number, a masked secret goes back unchanged (the server keeps the stored value) and a secret the
 * user emptied is sent as '' (the server clears it).
 */
function buildToolConfig(values: ToolFormValues, originalConfig?: ToolConfig | null): ToolConfig {
  // A category with fields keeps the settings it has beyond them (set through the API, e.g. a
  // Pinecone tool's embeddingModel): saving the form must not drop them.
  const config: ToolConfig = usesJsonEditor(values.category)
    ? { ...values.json.value }
    : { ...originalConfig };
  for (const field of configFieldsOf(values.category)) {
    if (setAside(field, values.fields, values.mcpAuth)) {
      delete config[field.key];
      // Authentication None or OAuth after a header: the stored value is cleared, said in so many words.
      if (field.mcpHeaderOnly && field.kind === 'secret' && originalConfig?.[field.key])
        config[field.key] = '';
      continue;
    }
    const raw = values.fields[field.key];
    const text = field.kind === 'secret' ? raw : raw.trim();
    if (field.kind === 'number') {
      if (text !== '') config[field.key] = Number(text);
      else delete config[field.key];
      continue;
    }
    if (text !== '') {
      config[field.key] = text;
    } else if (
      field.kind === 'secret' &&
      typeof originalConfig?.[field.key] === 'string' &&
      originalConfig[field.key] !== ''
    ) {
      config[field.key] = '';
    } else {
      delete config[field.key];
    }
  }
  if (values.category === 'mcp') config.auth = values.mcpAuth;
  return config;
}

/** The create/update body, with every field present. */
export type ToolPayload = CreateToolInput & { config: ToolConfig; category: ToolCategory; isActive: boolean };

/** POST /api/tools and PUT /api/tools/:id send the same body. */
export function buildToolPayload(
  values: ToolFormValues,
  original?: Pick<Tool, 'config'> | null,
): ToolPayload {
  const description = values.description.trim();
  const provider = values.provider.trim();
  const payload: ToolPayload = {
    name: values.name.trim(),
    description: description === '' ? null : description,
    category: values.category,
    provider: provider === '' ? null : provider,
    config: buildToolConfig(values, original?.config),
    isActive: values.isActive,
  };
  return values.category === 'mcp' ? withMcpCredentials(payload) : payload;
}

/**
 * An MCP server's header as the API takes it: `credentials: { headerName, headerValue }` beside its
 * config (`{ url, auth, timeoutSeconds, enabledTools }`). A masked value goes back as is (kept);
 * Authentication None or OAuth after a header sends an empty value (cleared).
 */
function withMcpCredentials(payload: ToolPayload): ToolPayload {
  const { headerName, headerValue, ...config } = payload.config;
  const credentials: Record<string, string> = {};
  if (typeof headerName === 'string') credentials.headerName = headerName;
  if (typeof headerValue === 'string') credentials.headerValue = headerValue;
  return Object.keys(credentials).length > 0 ? { ...payload, config, credentials } : { ...payload, config };
}

/* ----------------------------------------------------------------------------------------------
 * Errors: keyed by the request path ('name', 'config.baseUrl', …)
 * -------------------------------------------------------------------------------------------- */

export type FieldErrors = Record<string, string>;

/** The contract's own messages ('Tool Name is required', …), before anything is sent. */
export function validateToolPayload(payload: CreateToolInput): FieldErrors {
  const result = createToolSchema.safeParse(payload);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.') || 'form';
    errors[path] ??= issue.message;
  }
  return errors;
}

/** An MCP server's header needs its value (a stored one shows masked and counts). */
export function mcpHeaderErrors(
  values: Pick<ToolFormValues, 'category' | 'mcpAuth' | 'fields'>,
): FieldErrors {
  if (values.category !== 'mcp' || values.mcpAuth !== 'header') return {};
  return values.fields.headerValue.trim() === ''
    ? { 'config.headerValue': 'Enter the header value, e.g. Bearer and your token' }
    : {};
}

export const KEY_AGAIN_MESSAGE =
  "Enter the key again, or clear it: a stored key is dropped when the tool's address or category changes.";

/**
 * A stored credential belongs to the address it was set for (docs/security.md, Credentials): when the
 * edit moves the tool elsewhere, the server drops every key sent back as its mask. The form says so
 * before sending, on each such key, so the user types it again (or clears it) knowingly.
 */
export function keyAgainErrors(
  payload: Pick<ToolPayload, 'category' | 'config' | 'credentials'>,
  original?: Pick<Tool, 'category' | 'config'> | null,
): FieldErrors {
  // An MCP server's credential travels beside the config; the server puts it there before comparing.
  const sent = { category: payload.category, config: withToolCredentials(payload).config ?? {} };
  if (!original || !movesToolDestination({ ...original, config: original.config ?? {} }, sent)) return {};
  const errors: FieldErrors = {};
  for (const key of SECRET_CONFIG_KEYS) {
    if (isMaskedSecret(sent.config[key])) errors[`config.${key}`] = KEY_AGAIN_MESSAGE;
  }
  return errors;
}

/** Where an error path shows in the form for this category: its field, the JSON editor, or the form. */
export function errorTarget(path: string, category: ToolCategory): string {
  if (['name', 'description', 'category', 'provider', 'isActive'].includes(path)) return path;
  // An MCP server's credential is sent as `credentials.*` and shown among the config fields.
  if (path.startsWith('credentials.'))
    return errorTarget(`config.${path.slice('credentials.'.length)}`, category);
  if (path === 'config' || path.startsWith('config.')) {
    const key = path.split('.')[1];
    if (key && configFieldsOf(category).some((field) => field.key === key)) return `config.${key}`;
    return usesJsonEditor(category) ? 'config' : 'form';
  }
  return 'form';
}

/** The server's 400 `errors: [{ path, message }]`, placed on the form's fields. */
export function mapServerErrors(
  errors: readonly { path: string; message: string }[],
  category: ToolCategory,
): FieldErrors {
  const mapped: FieldErrors = {};
  for (const error of errors) {
    const target = errorTarget(error.path, category);
    mapped[target] ??= error.message;
  }
  return mapped;
}

/* ----------------------------------------------------------------------------------------------
 * Card summary
 * -------------------------------------------------------------------------------------------- */

export interface SummaryItem {
  label: string;
  value: string;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** A few facts of the configuration for the tool card; secrets only say whether they are set. */
export function toolConfigSummary(tool: Pick<Tool, 'category' | 'config'>): SummaryItem[] {
  const config: ToolConfig = tool.config && typeof tool.config === 'object' ? tool.config : {};
  const items: SummaryItem[] = [];
  const category = isToolCategory(tool.category) ? tool.category : DEFAULT_TOOL_CATEGORY;
  const fields = CATEGORY_FIELDS[category];
  if (fields) {
    for (const field of fields) {
      const value = config[field.key];
      if (value === undefined || value === null || value === '') continue;
      if (field.kind === 'secret') items.push({ label: field.label, value: 'Set' });
      else if (field.kind === 'knowledge-base') items.push({ label: field.label, value: 'Built-in store' });
      else if (field.kind === 'url') items.push({ label: field.label, value: hostOf(String(value)) });
      else items.push({ label: field.label, value: String(value) });
    }
  }
  const own = new Set(fields?.map((field) => field.key as string) ?? []);
  const extra = Object.keys(config).filter((key) => !own.has(key));
  if (usesJsonEditor(category) && extra.length > 0) {
    const secrets = extra.filter((key) => SECRET_KEYS.has(key)).length;
    items.push({
      label: 'Settings',
      value: `${extra.length} ${extra.length === 1 ? 'key' : 'keys'}${secrets > 0 ? ` (${secrets} secret)` : ''}`,
    });
  }
  return items;
}

/** The knowledge base a vector-store tool searches on the organization's own store, if any. */
export function knowledgeBaseIdOf(tool: Pick<Tool, 'category' | 'config'>): string | null {
  const id = tool.category === 'vector_store' ? tool.config?.knowledgeBaseId : undefined;
  return typeof id === 'string' && id ? id : null;
}

/**
 * The line under a tool card's name: for a vector store on a knowledge base, that base by name
 * (`baseName` finds it among the organization's; none while they load); else the provider and
 * category.
 */
export function toolSubtitle(
  tool: Pick<Tool, 'category' | 'config' | 'provider'>,
  baseName?: (id: string) => string | undefined,
): string {
  const baseId = knowledgeBaseIdOf(tool);
  if (baseId && !baseName) return 'Knowledge base';
  if (baseId) return `Knowledge base: ${baseName?.(baseId) ?? 'not found'}`;
  return `${tool.provider || 'No provider'} · ${tool.category}`;
}
