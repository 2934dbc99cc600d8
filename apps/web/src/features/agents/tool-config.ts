// Pure rules of the Connected tools panel.
import type { ToolApprovalPolicy } from '@crewline/contracts';
import { toolCategoryLabels } from '@crewline/contracts/vocabulary';

import type { AgentToolLink, Tool } from './types';

export type ToolConfig = Record<string, unknown>;

/**
 * Reads the Connect Tool dialog's JSON text. Only a text that parses to a JSON object is accepted;
 * anything else (invalid JSON, an array, a number) is ignored: the caller keeps its last valid value.
 * An empty text means an empty configuration.
 */
export function parseToolConfig(text: string): { ok: true; value: ToolConfig } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return { ok: true, value: parsed as ToolConfig };
    }
  } catch {
    // not JSON: ignored
  }
  return { ok: false };
}

/** Tools that can still be connected: those of the catalogue not linked to the agent yet. */
export function availableTools(tools: readonly Tool[], links: readonly AgentToolLink[]): Tool[] {
  const linked = new Set(links.map((link) => link.toolId));
  return tools.filter((tool) => !linked.has(tool.id));
}

const CONFIG_PREVIEW_LIMIT = 240;

/**
 * The configuration preview of a link: pretty JSON, cut at `limit` characters (with '…'), or null
 * when the configuration is empty. `isEnabled`, which the switch mirrors into the config, is left
 * out: the badge already says it.
 */
export function configPreview(config: unknown, limit = CONFIG_PREVIEW_LIMIT): string | null {
  if (!config || typeof config !== 'object' || Array.isArray(config)) return null;
  const entries = Object.entries(config as ToolConfig).filter(([key]) => key !== 'isEnabled');
  if (entries.length === 0) return null;
  const text = JSON.stringify(Object.fromEntries(entries), null, 2);
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** The body of the enable switch's PUT: the link's config with isEnabled, and isEnabled itself. */
export function toggleToolBody(link: Pick<AgentToolLink, 'config'>, isEnabled: boolean) {
  return { config: { ...(link.config ?? {}), isEnabled }, isEnabled };
}

const TOOL_CATEGORY_LABELS: Record<string, string> = toolCategoryLabels;

export function toolCategoryLabel(category: string | null | undefined): string {
  if (!category) return 'Uncategorized';
  return TOOL_CATEGORY_LABELS[category] ?? category.charAt(0).toUpperCase() + category.slice(1);
}

/** The choices of a link's "Ask before running" select, in the order shown. */
export const TOOL_APPROVAL_OPTIONS: readonly {
  value: ToolApprovalPolicy;
  label: string;
  description?: string;
}[] = [
  { value: 'never', label: 'Never' },
  {
    value: 'writes',
    label: 'Writes',
    description: 'Calls that change something: HTTP other than GET/HEAD, email sends, file writes',
  },
  { value: 'always', label: 'Always' },
];

/** The Writes choice's help on an MCP server's link: its tools' own hints decide (docs/product-rules.md). */
const MCP_WRITES_DESCRIPTION = 'Ask first: tools not marked read-only';

/** The approval choices of a link, with the Writes help its tool's category gives it. */
export function approvalOptionsFor(category: string | null | undefined): typeof TOOL_APPROVAL_OPTIONS {
  if (category !== 'mcp') return TOOL_APPROVAL_OPTIONS;
  return TOOL_APPROVAL_OPTIONS.map((option) =>
    option.value === 'writes' ? { ...option, description: MCP_WRITES_DESCRIPTION } : option,
  );
}

/** The server tools an MCP link names (`config.tools`); undefined when it names none (all of them). */
function linkMcpTools(config: Record<string, unknown> | null | undefined): string[] | undefined {
  const tools = config?.tools;
  return Array.isArray(tools) ? tools.filter((name): name is string => typeof name === 'string') : undefined;
}

/** Whether the agent gets this server tool (every one its connection allows when the link names none). */
export function isLinkMcpToolOn(config: Record<string, unknown> | null | undefined, name: string): boolean {
  const tools = linkMcpTools(config);
  return !tools || tools.includes(name);
}

/**
 * The body of an MCP link's per-tool switch: its config with `tools`, the allowed tools left on in
 * the server's order, or without it (all, also those allowed later) when every one is on.
 */
export function mcpLinkToolsBody(
  link: Pick<AgentToolLink, 'config'>,
  allowed: readonly string[],
  name: string,
  on: boolean,
): { config: ToolConfig } {
  const tools = allowed.filter((tool) => (tool === name ? on : isLinkMcpToolOn(link.config, tool)));
  const { tools: _previous, ...rest } = link.config ?? {};
  return { config: tools.length === allowed.length ? rest : { ...rest, tools } };
}
