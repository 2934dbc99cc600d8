import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse, Execution, McpToolList } from '@crewline/contracts';
import {
  approvalsOfRun,
  configureModel,
  createAgent,
  createChainWorkflow,
  expectNeverAnswered,
  waitForRunEnd,
  waitForRunStatus,
} from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { jsonLogLines } from '../../testing/json-log-lines';
import { startFakeMcpServer, type FakeMcpServer } from '../../testing/fake-mcp-server';
import { startEverythingServer, type EverythingServer } from '../../testing/mcp-everything-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { mcpModelToolName } from './runtime/mcp-tools';

/*
 * Agents using MCP servers' tools in runs (docs/product-rules.md, MCP: servers as tools): the real AI
 * SDK against the scripted fake model, real MCP servers over the network. Each server tool the link
 * enables is a tool of its own; a tool not marked read-only waits for approval under "writes".
 */

const TOKEN = 'mcp-agent-token-0f9e8d7c6b5a4321';
let t: TestApp;
let fake: FakeLlmServer;
let everything: EverythingServer;
let desk: FakeMcpServer;
let ada: AuthResponse;
/** Everything the app, the runner and the worker logged. */
const logs = jsonLogLines();

beforeAll(async () => {
  [fake, everything, desk] = await Promise.all([
    startFakeLlmServer(),
    startEverythingServer(),
    startFakeMcpServer({ token: TOKEN }),
  ]);
  t = await createTestApp({
    worker: true,
    emailMonitor: false,
    loggerInstance: pino({ level: 'debug' }, logs.stream),
  });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await everything?.close();
  await desk?.close();
});
beforeEach(() => {
  fake.reset();
  desk.reset();
});

let n = 0;
/** An agent linked to a new connection (link settings and policy as given), alone in a workflow. */
async function agentWith(
  connection: { name: string; url: string; credentials?: Record<string, string> },
  link: { config?: Record<string, unknown>; approval?: string } = {},
) {
  const tool = await t.request({
    method: 'POST',
    url: '/api/tools',
    token: ada.token,
    payload: {
      name: connection.name,
      category: 'mcp',
      config: { url: connection.url },
      ...(connection.credentials ? { credentials: connection.credentials } : {}),
    },
  });
  expect(tool.statusCode, tool.body).toBe(201);
  const agent = await createAgent(t, ada.token, { name: `Clerk ${++n}` });
  const linked = await t.request({
    method: 'POST',
    url: `/api/agents/${agent.id}/tools/${tool.json().id}`,
    token: ada.token,
    payload: { config: link.config ?? {}, ...(link.approval ? { approval: link.approval } : {}) },
  });
  expect(linked.statusCode, linked.body).toBe(201);
  const workflowId = await createChainWorkflow(t, ada.token, `Desk ${n}`, [agent.id]);
  return { workflowId, toolId: tool.json().id as string, agentId: agent.id };
}

async function execute(workflowId: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token: ada.token,
    payload: { input: {} },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().id;
}
const details = async (id: string): Promise<Execution> =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json();
/** The model's n-th request. */
const chat = (index: number) => fake.requests.filter((r) => r.path.endsWith('/chat/completions'))[index];
/** The names of the tools the model was offered in its n-th request. */
const offered = (index: number): string[] =>
  (chat(index)?.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
/** The tool messages of the model's n-th request, as text. */
const toolMessages = (index: number) =>
  JSON.stringify((chat(index)?.body.messages ?? []).filter((m: { role: string }) => m.role === 'tool'));

describe('an agent with an MCP server', () => {
  it('calls the reference server’s echo tool; the step records the call and its result', async () => {
    const { workflowId } = await agentWith({ name: 'Everything', url: everything.url });
    const echo = mcpModelToolName('Everything', 'echo');
    expect(echo).toBe('everything__echo');
    fake.script([
      { toolCalls: [{ name: echo, arguments: { message: 'hello from Crewline' } }] },
      { echoToolResult: true },
    ]);
    const done = await waitForRunEnd(t, ada.token, await execute(workflowId));
    expect(done.status, done.error ?? '').toBe('completed');
    // Read-only: no approval was asked under "writes".
    expect(await approvalsOfRun(t, ada.token, done.id, 'decided')).toEqual([]);
    expect(offered(0)).toEqual(
      expect.arrayContaining([echo, 'everything__get-sum', 'everything__toggle-simulated-logging']),
    );
    expect(done.result).toBe('Echo: hello from Crewline');
    const [call] = (await details(done.id)).steps![0].record!.toolCalls;
    expect(call).toMatchObject({
      name: echo,
      arguments: { message: 'hello from Crewline' },
      result: 'Echo: hello from Crewline',
      isError: false,
    });
  });

  it('waits for approval before a tool not marked read-only, and runs it once approved', async () => {
    const { workflowId } = await agentWith({ name: 'Everything', url: everything.url });
    const toggle = mcpModelToolName('Everything', 'toggle-simulated-logging');
    fake.script([
      { content: 'I will turn logging on.', toolCalls: [{ name: toggle, arguments: {} }] },
      { echoToolResult: true },
    ]);
    const id = await execute(workflowId);
    await waitForRunStatus(t, ada.token, id, 'waiting');
    const [approval] = await approvalsOfRun(t, ada.token, id);
    expect(approval.toolCall).toEqual({ tool: 'Everything · toggle-simulated-logging', arguments: {} });
    expect(approval.title).toContain('Everything · toggle-simulated-logging');
    const decided = await t.request({
      method: 'POST',
      url: `/api/approvals/${approval.id}/decision`,
      token: ada.token,
      payload: { decision: 'approve' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    const done = await waitForRunEnd(t, ada.token, id);
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.result).toMatch(/logging/i);
    expect((await details(id)).steps![0].record!.toolCalls[0]).toMatchObject({
      name: toggle,
      isError: false,
    });
  });

  it('offers only the tools the link names, sends the header, and never shows the token', async () => {
    const { workflowId } = await agentWith(
      {
        name: 'Order desk',
        url: desk.url,
        credentials: { headerName: 'Authorization', headerValue: `Bearer ${TOKEN}` },
      },
      { config: { tools: ['whoami', 'cancel_order'] }, approval: 'never' },
    );
    fake.script([{ toolCalls: [{ name: 'order_desk__whoami', arguments: {} }] }, { echoToolResult: true }]);
    const done = await waitForRunEnd(t, ada.token, await execute(workflowId));
    expect(done.status, done.error ?? '').toBe('completed');
    expect(offered(0).sort()).toEqual(['order_desk__cancel_order', 'order_desk__whoami']);
    expect(desk.calls).toEqual([{ name: 'whoami', arguments: {} }]);
    expect(desk.authorizations.every((header) => header === `Bearer ${TOKEN}`)).toBe(true);
    // The server echoed the token: the model, the step record and every answer get a mask.
    expect(toolMessages(1)).toContain('You sent ••••');
    expect(toolMessages(1)).not.toContain(TOKEN);
    const record = await t.request({ method: 'GET', url: `/api/executions/${done.id}`, token: ada.token });
    expect((await details(done.id)).steps![0].record!.toolCalls[0].result).toBe('You sent ••••••••');
    expect(record.body).not.toContain(TOKEN);
    expectNeverAnswered(t, [TOKEN]);
    expect(logs.lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs.lines)).not.toContain(TOKEN);
  });

  it('hands a tool’s error to the model, which goes on', async () => {
    const { workflowId } = await agentWith(
      {
        name: 'Order desk',
        url: desk.url,
        credentials: { headerName: 'Authorization', headerValue: `Bearer ${TOKEN}` },
      },
      { approval: 'never' },
    );
    fake.script([
      { toolCalls: [{ name: 'order_desk__failing_lookup', arguments: { order: 99 } }] },
      { content: 'That order does not exist.' },
    ]);
    const done = await waitForRunEnd(t, ada.token, await execute(workflowId));
    expect(done.status, done.error ?? '').toBe('completed');
    expect(toolMessages(1)).toMatch(/The MCP tool \W+failing_lookup\W+ failed: Order 99 does not exist/);
    const [call] = (await details(done.id)).steps![0].record!.toolCalls;
    expect(call).toMatchObject({ isError: true, result: expect.stringContaining('Order 99 does not exist') });
  });

  it('lists the server again when it says its tool list changed during a call', async () => {
    const { workflowId, toolId } = await agentWith(
      {
        name: 'Order desk',
        url: desk.url,
        credentials: { headerName: 'Authorization', headerValue: `Bearer ${TOKEN}` },
      },
      { approval: 'never' },
    );
    const before = (
      await t.request({ method: 'GET', url: `/api/tools/${toolId}/mcp-tools`, token: ada.token })
    ).json() as McpToolList;
    expect(before.tools.map((tool) => tool.name)).not.toContain('refund_order');
    fake.script([
      { toolCalls: [{ name: 'order_desk__open_refunds', arguments: {} }] },
      { content: 'Refunds are open.' },
    ]);
    const done = await waitForRunEnd(t, ada.token, await execute(workflowId));
    expect(done.status, done.error ?? '').toBe('completed');
    const after = (
      await t.request({ method: 'GET', url: `/api/tools/${toolId}/mcp-tools`, token: ada.token })
    ).json() as McpToolList;
    expect(after.tools.map((tool) => tool.name)).toContain('refund_order');
  });

  it('refuses a link whose tools are not a list of names', async () => {
    const { toolId, agentId } = await agentWith({ name: 'Everything', url: everything.url });
    const res = await t.request({
      method: 'PUT',
      url: `/api/agents/${agentId}/tools/${toolId}`,
      token: ada.token,
      payload: { config: { tools: 'echo' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ path: 'config.tools' })]);
  });
});
