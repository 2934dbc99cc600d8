// The configuration an MCP client reads to reach the organization's MCP server, as Settings → API keys
// (with the server's URL) and the MCP server guide (with the page's origin) show it for copying.
// Zod-free and without the contracts: the docs chunk imports it.

/** Where the reader puts one of the organization's API keys (`crw_…`). */
export const MCP_API_KEY_PLACEHOLDER = 'crw_your_api_key';

/** The name the client lists the server under. */
const MCP_CLIENT_SERVER_NAME = 'crewline';

/** The organization's MCP endpoint on an instance: `https://crewline.example.com/` → `…/mcp`. */
export function mcpEndpointUrl(origin: string): string {
  return `${origin.trim().replace(/\/+$/, '')}/mcp`;
}

/**
 * The `mcpServers` JSON of Claude Code's `.mcp.json` and Cursor's `mcp.json` (VS Code's own
 * `.vscode/mcp.json` names the same list `servers`): the server over Streamable HTTP with an API key.
 */
export function mcpClientConfig(url: string): string {
  const config = {
    mcpServers: {
      [MCP_CLIENT_SERVER_NAME]: {
        type: 'http',
        url,
        headers: { Authorization: `Bearer ${MCP_API_KEY_PLACEHOLDER}` },
      },
    },
  };
  return JSON.stringify(config, null, 2);
}
