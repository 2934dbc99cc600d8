import {
  bearerAuthChallengeResponse,
  createMcpHandler,
  OAuthError,
  OAuthErrorCode,
} from '@modelcontextprotocol/server';
import { createMcpServerFactory } from './mcp-server';

export type McpServerDeps = Parameters<typeof createMcpServerFactory>[0];

/**
 * The SDK's side of the endpoint, loaded with the SDK on the first /mcp request (mcp.routes.ts), so
 * a process that serves none never loads it (docs/architecture.md, Runtime): the stateless handler
 * over the per-request server factory, and the Bearer challenge of a refused request.
 */
export function createMcpEndpoint(deps: McpServerDeps) {
  const handler = createMcpHandler(createMcpServerFactory(deps), {
    // Reporting only (a refused or malformed request is answered by the SDK itself).
    onerror: (error) => deps.logger?.debug({ err: error }, 'MCP request refused'),
  });
  return {
    handler,
    /** 401 with the `WWW-Authenticate: Bearer` challenge MCP clients expect (the SDK's own answer). */
    challenge: (message: string, resourceMetadataUrl?: string) =>
      bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, message), {
        resourceMetadataUrl,
      }),
  };
}
export type McpEndpoint = ReturnType<typeof createMcpEndpoint>;
