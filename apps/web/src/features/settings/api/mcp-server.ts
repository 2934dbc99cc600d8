// GET /api/mcp-server: the organization's MCP endpoint and the workflows published on it (the MCP
// server card). Read here only, so it stays out of lib/queries, which the dashboard's first JavaScript
// loads.
import type { McpServerInfo } from '@crewline/contracts';
import { useQuery } from '@tanstack/react-query';

import { mcpKeys } from '@/lib/mcp-keys';

/**
 * Read afresh whenever the card opens: a workflow paused or activated elsewhere changes what the
 * server offers, and nothing else refreshes this key.
 */
export function useMcpServer() {
  return useQuery<McpServerInfo>({ queryKey: mcpKeys.server, staleTime: 0 });
}
