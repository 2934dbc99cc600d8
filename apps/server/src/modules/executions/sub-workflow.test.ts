import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse, CreateWorkflowInput, Execution } from '@crewline/contracts';
import {
  configureModel,
  createAgent,
  createChainWorkflow,
  runToEnd,
  waitForRunEnd,
} from '../../testing/app-fixtures';
import { chainOf } from '../../testing/workflow-shapes';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * Maps and loops that run another workflow of the organization (sub-workflow.ts), through the API
 * and the worker against the fake model server: the child runs at the version it had when the run
 * was created, its tokens count with the run's, a workflow that runs itself is refused at save or
 * fails its run readably, and a cancel stops a child mid-way.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
const agents: Record<string, string> = {};
const at = { x: 0, y: 0 };

type ItemResult = { index: number; status: string; content: string; error?: string };

async function save(payload: CreateWorkflowInput) {
  return t.request({ method: 'POST', url: '/api/workflows', token: ada.token, payload });
}

async function created(payload: CreateWorkflowInput): Promise<string> {
  const res = await save(payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** Start → a map over `items` running `workflowId` → End (an agent `before` the map when given). */
function mapOver(
  name: string,
  workflowId: string,
  { items = 'input.items', before }: { items?: string; before?: string } = {},
): CreateWorkflowInput {
  const first = before ? 'intro' : 'each';
  return {
    name,
    status: 'active',
    nodes: [
      { id: 'start', type: 'start', position: at },
      ...(before
        ? [{ id: 'intro', type: 'agent' as const, agentId: before, position: at, data: { label: 'Intro' } }]
        : []),
      {
        id: 'each',
        type: 'map',
        position: at,
        data: { label: 'Each', items, run: { workflowId }, concurrency: 3, onItemError: 'fail' },
      },
      { id: 'end', type: 'end', position: at },
    ],
    edges: [
      { id: 'e1', source: 'start', target: first },
      ...(before ? [{ id: 'e0', source: 'intro', target: 'each' }] : []),
      { id: 'e2', source: 'each', target: 'end' },
    ],
  };
}

const chatRequests = () => fake.requests.filter((r) => r.method === 'POST' && !r.path.includes('embeddings'));
/** The system prompt of each model request: which agent was asked (an agent's role is "<name> role"). */
const askedRoles = () =>
  chatRequests().map((r) => JSON.stringify(r.body).match(/(Drafter|Editor|Old|New|Slow|Intro) role/)?.[1]);

async function execute(workflowId: string, input: Record<string, unknown> = {}): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token: ada.token,
    payload: { input },
  });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().id;
}

async function details(id: string): Promise<Execution> {
  return (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json();
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;)
    if (check()) return;
    else await new Promise((resolve) => setTimeout(resolve, 20));
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  for (const name of ['Drafter', 'Editor', 'Old', 'New', 'Slow', 'Intro'])
    agents[name] = (await createAgent(t, ada.token, { name })).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

describe('a map that runs another workflow', () => {
  it('runs the child workflow for each item: its answers in item order, its tokens in the run', async () => {
    const child = await createChainWorkflow(t, ada.token, 'Draft and edit', [agents.Drafter, agents.Editor]);
    const parent = await created(mapOver('Fruit pages', child));
    fake.script(
      ['apple', 'banana', 'cherry'].flatMap((fruit) => [
        { content: `draft about ${fruit}`, when: fruit },
        { content: `page about ${fruit}`, when: fruit },
      ]),
    );

    const run = await runToEnd(t, ada.token, parent, { items: ['apple', 'banana', 'cherry'] });

    expect(run.status, run.error ?? '').toBe('completed');
    // Two agents for each of three items, each asked once.
    expect(chatRequests()).toHaveLength(6);
    expect(askedRoles().sort()).toEqual([...Array(3).fill('Drafter'), ...Array(3).fill('Editor')].sort());
    const results = run.output.each.data as ItemResult[];
    expect(results.map((r) => [r.index, r.status, r.content])).toEqual([
      [0, 'completed', 'page about apple'],
      [1, 'completed', 'page about banana'],
      [2, 'completed', 'page about cherry'],
    ]);
    // Each item is one stored child step (the child's own steps are not stored), with its tokens.
    const items = (run.steps ?? []).filter((s) => s.nodeId.startsWith('each['));
    expect(items.map((s) => s.nodeId).sort()).toEqual(['each[0]', 'each[1]', 'each[2]']);
    expect(run.steps?.some((s) => ['n1', 'n2'].includes(s.nodeId))).toBe(false);
    const itemTokens = items.map((s) => run.output[s.nodeId].usage.totalTokens);
    // Two model calls of at least two tokens each, per item.
    for (const tokens of itemTokens) expect(tokens).toBeGreaterThanOrEqual(4);
    expect(run.metrics.totalTokens).toBe(itemTokens.reduce((a, b) => a + b, 0));
  });

  it('runs the version the child had when the run was created, not one saved after', async () => {
    const child = await createChainWorkflow(t, ada.token, 'Pinned child', [agents.Old]);
    const parent = await created(mapOver('Pinned parent', child, { before: agents.Intro }));
    // The run's first step is slow, so the child is read after the edit below.
    fake.script([{ content: 'intro', delayMs: 400, when: 'only' }]);

    const id = await execute(parent, { items: ['only'] });
    const edit = await t.request({
      method: 'PUT',
      url: `/api/workflows/${child}`,
      token: ada.token,
      payload: chainOf([agents.New]),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const run = await waitForRunEnd(t, ada.token, id);

    expect(run.status, run.error ?? '').toBe('completed');
    expect(askedRoles()).toEqual(['Intro', 'Old']);

    // A run created after the edit runs the new version.
    fake.reset();
    const next = await runToEnd(t, ada.token, parent, { items: ['only'] });
    expect(next.status, next.error ?? '').toBe('completed');
    expect(askedRoles()).toEqual(['Intro', 'New']);
  });

  it('fails the item with a clear message when the child workflow is paused', async () => {
    const child = await createChainWorkflow(t, ada.token, 'Paused child', [agents.Old]);
    const parent = await created(mapOver('Parent of paused', child));
    const paused = await t.request({
      method: 'PUT',
      url: `/api/workflows/${child}`,
      token: ada.token,
      payload: { status: 'paused' },
    });
    expect(paused.statusCode, paused.body).toBe(200);

    const run = await runToEnd(t, ada.token, parent, { items: ['x'] });

    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      'Map "Each": item 1 of 1 failed: Workflow "Paused child" is paused: activate it so that other workflows can run it',
    );
    expect(chatRequests()).toHaveLength(0);
  });
});

describe('a loop that runs another workflow', () => {
  it('runs the child again until its answer says stop', async () => {
    const child = await createChainWorkflow(t, ada.token, 'Review once', [agents.Editor]);
    const parent = await created({
      name: 'Review until done',
      status: 'active',
      nodes: [
        { id: 'start', type: 'start', position: at },
        {
          id: 'review',
          type: 'loop',
          position: at,
          data: {
            label: 'Review',
            run: { workflowId: child },
            until: 'last.content == "stop"',
            maxIterations: 5,
          },
        },
        { id: 'end', type: 'end', position: at },
      ],
      edges: [
        { id: 'e1', source: 'start', target: 'review' },
        { id: 'e2', source: 'review', target: 'end' },
      ],
    });
    fake.script([{ content: 'again' }, { content: 'stop' }]);

    const run = await runToEnd(t, ada.token, parent);

    expect(run.status, run.error ?? '').toBe('completed');
    expect(chatRequests()).toHaveLength(2);
    expect((run.output.review.data as ItemResult[]).map((p) => p.content)).toEqual(['again', 'stop']);
    expect(run.steps?.map((s) => s.nodeId).filter((id) => id.startsWith('review#'))).toEqual([
      'review#1',
      'review#2',
    ]);
  });
});

describe('workflows that run themselves', () => {
  it('refuses at save a map that runs its own workflow, or a workflow that does not exist', async () => {
    const parent = await created(
      mapOver('Self', await createChainWorkflow(t, ada.token, 'Any', [agents.Old])),
    );
    const self = await t.request({
      method: 'PUT',
      url: `/api/workflows/${parent}`,
      token: ada.token,
      payload: mapOver('Self', parent),
    });
    expect(self.statusCode).toBe(400);
    expect(self.json().errors.map((e: { message: string }) => e.message)).toEqual([
      'Map "Each" cannot run its own workflow: choose another workflow or an agent.',
    ]);

    const missing = await save(mapOver('Missing', '00000000-0000-4000-8000-000000000000'));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { message: string }) => e.message)).toEqual([
      'Map "Each" runs a workflow that does not exist. Open the workflow and choose another workflow.',
    ]);
  });

  it('fails a run whose workflows run each other, naming the loop, before any model call', async () => {
    const b = await createChainWorkflow(t, ada.token, 'B', [agents.Old]);
    const a = await created(mapOver('A', b, { items: '[1]' }));
    const loopBack = await t.request({
      method: 'PUT',
      url: `/api/workflows/${b}`,
      token: ada.token,
      payload: mapOver('B', a, { items: '[1]' }),
    });
    expect(loopBack.statusCode, loopBack.body).toBe(200);

    const run = await runToEnd(t, ada.token, a);

    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      'Map "Each": item 1 of 1 failed: Workflow "B" failed: Map "Each": item 1 of 1 failed: ' +
        'Workflow "A" runs itself ("A" → "B" → "A"): a workflow cannot run itself, directly or through others',
    );
    expect(chatRequests()).toHaveLength(0);
  });

  it('runs workflows nested 3 deep, and fails one nested deeper', async () => {
    let inner = await createChainWorkflow(t, ada.token, 'Depth 4', [agents.Old]);
    const ids: string[] = [];
    for (const depth of [3, 2, 1, 0]) {
      inner = await created(mapOver(`Depth ${depth}`, inner, { items: '[1]' }));
      ids.push(inner);
    }
    const [, , depth1, depth0] = ids;

    const deep = await runToEnd(t, ada.token, depth0);
    expect(deep.status).toBe('failed');
    expect(deep.error).toMatch(
      /Workflows run inside one another at most 3 deep \("Depth 0" → "Depth 1" → "Depth 2" → "Depth 3" → …\)$/,
    );
    expect(chatRequests()).toHaveLength(0);

    // From one level down, the agent's workflow sits 3 deep: it runs.
    const ok = await runToEnd(t, ada.token, depth1);
    expect(ok.status, ok.error ?? '').toBe('completed');
    expect(chatRequests()).toHaveLength(1);
  });
});

describe('cancelling a run while a child workflow runs', () => {
  it('stops the child: its next agent is never asked and the run ends cancelled', async () => {
    const child = await createChainWorkflow(t, ada.token, 'Slow child', [agents.Slow, agents.Editor]);
    const parent = await created(mapOver('Parent of slow', child));
    fake.script([{ content: 'slow answer', delayMs: 5_000 }]);

    const id = await execute(parent, { items: ['one'] });
    await until(() => chatRequests().length === 1, 'the child to ask its first agent');
    const cancel = await t.request({ method: 'POST', url: `/api/executions/${id}/cancel`, token: ada.token });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const run = await waitForRunEnd(t, ada.token, id);

    expect(run.status).toBe('cancelled');
    // The attempt ends with the cancel, not when the slow answer would have come (5 s).
    await until(() => !t.services.runner.activeRuns().includes(id), 'the attempt to end', 2_000);
    const stored = await details(id);
    expect(stored.steps?.some((s) => s.nodeId === 'each[0]' && s.status === 'completed')).toBe(false);
    // Long enough for the slow answer's successor to have been asked, had the child gone on.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(askedRoles()).toEqual(['Slow']);
  });
});
