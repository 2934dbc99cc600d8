import { describe, expect, it } from 'vitest';

import { mcpMessages, updateWorkflowPublishingSchema } from './mcp';
import {
  createToolSchema,
  linkConfigIssues,
  linkConfigMessages,
  movesToolDestination,
  updateToolSchema,
  withToolCredentials,
} from './tools';

const publishing = {
  enabled: true,
  toolName: 'triage_ticket',
  description: 'Routes a support ticket',
  inputSchema: { type: 'object', properties: { ticket: { type: 'string' } } },
};

describe('an MCP server connection (a tool of the mcp category)', () => {
  it('needs a URL, and takes its credential apart from its config', () => {
    const missing = createToolSchema.safeParse({ name: 'Docs', category: 'mcp', config: {} });
    expect(missing.success).toBe(false);
    const parsed = createToolSchema.parse({
      name: 'Docs',
      category: 'mcp',
      config: { url: 'https://mcp.example.com/mcp', timeoutSeconds: 30 },
      credentials: { headerName: 'Authorization', headerValue: 'Bearer s3cret' },
    });
    expect(withToolCredentials(parsed).config).toEqual({
      url: 'https://mcp.example.com/mcp',
      timeoutSeconds: 30,
      headerName: 'Authorization',
      headerValue: 'Bearer s3cret',
    });
  });

  it('refuses a header name that is not one, and a timeout out of bounds, naming the field', () => {
    const bad = createToolSchema.safeParse({
      name: 'Docs',
      category: 'mcp',
      config: { url: 'https://mcp.example.com/mcp', timeoutSeconds: 601 },
      credentials: { headerName: 'Bad Header:' },
    });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages).toContain('config.timeoutSeconds: Timeout must be between 1 and 600 seconds');
    expect(messages).toContain('config.headerName: Enter a header name such as Authorization or X-API-Key');
    expect(updateToolSchema.safeParse({ credentials: { headerValue: 'Bearer new' } }).success).toBe(true);
  });

  it('drops its stored credential when its URL or header moves', () => {
    const existing = {
      category: 'mcp' as const,
      config: { url: 'https://a.example/mcp', headerName: 'Authorization' },
    };
    expect(
      movesToolDestination(existing, {
        config: { url: 'https://b.example/mcp', headerName: 'Authorization' },
      }),
    ).toBe(true);
    expect(
      movesToolDestination(existing, { config: { url: 'https://a.example/mcp', headerName: 'X-Key' } }),
    ).toBe(true);
    expect(
      movesToolDestination(existing, {
        config: { url: 'https://a.example/mcp', headerName: 'Authorization', timeoutSeconds: 9 },
      }),
    ).toBe(false);
  });

  it('lets an agent’s link choose its tools, never its header', () => {
    expect(linkConfigIssues({ tools: ['echo'] })).toEqual([]);
    expect(linkConfigIssues({ headerName: 'X', headerValue: 'v' })).toEqual([
      { path: ['headerName'], message: linkConfigMessages.destination('headerName') },
      { path: ['headerValue'], message: linkConfigMessages.credential('headerValue') },
    ]);
  });
});

describe('publishing a workflow on the MCP server', () => {
  it('takes a tool name clients accept, a description and an object schema, with a 60 s default', () => {
    expect(updateWorkflowPublishingSchema.parse({ mcp: publishing }).mcp?.timeoutSeconds).toBe(60);
    expect(updateWorkflowPublishingSchema.parse({ mcp: null }).mcp).toBeNull();
    const bad = updateWorkflowPublishingSchema.safeParse({
      mcp: { ...publishing, toolName: 'triage ticket!', inputSchema: { type: 'string' } },
    });
    expect(bad.error?.issues.map((issue) => issue.message)).toEqual([
      'Tool name: 1 to 64 letters, digits, "_" or "-"',
      'The input schema must be of "type": "object"',
    ]);
  });

  it('says which name is taken', () => {
    expect(mcpMessages.toolNameTaken('triage_ticket')).toContain('"triage_ticket"');
  });
});
