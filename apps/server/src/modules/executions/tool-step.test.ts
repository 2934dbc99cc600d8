import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { workflowMessages, type AuthResponse, type CreateWorkflowInput } from '@crewline/contracts';
import { configureModel, createAgent, runToEnd, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { isOutboxStatement, statementsDuring, UNCOUNTED } from '../../testing/statements';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { NotFoundError } from '../../platform/errors';
import { resolvedTool } from '../../testing/resolved-tool';
import { createRunLog } from './run-log';
import { isExpected, readableError } from './run-errors';
import { createToolStep, type RunTools } from './tool-step';

/*
 * A workflow's Tool step through the API and the worker: it calls one of the organization's tools
 * (a webhook tool against a local fake API) with arguments from expressions over the run's input,
 * without any model; a later condition routes on its result. A failing API fails the run naming
 * the step, a cancel stops a slow call, and a save refuses a tool the organization does not have.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let notifier: string;

// The orders API: /orders answers the order as shipped, /broken answers 500, /slow never answers.
let api: http.Server;
let apiUrl: string;
let received: { url?: string; auth?: string; body: unknown }[] = [];
const slowClosed: boolean[] = [];

const KEY = 'orders-key-CANARY-51c0de';
const at = { x: 0, y: 0 };

async function createTool(token: string, path: string, name = 'Orders API') {
  const res = await t.request({
    method: 'POST',
    url: '/api/tools',
    token,
    payload: {
      name,
      category: 'custom',
      config: {
        url: `${apiUrl}${path}`,
        apiKey: KEY,
        inputSchema: {
          type: 'object',
          properties: { orderId: { type: 'string' }, count: { type: 'integer' } },
          required: ['orderId'],
          additionalProperties: false,
        },
      },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

/** Start → Lookup (the tool) → Route on its status → Notify (an agent) | else Late (a transform) → Join → End. */
function orderFlow(toolId: string, name = 'Order follow-up'): CreateWorkflowInput {
  return {
    name,
    status: 'active',
    nodes: [
      { id: 'start', type: 'start', position: at },
      {
        id: 'lookup',
        type: 'tool',
        position: at,
        data: {
          label: 'Lookup',
          toolId,
          arguments: { orderId: '{{ input.orderId }}', count: '{{ input.count }}' },
        },
      },
      {
        id: 'route',
        type: 'condition',
        position: at,
        data: {
          label: 'Route',
          branches: [{ id: 'shipped', label: 'Shipped', when: 'nodes.lookup.data.status == "shipped"' }],
        },
      },
      {
        id: 'notify',
        type: 'agent',
        agentId: notifier,
        position: at,
        data: { label: 'Notify', prompt: 'Tell the customer order {{ nodes.lookup.data.id }} shipped' },
      },
      {
        id: 'late',
        type: 'transform',
        position: at,
        data: { label: 'Late', assignments: [{ name: 'late', value: 'true' }] },
      },
      { id: 'join', type: 'merge', position: at, data: { mode: 'all' } },
      { id: 'end', type: 'end', position: at },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'lookup' },
      { id: 'e2', source: 'lookup', target: 'route' },
      { id: 'e3', source: 'route', target: 'notify', sourceHandle: 'shipped' },
      { id: 'e4', source: 'route', target: 'late', sourceHandle: 'else' },
      { id: 'e5', source: 'notify', target: 'join' },
      { id: 'e6', source: 'late', target: 'join' },
      { id: 'e7', source: 'join', target: 'end' },
    ],
  };
}

async function save(payload: CreateWorkflowInput, token = ada.token) {
  return t.request({ method: 'POST', url: '/api/workflows', token, payload });
}

beforeAll(async () => {
  api = http.createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      received.push({ url: req.url, auth: req.headers.authorization, body });
      if (req.url === '/broken') {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: 'the orders database is down' }));
      }
      if (req.url === '/slow') {
        // Never answers: the run's cancel must end the call (the socket closes).
        res.on('close', () => slowClosed.push(true));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: body?.orderId, status: 'shipped', items: body?.count }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  notifier = (await createAgent(t, ada.token, { name: 'Notifier' })).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
});
beforeEach(() => {
  fake.reset();
  received = [];
});

const chatRequests = () => fake.requests.filter((r) => r.method === 'POST' && !r.path.includes('embeddings'));

describe('a Tool step', () => {
  it('calls the tool with its arguments, without a model, and later steps route on its result', async () => {
    const created = await save(orderFlow(await createTool(ada.token, '/orders')));
    expect(created.statusCode, created.body).toBe(201);
    fake.script([{ content: 'Your order is on its way.' }]);

    const run = await runToEnd(t, ada.token, created.json().id, { orderId: 'A-17', count: 3 });

    expect(run.status, run.error ?? '').toBe('completed');
    // The API got exactly the arguments, typed as the expressions gave them, with the tool's key.
    expect(received).toEqual([
      { url: '/orders', auth: `Bearer ${KEY}`, body: { orderId: 'A-17', count: 3 } },
    ]);
    // Only Notify asked the model: the tool step made no model request.
    expect(chatRequests()).toHaveLength(1);
    expect(JSON.stringify(chatRequests()[0].body)).toContain('Tell the customer order A-17 shipped');
    expect(run.output.lookup).toMatchObject({
      kind: 'tool',
      status: 'completed',
      data: { id: 'A-17', status: 'shipped', items: 3 },
      usage: { totalTokens: 0 },
    });
    expect(JSON.parse(run.output.lookup.content)).toEqual({ id: 'A-17', status: 'shipped', items: 3 });
    expect(run.output.route.data).toEqual({ branch: 'shipped' });
    expect(run.output.notify.status).toBe('completed');
    expect(run.output.late.status).toBe('skipped');

    // Its record lists each argument's template and value (in the stored node's key order), and the result.
    const lookup = run.steps?.find((s) => s.nodeId === 'lookup');
    expect(lookup).toMatchObject({
      status: 'completed',
      agentId: null,
      evaluation: { kind: 'tool', result: { id: 'A-17', status: 'shipped', items: 3 } },
    });
    expect(lookup?.evaluation?.evaluated).toHaveLength(2);
    expect(lookup?.evaluation?.evaluated).toEqual(
      expect.arrayContaining([
        { name: 'orderId', expression: '{{ input.orderId }}', value: 'A-17' },
        { name: 'count', expression: '{{ input.count }}', value: 3 },
      ]),
    );
    expect(run.logs?.map((l) => l.message)).toContain('Lookup called the tool Orders API');
    expect(JSON.stringify(run)).not.toContain(KEY);
  });

  it('fails the run naming the step when the arguments do not fit the tool, and calls nothing', async () => {
    const created = await save(orderFlow(await createTool(ada.token, '/orders'), 'Order count as text'));
    const run = await runToEnd(t, ada.token, created.json().id, { orderId: 'A-17', count: 'three' });
    expect(run.status).toBe('failed');
    expect(run.error).toBe('Tool "Lookup" failed: the argument "count" must be integer (it was "three")');
    expect(received).toEqual([]);
  });

  it('fails the run with a readable error naming the step when the API answers 500', async () => {
    const created = await save(orderFlow(await createTool(ada.token, '/broken'), 'Order on a broken API'));
    const run = await runToEnd(t, ada.token, created.json().id, { orderId: 'A-17', count: 1 });

    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      'Tool "Lookup" failed: the API answered HTTP 500: {"error":"the orders database is down"}',
    );
    expect(received).toHaveLength(1);
    expect(chatRequests()).toHaveLength(0);
    expect(run.steps?.find((s) => s.nodeId === 'lookup')).toMatchObject({
      status: 'failed',
      error: run.error,
    });
    expect(run.output.route).toBeUndefined();
    expect(run.logs?.map((l) => l.message)).toContain('Lookup called the tool Orders API (it failed)');
  });

  it('stops a slow tool call when the run is cancelled', async () => {
    const created = await save(orderFlow(await createTool(ada.token, '/slow'), 'Order on a slow API'));
    const started = await t.request({
      method: 'POST',
      url: `/api/workflows/${created.json().id}/execute`,
      token: ada.token,
      payload: { input: { orderId: 'A-17', count: 1 } },
    });
    const id = started.json().id as string;
    await expect.poll(() => received.length, { timeout: 5000 }).toBe(1);
    const closedBefore = slowClosed.length;

    const cancel = await t.request({ method: 'POST', url: `/api/executions/${id}/cancel`, token: ada.token });
    expect(cancel.statusCode).toBe(200);
    await expect.poll(() => t.services.runner.activeRuns().includes(id), { timeout: 3000 }).toBe(false);
    // The call itself was aborted: the API saw its connection close, long before any timeout.
    await expect.poll(() => slowClosed.length, { timeout: 3000 }).toBe(closedBefore + 1);

    const run = await waitForRunEnd(t, ada.token, id);
    expect(run.status).toBe('cancelled');
    expect(run.output).toEqual({});
    expect(chatRequests()).toHaveLength(0);
  });
  it('costs one SQL statement more than a one-agent run: reading its tool when it runs', async () => {
    const created = await save({
      name: 'Only a lookup',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: at },
        {
          id: 'lookup',
          type: 'tool',
          position: at,
          data: { toolId: await createTool(ada.token, '/orders'), arguments: { orderId: 'A-1' } },
        },
        { id: 'end', type: 'end', position: at },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'lookup' },
        { id: 'e2', source: 'lookup', target: 'end' },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const execute = () =>
      t.request({
        method: 'POST',
        url: `/api/workflows/${created.json().id}/execute`,
        token: ada.token,
        payload: { input: {} },
      });
    // Warm: the first run fills the caches later runs reuse (the workflow version).
    await waitForRunEnd(t, ada.token, (await execute()).json().id);
    // The run's notifications leave in the outbox's statements, not the run's own (as in
    // run-statements.test.ts). Background work (an idle worker's poll) can only add: the fewest of up
    // to eight runs counts, stopping at the first within the ceiling.
    const ownStatements = (statements: string[]) => statements.filter((q) => !isOutboxStatement(q));
    let fewest: string[] | undefined;
    for (let i = 0; i < 8 && !(fewest && fewest.length <= 6); i++) {
      const statements = ownStatements(
        await statementsDuring(async () => {
          const id = (await execute()).json().id as string;
          for (;;) {
            const { rows } = await t.db.$client.query<{ status: string }>(
              `${UNCOUNTED} select status from workflow_executions where id = $1`,
              [id],
            );
            if (rows[0].status === 'completed') break;
            expect(['pending', 'running']).toContain(rows[0].status);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
        }),
      );
      if (!fewest || statements.length < fewest.length) fewest = statements;
    }
    // A one-agent run costs 5 (run-statements.test.ts); the tool's read is the one more.
    fewest ??= [];
    expect(
      fewest.length,
      fewest.map((q, i) => `${i + 1}. ${q.slice(0, 120)}`).join('\n'),
    ).toBeLessThanOrEqual(6);
    expect(fewest.filter((q) => q.includes('"tools"'))).toHaveLength(1);
  });
});

describe('saving a Tool step', () => {
  const refused = async (payload: CreateWorkflowInput) => {
    const res = await save(payload);
    expect(res.statusCode).toBe(400);
    return (res.json() as { errors: { message: string }[] }).errors.map((e) => e.message);
  };

  it('refuses a tool of another organization as deleted', async () => {
    const grace = await t.signup();
    const theirs = await createTool(grace.token, '/orders', 'Grace’s orders');
    expect(await refused(orderFlow(theirs))).toEqual([workflowMessages.deletedTool('Lookup')]);
  });

  it('refuses a tool that was deleted, and a run of a workflow whose tool was deleted since', async () => {
    const toolId = await createTool(ada.token, '/orders', 'Short-lived');
    const created = await save(orderFlow(toolId, 'Before the delete'));
    expect(created.statusCode, created.body).toBe(201);
    const removed = await t.request({ method: 'DELETE', url: `/api/tools/${toolId}`, token: ada.token });
    expect(removed.statusCode).toBe(204);

    expect(await refused(orderFlow(toolId, 'After the delete'))).toEqual([
      workflowMessages.deletedTool('Lookup'),
    ]);
    const execute = await t.request({
      method: 'POST',
      url: `/api/workflows/${created.json().id}/execute`,
      token: ada.token,
      payload: { input: { orderId: 'A-17' } },
    });
    expect(execute.statusCode).toBe(400);
    expect(execute.json().message).toBe(workflowMessages.deletedTool('Lookup'));
    expect(received).toEqual([]);
  });

  it('requires a tool', async () => {
    const flow = orderFlow('');
    flow.nodes![1].data = { label: 'Lookup', arguments: {} };
    expect(await refused(flow)).toEqual([workflowMessages.noTool('Lookup')]);
  });
});

describe('the tool port', () => {
  const call = {
    step: { nodeId: 'lookup', baseNodeId: 'lookup', agentId: null, kind: 'tool' as const },
    toolId: 't1',
    arguments: { orderId: 'A-1' },
  };
  const port = (run: RunTools, signal = new AbortController().signal) => {
    const runLog = createRunLog();
    const step = createToolStep({ run, organizationId: 'org', runLog, signal, nameOf: () => 'Lookup' });
    return { step, runLog };
  };
  const found: RunTools['tools'] = {
    resolveOne: async () => resolvedTool({ category: 'custom', name: 'Orders API' }),
  };

  it('fails a step whose tool was deleted after the run started, as the save would say', async () => {
    const { step } = port({
      tools: { resolveOne: async () => Promise.reject(new NotFoundError('Tool not found')) },
      runtime: { call: async () => 'never' },
    });
    const error = await step(call).catch((e: unknown) => e);
    expect(isExpected(error)).toBe(true);
    expect(readableError(error)).toBe(workflowMessages.deletedTool('Lookup'));
  });

  it('leaves a database error as it is, so the run resumes rather than fails', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const { step } = port({
      tools: { resolveOne: async () => Promise.reject(outage) },
      runtime: { call: async () => 'never' },
    });
    await expect(step(call)).rejects.toBe(outage);
  });

  it('ends with the cancel, not as the tool’s failure, when the run is stopped mid-call', async () => {
    const abort = new AbortController();
    const reason = new Error('run interrupted: cancelled');
    const { step, runLog } = port(
      {
        tools: found,
        runtime: {
          call: async () => {
            abort.abort(reason);
            throw new Error('This operation was aborted');
          },
        },
      },
      abort.signal,
    );
    await expect(step(call)).rejects.toBe(reason);
    expect(runLog.unstored()).toEqual([]);
  });
});
