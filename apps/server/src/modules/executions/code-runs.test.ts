import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse, CreateWorkflowInput, Execution } from '@crewline/contracts';
import { configureModel, createAgent, runToEnd, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * Code steps in runs (docs/product-rules.md, Code steps), through the API: the source runs in the
 * WebAssembly sandbox with the run's data, its value decides a later condition, its console lines
 * go to its log, and a step that runs past its time fails its run readably; the run can be retried.
 * "Test this node" runs a Code step with sample data.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
const agents: Record<string, string> = {};
const at = { x: 0, y: 0 };

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  agents.large = (await createAgent(t, ada.token, { name: 'Large orders' })).id;
  agents.small = (await createAgent(t, ada.token, { name: 'Small orders' })).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

/** Start → total (code) → route: large | else small → End. */
async function totals(source: string, data: Record<string, unknown> = {}) {
  const payload: CreateWorkflowInput = {
    name: `Totals ${Math.random()}`,
    status: 'active',
    nodes: [
      { id: 'start', type: 'start', position: at },
      { id: 'total', type: 'code', position: at, data: { label: 'Total', source, ...data } },
      {
        id: 'route',
        type: 'condition',
        position: at,
        data: { branches: [{ id: 'large', label: 'Large', when: 'nodes.total.data.total > 100' }] },
      },
      { id: 'large', type: 'agent', agentId: agents.large, position: at, data: { label: 'Large' } },
      { id: 'small', type: 'agent', agentId: agents.small, position: at, data: { label: 'Small' } },
      { id: 'end', type: 'end', position: at },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'total' },
      { id: 'e2', source: 'total', target: 'route' },
      { id: 'e3', source: 'route', target: 'large', sourceHandle: 'large' },
      { id: 'e4', source: 'route', target: 'small', sourceHandle: 'else' },
      { id: 'e5', source: 'large', target: 'end' },
      { id: 'e6', source: 'small', target: 'end' },
    ],
  };
  const res = await t.request({ method: 'POST', url: '/api/workflows', token: ada.token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const stepOf = (run: Execution, nodeId: string) => run.steps?.find((s) => s.nodeId === nodeId);

describe('a code step', () => {
  it('computes a value a later condition uses, and keeps its console lines', async () => {
    const id = await totals(
      "console.log('items', input.items.length);\nreturn { total: input.items.reduce((sum, i) => sum + i.price, 0) };",
    );
    const run = await runToEnd(t, ada.token, id, { items: [{ price: 80 }, { price: 45 }] });

    expect(run.status, run.error ?? '').toBe('completed');
    const total = stepOf(run, 'total');
    expect(total?.status === 'completed' && total.output).toMatchObject({
      kind: 'code',
      content: '{"total":125}',
      data: { total: 125 },
    });
    expect(total?.evaluation).toMatchObject({ kind: 'code', result: { total: 125 }, logs: ['items 2'] });
    expect(total?.logs.map((l) => l.message)).toContain('console: items 2');
    expect(run.steps?.map((s) => s.nodeId)).toEqual(['total', 'route', 'large']);
  });

  it('fails its run readably when it runs past its time limit, and the run can be retried', async () => {
    // Loops until a moment a little ahead: the first run's step runs out of time, the retry does not.
    const until = Date.now() + 1500;
    const id = await totals(`while (Date.now() < ${until}) {}\nreturn { total: 1 };`, { timeoutMs: 200 });
    const failed = await runToEnd(t, ada.token, id, { items: [] });

    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('Code step stopped: it ran longer than 200 ms');
    expect(failed.failedStep).toBe('Total');

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now() + 50)));
    const retried = await t.request({
      method: 'POST',
      url: `/api/executions/${failed.id}/retry`,
      token: ada.token,
    });
    expect(retried.statusCode, retried.body).toBe(202);
    const done = await waitForRunEnd(t, ada.token, retried.json().id);
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.steps?.map((s) => s.nodeId)).toEqual(['total', 'route', 'small']);
  });

  it('is tested with sample data through "Test this node", its console lines in the answer', async () => {
    const id = await totals("console.log('sum');\nreturn { total: input.items.reduce((a, b) => a + b, 0) };");
    const res = await t.request({
      method: 'POST',
      url: `/api/workflows/${id}/nodes/total/test`,
      token: ada.token,
      payload: { context: { input: { items: [1, 2, 3] } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'completed',
      data: { total: 6 },
      evaluation: { kind: 'code', logs: ['sum'] },
      runId: null,
    });

    const broken = await t.request({
      method: 'POST',
      url: `/api/workflows/${id}/nodes/total/test`,
      token: ada.token,
      payload: {
        node: { id: 'total', type: 'code', position: at, data: { source: 'return process.env' } },
        context: { input: {} },
      },
    });
    expect(broken.json()).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^Code step failed: ReferenceError/),
    });
  });

  it('stores a result or a console line holding a NUL or a lone surrogate, which Postgres refuses, as U+FFFD', async () => {
    const id = await totals("console.log('a\\u0000b');\nreturn { total: 1, ['k\\u0000']: 'x\\ud800y' };");
    const run = await runToEnd(t, ada.token, id, { items: [] });
    expect(run.status, run.error ?? '').toBe('completed');
    const total = stepOf(run, 'total');
    expect(total?.status === 'completed' && total.output.data).toEqual({ total: 1, 'k\ufffd': 'x\ufffdy' });
    expect(total?.evaluation?.logs).toEqual(['a\ufffdb']);
  });

  it('refuses a workflow whose code step has no code', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/workflows',
      token: ada.token,
      payload: {
        name: 'Empty code',
        status: 'active',
        nodes: [
          { id: 'start', type: 'start', position: at },
          { id: 'total', type: 'code', position: at, data: { label: 'Total', source: ' ' } },
          { id: 'end', type: 'end', position: at },
        ],
        edges: [
          { id: 'e1', source: 'start', target: 'total' },
          { id: 'e2', source: 'total', target: 'end' },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Code \\"Total\\" has no code to run');
  });
});
