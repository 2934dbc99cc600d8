import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpToolInfo, McpToolList } from '@crewline/contracts';
import { createEgress } from '../../../platform/egress';
import { createLlmGateway } from '../../../platform/llm';
import { startFakeMcpServer, type FakeMcpServer } from '../../../testing/fake-mcp-server';
import { resolvedTool } from '../../../testing/resolved-tool';
import { testConfig } from '../../../testing/test-config';
import { mcpUrlAllowed } from '../mcp-connections';
import { callMcpTool, listIsStale, McpClientError } from './mcp-client';
import { mcpModelToolName } from './mcp-tools';
import { createToolRuntime } from './tool-runtime';

/*
 * The MCP client side below the API: model tool names, which calls ask first, the URL rule, and the
 * limits of a call (a stream over the size cap, the connection's timeout, a cancel) against an
 * SDK-built server over the network.
 */

const TOKEN = 'mcp-unit-token-a1b2c3d4e5f6a7b8';
const egress = createEgress({ allowList: ['127.0.0.1'] }).for('tool');
let desk: FakeMcpServer;
let huge: FakeMcpServer;

beforeAll(async () => {
  [desk, huge] = await Promise.all([
    startFakeMcpServer({ token: TOKEN }),
    startFakeMcpServer({ token: TOKEN, bigReportBytes: 3_000_000 }),
  ]);
});
afterAll(async () => {
  await desk?.close();
  await huge?.close();
});

const info = (name: string, readOnly: boolean): McpToolInfo => ({
  name,
  title: null,
  description: `${name} things`,
  inputSchema: { type: 'object', properties: {} },
  readOnly,
  destructive: !readOnly,
});
const stored = (tools: McpToolInfo[]): McpToolList => ({
  tools,
  listedAt: new Date().toISOString(),
  error: null,
});

function runtime() {
  return createToolRuntime({
    config: testConfig(),
    egress,
    llm: createLlmGateway({ maxRetries: 0 }),
    connectionFor: async () => {
      throw new Error('no model here');
    },
    sendgridSettings: async () => undefined,
  });
}

describe('an MCP connection’s model tools', () => {
  it('are named after the connection and the server’s tool, within 64 characters, unique per agent', async () => {
    expect(mcpModelToolName('Order Desk (EU)', 'lookup.order/v2')).toBe('order_desk_eu__lookup_order_v2');
    expect(mcpModelToolName('Desk', 'x'.repeat(100))).toHaveLength(64);
    const connection = (id: string) =>
      resolvedTool({
        id,
        name: 'Desk',
        category: 'mcp',
        settings: { url: desk.url, enabledTools: ['lookup', 'cancel'] },
        mcpTools: stored([info('lookup', true), info('cancel', false), info('purge', false)]),
        approval: 'writes',
      });
    const tools = await runtime().modelTools(
      'org',
      [
        connection('11111111-0000-4000-8000-000000000001'),
        connection('11111111-0000-4000-8000-000000000002'),
      ],
      { untrusted: false },
    );
    // purge is not enabled on the connection; the second connection's names get a suffix.
    expect(Object.keys(tools)).toEqual(['desk__lookup', 'desk__cancel', 'desk__lookup_2', 'desk__cancel_2']);
    expect(tools.desk__lookup).toMatchObject({ label: 'Desk · lookup', description: 'lookup things' });
    // Under "writes", only the tool not marked read-only asks.
    expect(tools.desk__lookup.needsApproval?.({})).toBe(false);
    expect(tools.desk__cancel.needsApproval?.({})).toBe(true);
  });

  it('ask by the link’s policy: always all, never none, an untrusted run every tool not read-only', async () => {
    const linked = (approval: 'always' | 'never', linkConfig: Record<string, unknown> = {}) =>
      resolvedTool({
        name: 'Desk',
        category: 'mcp',
        settings: { url: desk.url },
        mcpTools: stored([info('lookup', true), info('cancel', false)]),
        approval,
        linkConfig,
      });
    const always = await runtime().modelTools('org', [linked('always')], { untrusted: false });
    expect(always.desk__lookup.needsApproval?.({})).toBe(true);
    const never = await runtime().modelTools('org', [linked('never')], { untrusted: false });
    expect(Object.values(never).map((tool) => tool.needsApproval)).toEqual([undefined, undefined]);
    const untrusted = await runtime().modelTools('org', [linked('never', { tools: ['cancel'] })], {
      untrusted: true,
    });
    expect(Object.keys(untrusted)).toEqual(['desk__cancel']);
    expect(untrusted.desk__cancel.needsApproval?.({})).toBe(true);
  });
});

describe('an MCP connection’s URL', () => {
  it('is https, or http to a host the allow-list opens for tools', () => {
    expect(mcpUrlAllowed('https://mcp.example.com/mcp', [])).toBe(true);
    expect(mcpUrlAllowed('http://mcp.example.com/mcp', [])).toBe(false);
    expect(mcpUrlAllowed('http://mcp.internal:8080/mcp', ['tool:mcp.internal:8080'])).toBe(true);
    expect(mcpUrlAllowed('http://mcp.internal:8081/mcp', ['tool:mcp.internal:8080'])).toBe(false);
    expect(mcpUrlAllowed('http://mcp.internal/mcp', ['model:mcp.internal'])).toBe(false);
    expect(mcpUrlAllowed('http://10.1.2.3/mcp', ['10.0.0.0/8'])).toBe(true);
    expect(mcpUrlAllowed('http://10.1.2.3/mcp', [])).toBe(false);
  });
});

describe('an MCP call', () => {
  const connection = (url: string, timeoutSeconds?: number) => ({
    url,
    timeoutSeconds,
    headerName: 'Authorization',
    headerValue: `Bearer ${TOKEN}`,
  });

  it('answers the text and the structured content', async () => {
    await expect(callMcpTool(connection(desk.url), egress, 'lookup_order', { order: 7 })).resolves.toEqual({
      result: { text: 'Order 7 has shipped.', structuredContent: { order: 7, status: 'shipped' } },
      listChanged: false,
    });
  });

  it('stops a stream over the size cap at once, with a readable message', async () => {
    const started = Date.now();
    await expect(callMcpTool(connection(huge.url), egress, 'big_report', {})).rejects.toThrow(
      "The MCP server's answer is larger than the limit of 1 MB.",
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('gives up after the connection’s timeout, and stops when the caller cancels', async () => {
    await expect(callMcpTool(connection(desk.url, 1), egress, 'slow_report', {})).rejects.toThrow(
      `The MCP server at ${new URL(desk.url).host} did not answer within 1 second.`,
    );
    const cancel = new AbortController();
    const call = callMcpTool(connection(desk.url), egress, 'slow_report', {}, cancel.signal);
    setTimeout(() => cancel.abort(new Error('the run was cancelled')), 200);
    await expect(call).rejects.toThrow('the run was cancelled');
  });

  it('marks a tool the server does not know, so its list is read again', async () => {
    const error = await callMcpTool(connection(desk.url), egress, 'no_such_tool', {}).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpClientError);
    expect(listIsStale(error)).toBe(true);
    expect((error as Error).message).toContain('no_such_tool');
  });
});
