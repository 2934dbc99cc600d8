import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mcpMessages, type AuthResponse, type McpToolList } from '@crewline/contracts';
import { expectNeverAnswered } from '../../testing/app-fixtures';
import { startFakeMcpServer, type FakeMcpServer } from '../../testing/fake-mcp-server';
import { startEverythingServer, type EverythingServer } from '../../testing/mcp-everything-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * MCP server connections (docs/product-rules.md, MCP: servers as tools) through the API, against
 * real MCP servers over the network: the protocol's reference server from npm, and an SDK-built one
 * that wants a bearer token.
 */

const TOKEN = 'mcp-desk-token-5b1e0c77a9d24f3e';
let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;
let everything: EverythingServer;
let desk: FakeMcpServer;

beforeAll(async () => {
  [everything, desk] = await Promise.all([startEverythingServer(), startFakeMcpServer({ token: TOKEN })]);
  // The servers listen on loopback, which the test configuration allow-lists (as an operator would a private server).
  t = await createTestApp();
  [ada, bob] = [await t.signup(), await t.signup()];
});
afterAll(async () => {
  await t?.close();
  await everything?.close();
  await desk?.close();
});
beforeEach(() => desk.reset());

async function connection(config: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await t.request({
    method: 'POST',
    url: '/api/tools',
    token: ada.token,
    payload: { name: 'Order desk', category: 'mcp', config, ...extra },
  });
  return res;
}
const toolsOf = (id: string, token = ada.token) =>
  t.request({ method: 'GET', url: `/api/tools/${id}/mcp-tools`, token });
const refresh = (id: string, token = ada.token) =>
  t.request({ method: 'POST', url: `/api/tools/${id}/mcp-refresh`, token });

describe('an MCP server connection', () => {
  it('lists the reference server’s tools with their schemas and hints, stores them, and lists again on refresh', async () => {
    const created = await connection({ url: everything.url });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json();

    const first = await toolsOf(id);
    expect(first.statusCode, first.body).toBe(200);
    const list = first.json() as McpToolList;
    expect(list.error).toBeNull();
    expect(Date.parse(list.listedAt!)).toBeGreaterThan(Date.now() - 60_000);
    const echo = list.tools.find((tool) => tool.name === 'echo');
    expect(echo).toEqual({
      name: 'echo',
      title: 'Echo Tool',
      description: 'Echoes back the input string',
      inputSchema: expect.objectContaining({
        type: 'object',
        properties: { message: expect.objectContaining({ type: 'string' }) },
        required: ['message'],
      }),
      readOnly: true,
      destructive: false,
    });
    // A tool that says it may write, and does not say it spares what exists.
    expect(list.tools.find((tool) => tool.name === 'toggle-simulated-logging')).toMatchObject({
      readOnly: false,
      destructive: false,
    });

    // Stored: asking again answers the same listing without reading the server.
    expect((await toolsOf(id)).json()).toEqual(list);
    const again = await refresh(id);
    expect(again.statusCode).toBe(200);
    expect(again.json().tools.map((tool: { name: string }) => tool.name)).toEqual(
      list.tools.map((tool) => tool.name),
    );
    expect(Date.parse(again.json().listedAt)).toBeGreaterThanOrEqual(Date.parse(list.listedAt!));
  });

  it('sends its header credential, never answers it, and reads the hints of an SDK-built server', async () => {
    const created = await connection(
      { url: desk.url },
      { credentials: { headerName: 'Authorization', headerValue: `Bearer ${TOKEN}` } },
    );
    expect(created.statusCode, created.body).toBe(201);
    const tool = created.json();
    expect(tool.config).toMatchObject({ url: desk.url, headerName: 'Authorization' });
    expect(tool.config.headerValue).not.toContain(TOKEN);

    const list = (await toolsOf(tool.id)).json() as McpToolList;
    expect(list.error).toBeNull();
    expect(desk.authorizations.length).toBeGreaterThan(0);
    expect(desk.authorizations.every((header) => header === `Bearer ${TOKEN}`)).toBe(true);
    expect(list.tools.map((info) => [info.name, info.readOnly, info.destructive])).toEqual([
      ['lookup_order', true, false],
      ['cancel_order', false, true],
      ['whoami', true, false],
      ['failing_lookup', false, true],
      ['big_report', true, false],
      ['slow_report', true, false],
      ['open_refunds', true, false],
    ]);
    expect(list.tools[0]).toMatchObject({
      title: 'Look up an order',
      description: 'Finds an order by its number',
    });

    const listed = await t.request({ method: 'GET', url: '/api/tools', token: ada.token });
    expect(listed.statusCode).toBe(200);
    expectNeverAnswered(t, [TOKEN]);
  });

  it('stores a listing that fails in words a user reads, keeping the tools it had', async () => {
    const { id } = (
      await connection(
        { url: desk.url },
        { credentials: { headerName: 'Authorization', headerValue: `Bearer ${TOKEN}` } },
      )
    ).json();
    expect((await toolsOf(id)).json().tools).toHaveLength(7);

    // A wrong token: the server answers 401.
    const changed = await t.request({
      method: 'PUT',
      url: `/api/tools/${id}`,
      token: ada.token,
      payload: { credentials: { headerName: 'Authorization', headerValue: 'Bearer wrong-token-123456' } },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().config.url).toBe(desk.url);
    const refused = (await refresh(id)).json() as McpToolList;
    expect(refused.error).toBe(
      `The MCP server at ${new URL(desk.url).host} refused the connection's credential (HTTP 401): check its header name and value.`,
    );
    expect(refused.tools).toHaveLength(7);
    expect((await toolsOf(id)).json()).toEqual(refused);
    expectNeverAnswered(t, ['wrong-token-123456']);

    // No credential at all: the same words.
    const bare = (await connection({ url: desk.url })).json();
    expect((await toolsOf(bare.id)).json()).toMatchObject({
      tools: [],
      listedAt: null,
      error: expect.stringContaining("refused the connection's credential (HTTP 401)"),
    });
  });

  it('says so when the server is unreachable, or its destination refused', async () => {
    const down = await startFakeMcpServer({ token: TOKEN });
    const url = down.url;
    await down.close();
    const { id } = (await connection({ url })).json();
    const unreachable = (await toolsOf(id)).json() as McpToolList;
    expect(unreachable.error).toMatch(
      new RegExp(`^Could not reach the MCP server at ${new URL(url).host}: .*(refused|ECONNREFUSED)`),
    );

    // A private address no allow-list entry opens: refused before any connection.
    const hidden = (await connection({ url: 'https://10.255.255.1/mcp' })).json();
    expect((await toolsOf(hidden.id)).json().error).toBe(
      'Crewline may not connect to the MCP server at 10.255.255.1: Destination not allowed. An administrator can allow a private address in the egress allow-list.',
    );
  });

  it('takes https URLs, and plain http only for a host on the egress allow-list', async () => {
    expect((await connection({ url: 'https://mcp.example.com/mcp' })).statusCode).toBe(201);
    const plain = await connection({ url: 'http://mcp.example.com/mcp' });
    expect(plain.statusCode).toBe(400);
    expect(plain.json()).toMatchObject({
      message: mcpMessages.plainHttp,
      errors: [{ path: 'config.url', message: mcpMessages.plainHttp }],
    });
    // 127.0.0.1 is on the test allow-list.
    expect((await connection({ url: 'http://127.0.0.1:9/mcp' })).statusCode).toBe(201);

    const { id } = (await connection({ url: 'https://mcp.example.com/mcp' })).json();
    const moved = await t.request({
      method: 'PUT',
      url: `/api/tools/${id}`,
      token: ada.token,
      payload: { config: { url: 'http://mcp.example.com/mcp' } },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().message).toBe(mcpMessages.plainHttp);

    // Other categories keep their own rules.
    const web = await t.request({
      method: 'POST',
      url: '/api/tools',
      token: ada.token,
      payload: { name: 'Site', category: 'web', config: { baseUrl: 'http://example.com' } },
    });
    expect(web.statusCode).toBe(201);
  });

  it('is refused for another category, and not found for another organization', async () => {
    const web = (
      await t.request({
        method: 'POST',
        url: '/api/tools',
        token: ada.token,
        payload: { name: 'Site', category: 'web', config: { baseUrl: 'https://example.com' } },
      })
    ).json();
    for (const res of [await toolsOf(web.id), await refresh(web.id)]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(mcpMessages.notMcp);
    }
    const { id } = (await connection({ url: everything.url })).json();
    expect((await toolsOf(id, bob.token)).statusCode).toBe(404);
    expect((await refresh(id, bob.token)).statusCode).toBe(404);
  });
});
