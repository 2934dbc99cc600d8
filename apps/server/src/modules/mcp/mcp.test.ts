import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  executionTriggerText,
  MCP_GET_RUN_TOOL,
  mcpMessages,
  type AuthResponse,
  type Execution,
} from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import {
  configureModel,
  createAgent,
  createChainWorkflow,
  joinOrganization,
} from '../../testing/app-fixtures';

/*
 * The organization's MCP server (docs/product-rules.md, MCP: the organization's server): publishing
 * a workflow through the API, and the SDK's own client calling /mcp on the app listening on a real
 * port, with a worker in the process running the runs on the fake model.
 */

let t: TestApp;
let fake: FakeLlmServer;
let base = '';
let ada: AuthResponse;
let adaKey = '';
let weather = '';
let other: AuthResponse;
let otherKey = '';
const clients: Client[] = [];

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 2 } },
  required: ['city'],
  additionalProperties: false,
};

async function newKey(account: AuthResponse) {
  const res = await t.request({
    method: 'POST',
    url: `/api/organizations/${account.organization.id}/api-keys`,
    token: account.token,
    payload: { name: 'MCP' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().key as string;
}

const publish = (workflowId: string, mcp: object | null, token = ada.token) =>
  t.request({ method: 'PUT', url: `/api/workflows/${workflowId}/publishing`, token, payload: { mcp } });

const published = (toolName: string, fields: object = {}) => ({
  enabled: true,
  toolName,
  description: `The ${toolName} workflow`,
  inputSchema: weatherSchema,
  ...fields,
});

/** The SDK's client on our endpoint; the 2026-07-28 era unless `legacy` (its clientInfo then rides every request). */
async function connect(key: string, options: { name?: string; legacy?: boolean } = {}) {
  const client = new Client(
    { name: options.name ?? 'Claude', version: '1.0.0' },
    options.legacy ? {} : { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  clients.push(client);
  return client;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as { type: string; text: string }[]).map((c) => c.text).join('');
const runsOf = async (workflowId: string) =>
  (
    await t.database.pool.query<{ id: string }>(
      'SELECT id FROM workflow_executions WHERE workflow_id = $1 ORDER BY created_at',
      [workflowId],
    )
  ).rows;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  ada = await t.signup({ firstName: 'Ada', lastName: 'Lovelace' });
  other = await t.signup();
  adaKey = await newKey(ada);
  otherKey = await newKey(other);
  await configureModel(t, ada.token, fake.url);
  const forecaster = await createAgent(t, ada.token, { name: 'Forecaster' });
  weather = await createChainWorkflow(t, ada.token, 'Weather', [forecaster.id]);
  expect((await publish(weather, published('weather'))).statusCode).toBe(200);
}, 60_000);

afterEach(async () => {
  fake.reset();
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('publishing a workflow (GET/PUT /api/workflows/:id/publishing, GET /api/mcp-server)', () => {
  it('publishes an active workflow, answers it back and lists it on the server', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/workflows/${weather}/publishing`,
      token: ada.token,
    });
    expect(res.json()).toEqual({ mcp: { ...published('weather'), timeoutSeconds: 60 }, chat: null });
    const server = await t.request({ method: 'GET', url: '/api/mcp-server', token: ada.token });
    expect(server.json()).toEqual({
      url: 'http://localhost:5000/mcp',
      tools: [
        {
          workflowId: weather,
          workflowName: 'Weather',
          toolName: 'weather',
          description: 'The weather workflow',
          active: true,
        },
      ],
    });
    // An API key reads it too; another organization's server lists none of it.
    expect(
      (await t.request({ method: 'GET', url: '/api/mcp-server', token: otherKey })).json().tools,
    ).toEqual([]);
  });

  it('lets only owners and admins publish (a member 403), and a member read it', async () => {
    const member = await joinOrganization(t, ada, await t.signup(), 'member');
    const refused = await publish(weather, published('weather'), member.token);
    expect(refused.statusCode).toBe(403);
    const read = await t.request({
      method: 'GET',
      url: `/api/workflows/${weather}/publishing`,
      token: member.token,
    });
    expect(read.json().mcp.toolName).toBe('weather');
    // An API key acts as a member: it cannot publish either.
    expect((await publish(weather, published('weather'), adaKey)).statusCode).toBe(403);
  });

  it('refuses a tool name another workflow of the organization holds (409), not one of another organization', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Second' });
    const second = await createChainWorkflow(t, ada.token, 'Second', [agent.id]);
    const taken = await publish(second, published('weather'));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(mcpMessages.toolNameTaken('weather'));
    // The built-in tool's name is no workflow's.
    expect((await publish(second, published(MCP_GET_RUN_TOOL))).statusCode).toBe(400);

    const otherAgent = await createAgent(t, other.token, { name: 'Theirs' });
    const theirs = await createChainWorkflow(t, other.token, 'Theirs', [otherAgent.id]);
    expect((await publish(theirs, published('weather'), other.token)).statusCode).toBe(200);
  });

  it('enables only an active workflow (400), but keeps a disabled publishing of any', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Drafter' });
    const draft = await createChainWorkflow(t, ada.token, 'Draft', [agent.id], { status: 'draft' });
    const refused = await publish(draft, published('draft_tool'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(mcpMessages.notActive);
    const kept = await publish(draft, published('draft_tool', { enabled: false }));
    expect(kept.statusCode).toBe(200);
    expect(kept.json().mcp).toMatchObject({ enabled: false, toolName: 'draft_tool' });
    // Cleared, it is not published at all.
    expect((await publish(draft, null)).json()).toEqual({ mcp: null, chat: null });
  });

  it('refuses an input schema that does not compile, naming the problem', async () => {
    const res = await publish(
      weather,
      published('weather', { inputSchema: { type: 'object', properties: { city: { type: 'town' } } } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^The input schema is not a valid JSON Schema: .*type/);
    expect(res.json().errors[0].path).toBe('mcp.inputSchema');
  });

  it("answers 404 for another organization's workflow", async () => {
    expect(
      (await t.request({ method: 'GET', url: `/api/workflows/${weather}/publishing`, token: other.token }))
        .statusCode,
    ).toBe(404);
    expect((await publish(weather, published('stolen'), other.token)).statusCode).toBe(404);
  });
});

describe('the /mcp endpoint', () => {
  it('answers 401 with a Bearer challenge without a key, with a bad one, and with a session token', async () => {
    for (const authorization of [undefined, 'Bearer crw_not-a-key', `Bearer ${ada.token}`]) {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
    await expect(connect('crw_not-a-key')).rejects.toThrow();
  });

  it("refuses a browser's request from another origin", async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${adaKey}`,
        origin: 'https://evil.example.com',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(403);
  });

  it("lists the organization's published tools of active workflows and get_run; another organization's key sees none", async () => {
    const client = await connect(adaKey);
    const { tools } = await client.listTools();
    const tool = tools.find((one) => one.name === 'weather');
    expect(tool).toMatchObject({ description: 'The weather workflow', inputSchema: weatherSchema });
    expect(tools.map((one) => one.name).sort()).toEqual([MCP_GET_RUN_TOOL, 'weather']);
    // A third organization (the other one published a 'weather' of its own) is offered only get_run.
    const third = await newKey(await t.signup());
    expect(await toolNames(await connect(third))).toEqual([MCP_GET_RUN_TOOL]);
  });

  it("drops a deactivated workflow's tool", async () => {
    const agent = await createAgent(t, ada.token, { name: 'Pauser' });
    const flow = await createChainWorkflow(t, ada.token, 'Pausable', [agent.id]);
    expect((await publish(flow, published('pausable'))).statusCode).toBe(200);
    const client = await connect(adaKey);
    expect(await toolNames(client)).toContain('pausable');
    const paused = await t.request({
      method: 'PUT',
      url: `/api/workflows/${flow}`,
      token: ada.token,
      payload: { status: 'paused' },
    });
    expect(paused.statusCode).toBe(200);
    // The same connection: every request builds its server anew.
    expect(await toolNames(client)).not.toContain('pausable');
  });

  it("runs the workflow on a call and answers its result; the run's trigger names the client", async () => {
    fake.script([{ content: 'Sunny in Paris' }]);
    const client = await connect(adaKey, { name: 'Claude' });
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Paris' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('Sunny in Paris');

    const [run] = await runsOf(weather).then((rows) => rows.slice(-1));
    const res = await t.request({ method: 'GET', url: `/api/executions/${run.id}`, token: ada.token });
    const execution = res.json() as Execution;
    expect(execution).toMatchObject({
      status: 'completed',
      trigger: 'mcp',
      triggerDetail: 'Claude',
      triggeredBy: null,
      input: { city: 'Paris' },
    });
    expect(executionTriggerText(execution)).toBe('MCP · Claude');
    // The run list says so too.
    const list = await t.request({
      method: 'GET',
      url: `/api/executions?workflowId=${weather}`,
      token: ada.token,
    });
    expect(list.json()[0]).toMatchObject({ id: run.id, trigger: 'mcp', triggerDetail: 'Claude' });
    // And the dashboard's Recent Activity names the client where a person's name would stand.
    const activity = await t.request({
      method: 'GET',
      url: `/api/organizations/${ada.organization.id}/activity`,
      token: ada.token,
    });
    expect(activity.json().items).toContainEqual(
      expect.objectContaining({ id: run.id, actor: 'MCP · Claude' }),
    );
  });

  it("answers a bad input with the schema's error and starts no run", async () => {
    const before = (await runsOf(weather)).length;
    const client = await connect(adaKey);
    const result = await client.callTool({ name: 'weather', arguments: { city: 'P', extra: 1 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/"city" must NOT have fewer than 2 characters/);
    const missing = await client.callTool({ name: 'weather', arguments: {} });
    expect(textOf(missing)).toMatch(/must have required property 'city'/);
    expect((await runsOf(weather)).length).toBe(before);
  });

  it('answers a run longer than the time limit with its id, and get_run gives the result later', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Slowpoke' });
    const slow = await createChainWorkflow(t, ada.token, 'Slow', [agent.id]);
    expect((await publish(slow, published('slow', { timeoutSeconds: 1 }))).statusCode).toBe(200);
    fake.script([{ content: 'Finally done', delayMs: 2500 }]);
    const client = await connect(adaKey);
    const first = await client.callTool({ name: 'slow', arguments: { city: 'Oslo' } });
    expect(first.isError).toBeFalsy();
    const { runId, status } = first.structuredContent as { runId: string; status: string };
    expect(['pending', 'running']).toContain(status);
    expect(textOf(first)).toContain(`Call ${MCP_GET_RUN_TOOL}`);

    await expect
      .poll(
        async () =>
          (await client.callTool({ name: MCP_GET_RUN_TOOL, arguments: { runId } })).structuredContent,
        { timeout: 15_000, interval: 300 },
      )
      .toEqual({ runId, status: 'completed', result: 'Finally done' });
    // Another organization's key finds no such run.
    const theirs = await (await connect(otherKey)).callTool({ name: MCP_GET_RUN_TOOL, arguments: { runId } });
    expect(theirs.isError).toBe(true);
    expect(textOf(theirs)).toBe('Run not found');
  });

  it('serves a 2025-era client statelessly too (its runs name no client)', async () => {
    fake.script([{ content: 'Rain in Bergen' }]);
    const client = await connect(adaKey, { legacy: true });
    expect(await toolNames(client)).toContain('weather');
    const result = await client.callTool({ name: 'weather', arguments: { city: 'Bergen' } });
    expect(textOf(result)).toBe('Rain in Bergen');
    const [run] = await runsOf(weather).then((rows) => rows.slice(-1));
    const execution = (
      await t.request({ method: 'GET', url: `/api/executions/${run.id}`, token: ada.token })
    ).json();
    expect(executionTriggerText(execution)).toBe('MCP');
  });

  it("answers a spent budget's refusal (402) as a tool error, with no run", async () => {
    const capped = await t.request({
      method: 'PUT',
      url: '/api/organization/budget',
      token: ada.token,
      payload: { monthlyCapUsd: 1 },
    });
    expect(capped.statusCode).toBe(200);
    // This month's model spend is already past the cap.
    await t.database.pool.query(
      `INSERT INTO spend_counters (organization_id, scope, scope_id, month, spent_micros)
       VALUES ($1, 'organization', '', date_trunc('month', now() at time zone 'UTC')::date, 2000000)
       ON CONFLICT (organization_id, scope, scope_id, month) DO UPDATE SET spent_micros = 2000000`,
      [ada.organization.id],
    );
    try {
      const before = (await runsOf(weather)).length;
      const refused = await (
        await connect(adaKey)
      ).callTool({ name: 'weather', arguments: { city: 'Rome' } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/budget/i);
      expect((await runsOf(weather)).length).toBe(before);
    } finally {
      await t.database.pool.query('DELETE FROM spend_counters WHERE organization_id = $1', [
        ada.organization.id,
      ]);
    }
  });

  it('answers hostile requests below 500, as JSON', async () => {
    const call = (params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
    const bodies: [string, string][] = [
      ['malformed', '{"jsonrpc":'],
      ['empty', ''],
      ['NUL', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"a":"\\u0000"}}'],
      ['65 levels', `${'['.repeat(65)}${']'.repeat(65)}`],
      ['array of junk', '[null,1,"a",{},[]]'],
      ['no method', '{"jsonrpc":"2.0","id":1}'],
      ['unknown method', '{"jsonrpc":"2.0","id":1,"method":"nope/nope"}'],
      ['arguments not an object', call({ name: 'weather', arguments: 'Paris' })],
      ['unknown tool', call({ name: 'nope', arguments: {} })],
      ['get_run of junk', call({ name: MCP_GET_RUN_TOOL, arguments: { runId: '../../etc' } })],
      ['__proto__', call({ name: 'weather', arguments: JSON.parse('{"__proto__":{"city":"x"}}') })],
      [
        'huge',
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { x: 'x'.repeat(2_000_000) } }),
      ],
    ];
    for (const [label, body] of bodies) {
      for (const contentType of ['application/json', 'text/plain']) {
        const res = await fetch(`${base}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': contentType,
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${adaKey}`,
          },
          body,
        });
        const text = await res.text();
        expect({ label, contentType, status: res.status < 500 }).toEqual({
          label,
          contentType,
          status: true,
        });
        if (text && !text.startsWith('event:')) expect(() => JSON.parse(text), label).not.toThrow();
      }
    }
  });

  it('answers GET and DELETE 405: there is no session to stream or end', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, {
        method,
        headers: { authorization: `Bearer ${adaKey}`, accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
    }
  });
});
