// Pure rules of an MCP server connection's tool list: which tools the organization allows, and the
// words its hints and listing are shown with.
import type { McpToolInfo } from '@crewline/contracts';

import { allowedMcpTools } from '@/lib/mcp-tools';

/** Whether the connection allows this tool (every tool when `enabledTools` is absent). */
export function isMcpToolAllowed(config: Record<string, unknown> | null | undefined, name: string): boolean {
  return allowedMcpTools([{ name }], config).length === 1;
}

/**
 * `config.enabledTools` after switching one tool: the allowed names in the server's order, or
 * undefined (absent: every tool, also those the server adds later) when all of them are allowed.
 */
export function allowedToolsAfter(
  all: readonly string[],
  config: Record<string, unknown> | null | undefined,
  name: string,
  allowed: boolean,
): string[] | undefined {
  const next = all.filter((tool) => (tool === name ? allowed : isMcpToolAllowed(config, tool)));
  return next.length === all.length ? undefined : next;
}

/** The badge a tool's hints earn: Read-only, Destructive, or none (the hints are the server's word). */
export function mcpToolBadge(
  tool: Pick<McpToolInfo, 'readOnly' | 'destructive'>,
): 'Read-only' | 'Destructive' | null {
  if (tool.readOnly) return 'Read-only';
  if (tool.destructive) return 'Destructive';
  return null;
}
