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
