import { API_KEY_PREFIX } from '@crewline/contracts';
import { describe, expect, it } from 'vitest';

import { MCP_API_KEY_PLACEHOLDER, mcpClientConfig, mcpEndpointUrl } from './mcp-client-config';

describe('the MCP client configuration', () => {
  it('names the server over HTTP with its URL and an API key placeholder in the Authorization header', () => {
    expect(JSON.parse(mcpClientConfig('https://crewline.example.com/mcp'))).toEqual({
      mcpServers: {
        crewline: {
          type: 'http',
          url: 'https://crewline.example.com/mcp',
          headers: { Authorization: 'Bearer crw_your_api_key' },
        },
      },
    });
    // The placeholder reads as a key of the product's own form.
    expect(MCP_API_KEY_PLACEHOLDER.startsWith(API_KEY_PREFIX)).toBe(true);
  });

  it("puts the endpoint at the instance's /mcp, whatever slashes the origin ends with", () => {
    expect(mcpEndpointUrl('https://crewline.example.com')).toBe('https://crewline.example.com/mcp');
    expect(mcpEndpointUrl('http://localhost:5000//')).toBe('http://localhost:5000/mcp');
  });
});
