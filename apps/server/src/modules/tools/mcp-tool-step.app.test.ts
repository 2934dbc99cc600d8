import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse, CreateWorkflowInput } from '@crewline/contracts';
import { runToEnd } from '../../testing/app-fixtures';
import { startFakeMcpServer, type FakeMcpServer } from '../../testing/fake-mcp-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * A workflow's Tool step calling an MCP server's tool directly (docs/product-rules.md, MCP): the step
 * names the server's tool (`data.mcpTool`), its arguments are checked against that tool's schema, and
 * every failure (no such tool, a server down, an answer over the size cap, a refused destination)
 * fails the run with a message a person reads.
 */

const TOKEN = 'mcp-step-token-77aa66bb55cc44dd';
let t: TestApp;
let desk: FakeMcpServer;
let ada: AuthResponse;
const at = { x: 0, y: 0 };

beforeAll(async () => {
  desk = await startFakeMcpServer({ token: TOKEN });
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
});
afterAll(async () => {
  await t?.close();
  await desk?.close();
});
beforeEach(() => desk.reset());

async function connection(url: string, name = 'Order desk') {
  const res = await t.request({
    method: 'POST',
    url: '/api/tools',
    token: ada.token,
    payload: {
      name,
      category: 'mcp',
      config: { url },
      credentials: { headerName: 'Authorization', headerValue: `Bearer ${TOKEN}` },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

let n = 0;
/** Start → Lookup (the MCP tool) → End, run with `input`. */
async function runStep(toolId: string, data: Record<string, unknown>, input: Record<string, unknown> = {}) {
  const workflow: CreateWorkflowInput = {
    name: `MCP step ${++n}`,
    status: 'active',
    nodes: [
      { id: 'start', type: 'start', position: at },
      { id: 'lookup', type: 'tool', position: at, data: { label: 'Lookup', toolId, ...data } },
      { id: 'end', type: 'end', position: at },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'lookup' },
      { id: 'e2', source: 'lookup', target: 'end' },
    ],
  };
  const created = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: workflow,
  });
  expect(created.statusCode, created.body).toBe(201);
  return runToEnd(t, ada.token, created.json().id, input);
}

describe('a Tool step with an MCP connection', () => {
  it('calls the server tool it names with its arguments, typed, and keeps its answer', async () => {
    const toolId = await connection(desk.url);
    const run = await runStep(
      toolId,
      { mcpTool: 'lookup_order', arguments: { order: '{{ input.order }}' } },
      { order: 42 },
    );
    expect(run.status, run.error ?? '').toBe('completed');
    expect(desk.calls).toEqual([{ name: 'lookup_order', arguments: { order: 42 } }]);
    expect(run.output.lookup).toMatchObject({
      kind: 'tool',
      status: 'completed',
      data: { text: 'Order 42 has shipped.', structuredContent: { order: 42, status: 'shipped' } },
    });
    expect(desk.authorizations.every((header) => header === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('fails naming what is wrong: no server tool chosen, one the server lacks, arguments that do not fit', async () => {
    const toolId = await connection(desk.url);
    expect((await runStep(toolId, { arguments: {} })).error).toBe(
      `Tool "Lookup" failed: choose which of the MCP server's tools the step calls`,
    );
    expect((await runStep(toolId, { mcpTool: 'refund_everything', arguments: {} })).error).toBe(
      'Tool "Lookup" failed: the MCP server of "Order desk" has no tool "refund_everything"',
    );
    const mistyped = await runStep(toolId, { mcpTool: 'lookup_order', arguments: { order: 'forty-two' } });
    expect(mistyped.error).toBe(
      'Tool "Lookup" failed: the argument "order" must be number (it was "forty-two")',
    );
    const failing = await runStep(toolId, { mcpTool: 'failing_lookup', arguments: { order: '{{ 99 }}' } });
    expect(failing.error).toBe(
      'Tool "Lookup" failed: The MCP tool "failing_lookup" failed: Order 99 does not exist',
    );
    expect(desk.calls.map((call) => call.name)).toEqual(['failing_lookup']);
  });

  it('fails readably when the server is down, its answer too large, or its destination refused', async () => {
    const down = await startFakeMcpServer({ token: TOKEN });
    const downUrl = down.url;
    const downId = await connection(downUrl, 'Gone desk');
    // Listed while it was up: the step knows the tool, the call finds no one there.
    expect(
      (await t.request({ method: 'GET', url: `/api/tools/${downId}/mcp-tools`, token: ada.token })).json()
        .tools,
    ).toHaveLength(7);
    await down.close();
    const gone = await runStep(downId, { mcpTool: 'lookup_order', arguments: { order: '{{ 1 }}' } });
    expect(gone.status).toBe('failed');
    expect(gone.error).toMatch(
      new RegExp(`^Tool "Lookup" failed: Could not reach the MCP server at ${new URL(downUrl).host}: `),
    );

    const big = await runStep(await connection(desk.url), { mcpTool: 'big_report', arguments: {} });
    expect(big.error).toBe(
      'Tool "Lookup" failed: The MCP tool "big_report" answered more than the limit of 1 MB.',
    );

    const hidden = await runStep(await connection('https://10.255.255.1/mcp', 'Hidden desk'), {
      mcpTool: 'lookup_order',
      arguments: {},
    });
    expect(hidden.error).toBe(
      'Tool "Lookup" failed: Crewline may not connect to the MCP server at 10.255.255.1: Destination not allowed. An administrator can allow a private address in the egress allow-list.',
    );
    expect(JSON.stringify(t.responseBodies)).not.toContain(TOKEN);
  });
});
