// The builder's MCP section as data (docs/product-rules.md, MCP): the form's values as typed, their
// defaults from the workflow, the body of PUT /api/workflows/:id/publishing, and where the server's
// refusal goes. The checks are the contract's (mcpPublishingSchema), so the form refuses what the
// server would, with the same words.
import {
  MCP_DEFAULT_TIMEOUT_SECONDS,
  MCP_MAX_TIMEOUT_SECONDS,
  mcpPublishingSchema,
  type McpPublishing,
  type UpdateWorkflowPublishing,
} from '@crewline/contracts';

/** The section's fields as typed (the schema as JSON text, the time limit as text). */
export interface McpDraft {
  enabled: boolean;
  toolName: string;
  description: string;
  inputSchema: string;
  timeoutSeconds: string;
}

const MCP_FIELDS = ['toolName', 'description', 'inputSchema', 'timeoutSeconds'] as const;
export type McpField = (typeof MCP_FIELDS)[number];
export type McpFieldErrors = Partial<Record<McpField, string>>;

/** A published tool's name as clients accept it: at most this many characters. */
const MCP_TOOL_NAME_MAX = 64;

/** The input schema of a workflow whose Start node declares none: one text, the run's `input`. */
export const DEFAULT_MCP_INPUT_SCHEMA = {
  type: 'object',
  properties: { input: { type: 'string' } },
} as const;

export const MCP_INVALID_JSON = 'Input schema: not valid JSON';
export const MCP_BAD_TIMEOUT = `Time limit: a whole number of seconds from 1 to ${MCP_MAX_TIMEOUT_SECONDS}`;

/** `Weekly Report (EU)` → `weekly_report_eu`: lower case, `_` for anything else, at most 64 characters. */
export function defaultToolName(workflowName: string): string {
  const name = workflowName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+/, '')
    .slice(0, MCP_TOOL_NAME_MAX)
    .replace(/_+$/, '');
  return name || 'workflow';
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The Start node's input schema when it declares an object one (`data.inputSchema`), else the default. */
function defaultInputSchema(startData: Record<string, unknown> | undefined): Record<string, unknown> {
  const declared = startData?.inputSchema;
  return isRecord(declared) && declared.type === 'object' ? declared : DEFAULT_MCP_INPUT_SCHEMA;
}

/** What the workflow gives the form when it is not published yet. */
export interface McpDefaults {
  name: string;
  description: string;
  startData?: Record<string, unknown>;
}

/** The form for the saved publishing, or (not published) switched off with defaults from the workflow. */
export function mcpDraftOf(saved: McpPublishing | null, defaults: McpDefaults): McpDraft {
  if (saved) {
    return {
      enabled: saved.enabled,
      toolName: saved.toolName,
      description: saved.description,
      inputSchema: JSON.stringify(saved.inputSchema, null, 2),
      timeoutSeconds: String(saved.timeoutSeconds),
    };
  }
  return {
    enabled: false,
    toolName: defaultToolName(defaults.name),
    description: defaults.description.trim(),
    inputSchema: JSON.stringify(defaultInputSchema(defaults.startData), null, 2),
    timeoutSeconds: String(MCP_DEFAULT_TIMEOUT_SECONDS),
  };
}

/**
 * The body to send, or what is wrong under each field. Switched off is `{ mcp: null }`: the workflow
 * is no longer offered, and its tool name is free for another.
 */
export function mcpBodyOf(
  draft: McpDraft,
): { ok: true; body: UpdateWorkflowPublishing } | { ok: false; errors: McpFieldErrors } {
  if (!draft.enabled) return { ok: true, body: { mcp: null } };
  const errors: McpFieldErrors = {};
  let inputSchema: unknown;
  try {
    inputSchema = JSON.parse(draft.inputSchema);
  } catch {
    errors.inputSchema = MCP_INVALID_JSON;
  }
  const timeout = draft.timeoutSeconds.trim();
  const timeoutSeconds = /^\d+$/.test(timeout) ? Number(timeout) : NaN;
  if (!(timeoutSeconds >= 1 && timeoutSeconds <= MCP_MAX_TIMEOUT_SECONDS))
    errors.timeoutSeconds = MCP_BAD_TIMEOUT;
  const parsed = mcpPublishingSchema.safeParse({
    enabled: true,
    toolName: draft.toolName,
    description: draft.description,
    inputSchema: errors.inputSchema ? {} : inputSchema,
    timeoutSeconds: errors.timeoutSeconds ? MCP_DEFAULT_TIMEOUT_SECONDS : timeoutSeconds,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as McpField;
      if (MCP_FIELDS.includes(field) && !errors[field]) errors[field] = issue.message;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: { mcp: parsed.data } };
}

/** The field a message names in words ('Input schema: …'), for a 400 that gives no field path. */
const NAMED: readonly [RegExp, McpField][] = [
  [/tool name/i, 'toolName'],
  [/description/i, 'description'],
  [/input schema/i, 'inputSchema'],
  [/time limit|timeout/i, 'timeoutSeconds'],
];

/**
 * Where the server's refusal goes: a 400's field errors (`mcp.toolName`) and a message naming a field
 * under that field, a 409 (the tool name is taken) under Tool name; anything else (the workflow is
 * not active, a lost connection) above the Save button.
 */
export function placeMcpError(error: {
  status: number | null;
  message: string | null;
  errors: { path: string; message: string }[];
}): { fields: McpFieldErrors; banner: string | null } {
  const fields: McpFieldErrors = {};
  for (const issue of error.errors) {
    const field = issue.path.replace(/^mcp\./, '').split('.')[0] as McpField;
    if (MCP_FIELDS.includes(field) && !fields[field]) fields[field] = issue.message;
  }
  if (Object.keys(fields).length === 0 && error.message) {
    if (error.status === 409) fields.toolName = error.message;
    else if (error.status === 400) {
      const named = NAMED.find(([pattern]) => pattern.test(error.message!));
      if (named) fields[named[1]] = error.message;
    }
  }
  const placed = Object.keys(fields).length > 0;
  return { fields, banner: placed ? null : error.message };
}
