// The query keys of the MCP and OAuth screens (Tools, Settings, the builder's MCP section, the consent
// page), built as lib/queries/keys.ts builds every other key. Apart from it because only those lazy
// screens read them: keys.ts loads with the dashboard's first JavaScript (vite.config.ts, app-shared),
// whose budget has no room for keys the dashboard never reads.
import * as paths from '@crewline/contracts/paths';

import { endpointKey } from './queries/endpoint-key';

export const mcpKeys = {
  /** An MCP server connection's tools as last listed (under the tool: a tool's change re-reads them). */
  tools: (id: string) => endpointKey(paths.tools.mcpTools, { id }),
  /** The organization's MCP endpoint and the workflows published on it (Settings → API keys). */
  server: endpointKey(paths.mcp.server),
  /** Where a workflow is published (its MCP tool), under the workflow: its changes re-read it. */
  publishing: (id: string) => endpointKey(paths.mcp.publishing, { id }),
  /** The apps connected to the organization's MCP server by OAuth (Settings → API keys, Connected apps). */
  oauthGrants: endpointKey(paths.oauth.grants),
  /** The app a consent page names (GET /api/oauth/consent). */
  oauthConsent: (query: { clientId: string; redirectUri: string }) =>
    endpointKey(paths.oauth.consent, {}, query),
};
