// GET /api/tools/:id/mcp-tools: an MCP server connection's tools as last listed (the server lists
// them the first time it is asked). Read by the Tools page, Settings → Tools, an agent's tools and
// the builder's Tool step, one cache entry per connection. Not in lib/queries/, whose modules load
// with the dashboard's first JavaScript (vite.config.ts, app-shared): only those lazy screens read it.
import type { McpToolList } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { mcpKeys } from './mcp-keys';

/** A listing changes only when someone refreshes it (or edits the connection), which writes the cache. */
const MCP_TOOLS_STALE_TIME = 60_000;

export function useMcpTools(toolId: string | undefined, options: { enabled?: boolean } = {}) {
  return useQuery<McpToolList>({
    queryKey: mcpKeys.tools(toolId ?? ''),
    enabled: !!toolId && options.enabled !== false,
    staleTime: MCP_TOOLS_STALE_TIME,
  });
}

/**
 * The connection's tools the organization allows (`config.enabledTools`; every tool when absent), in
 * the server's order.
 */
export function allowedMcpTools<T extends { name: string }>(
  tools: readonly T[],
  config: Record<string, unknown> | null | undefined,
): T[] {
  const enabled = config?.enabledTools;
  if (!Array.isArray(enabled)) return [...tools];
  const names = new Set(enabled.filter((name): name is string => typeof name === 'string'));
  return tools.filter((tool) => names.has(tool.name));
}
