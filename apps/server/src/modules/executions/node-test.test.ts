import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { AuthResponse, CreateWorkflowInput, NodeTestResult } from '@crewline/contracts';
import { configureModel, createAgent, joinOrganization, runToEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * "Test this node" through the API, against the fake model server: one node runs with sample data or
 * the newest run's upstream data, through a run's ports, and nothing is stored as a run.
 */

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
const agents: Record<string, string> = {};
const at = { x: 0, y: 0 };
const categorySchema = {
  type: 'object',
  properties: { category: { type: 'string', enum: ['billing', 'bug', 'other'] } },
  required: ['category'],
  additionalProperties: false,
};

/** Start → classify (structured) → route → bug | else → tag (transform) → each (map) → end. */
function triage(name: string): CreateWorkflowInput {
  return {
    name,
    status: 'active',
    nodes: [
      { id: 'start', type: 'start', position: at },
      {
        id: 'classify',
        type: 'agent',
        agentId: agents.classifier,
        position: at,
        data: { label: 'Classify', outputSchema: categorySchema },
      },
      {
        id: 'route',
        type: 'condition',
        position: at,
        data: {
          label: 'Route',
          branches: [{ id: 'bug', label: 'Bug', when: 'nodes.classify.data.category == "bug"' }],
        },
      },
      {
        id: 'tag',
        type: 'transform',
        position: at,
        data: {
          label: 'Tag',
          assignments: [{ name: 'tag', value: '"[" + nodes.classify.data.category + "] " + input.message' }],
        },
      },
      {
        id: 'each',
        type: 'map',
        position: at,
        data: {
          label: 'Each lead',
          items: 'input.leads',
          run: { agentId: agents.writer, prompt: 'Enrich {{ item }}' },
          concurrency: 5,
          onItemError: 'fail',
        },
      },
      { id: 'end', type: 'end', position: at },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'classify' },
      { id: 'e2', source: 'classify', target: 'route' },
      { id: 'e3', source: 'route', target: 'tag', sourceHandle: 'bug' },
      { id: 'e4', source: 'route', target: 'end', sourceHandle: 'else' },
      { id: 'e5', source: 'tag', target: 'each' },
      { id: 'e6', source: 'each', target: 'end' },
    ],
  };
}

async function save(payload: CreateWorkflowInput, token = ada.token) {
  const res = await t.request({ method: 'POST', url: '/api/workflows', token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

function testNode(workflowId: string, nodeId: string, payload?: Record<string, unknown>, token = ada.token) {
  return t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/nodes/${nodeId}/test`,
    token,
    ...(payload ? { payload } : {}),
  });
}

async function tested(workflowId: string, nodeId: string, payload?: Record<string, unknown>) {
  const res = await testNode(workflowId, nodeId, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NodeTestResult;
}

const runCount = async () =>
  ((await t.request({ method: 'GET', url: '/api/executions', token: ada.token })).json() as unknown[]).length;
const chatRequests = () => fake.requests.filter((r) => r.method === 'POST' && !r.path.includes('embeddings'));

const sample = {
  input: { message: 'The export button crashes', leads: ['a', 'b'] },
  nodes: { classify: { content: '{"category":"bug"}', data: { category: 'bug' } } },
};

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  agents.classifier = (await createAgent(t, ada.token, { name: 'Classifier' })).id;
  agents.writer = (await createAgent(t, ada.token, { name: 'Writer' })).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

describe('testing a node with sample data', () => {
  it('evaluates a condition without a model call and returns what it evaluated; no run is stored', async () => {
    const id = await save(triage('Triage condition'));
    const before = await runCount();

    const result = await tested(id, 'route', { context: sample });

    expect(result).toEqual({
      status: 'completed',
      content: '',
      data: { branch: 'bug' },
      evaluation: {
        kind: 'condition',
        evaluated: [{ name: 'Bug', expression: 'nodes.classify.data.category == "bug"', value: true }],
        result: { branch: 'bug' },
      },
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      durationMs: expect.any(Number),
      runId: null,
    });
    expect(chatRequests()).toHaveLength(0);
    expect(await runCount()).toBe(before);
  });

  it('tests the builder’s unsaved version of the node', async () => {
    const id = await save(triage('Triage unsaved'));
    const node = {
      ...triage('x').nodes![2],
      data: { label: 'Route', branches: [{ id: 'bug', label: 'Never', when: 'false' }] },
    };
    const result = await tested(id, 'route', { node, context: sample });
    expect(result).toMatchObject({ status: 'completed', data: { branch: 'else' } });
  });

  it('asks the model for an agent’s output schema and returns the parsed data', async () => {
    const id = await save(triage('Triage agent'));
    fake.script([{ data: { category: 'billing' } }]);

    const result = await tested(id, 'classify', { context: { input: { message: 'I was charged twice' } } });

    expect(result).toMatchObject({
      status: 'completed',
      content: '{"category":"billing"}',
      data: { category: 'billing' },
      runId: null,
    });
    if (result.status !== 'completed') throw new Error(result.error);
    expect(result.usage.totalTokens).toBeGreaterThan(0);
    expect(chatRequests()).toHaveLength(1);
    expect(JSON.stringify(chatRequests()[0].body)).toContain('I was charged twice');
  });

  it('runs a transform and returns the values it set', async () => {
    const id = await save(triage('Triage transform'));
    const result = await tested(id, 'tag', { context: sample });
    expect(result).toMatchObject({
      status: 'completed',
      data: { tag: '[bug] The export button crashes' },
      evaluation: {
        kind: 'transform',
        evaluated: [{ name: 'tag', value: '[bug] The export button crashes' }],
      },
    });
  });

  it('runs a map on its first 3 items only, and says so', async () => {
    const id = await save(triage('Triage map'));
    const leads = Array.from({ length: 40 }, (_, i) => `lead-${i}`);
    fake.script(leads.map((lead) => ({ content: `Enriched ${lead}`, when: `Enrich ${lead}` })));

    const result = await tested(id, 'each', { context: { ...sample, input: { leads } } });

    expect(result).toMatchObject({ status: 'completed', note: 'Tested on the first 3 of 40 items' });
    if (result.status !== 'completed') throw new Error(result.error);
    expect((result.data as { content: string }[]).map((item) => item.content)).toEqual([
      'Enriched lead-0',
      'Enriched lead-1',
      'Enriched lead-2',
    ]);
    expect(chatRequests()).toHaveLength(3);
  });

  it('answers a node that fails as a failed result with the reason', async () => {
    const id = await save(triage('Triage failing'));
    const failing = await tested(id, 'route', { context: { input: {}, nodes: {} } });
    expect(failing).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Condition "Route": /) });

    // A Tool step calls the tool through the run's port: another organization's or a deleted tool is absent.
    const tool = {
      id: 'route',
      type: 'tool',
      position: at,
      data: { label: 'Look up', toolId: randomUUID(), arguments: {} },
    };
    const result = await tested(id, 'route', { node: tool, context: sample });
    expect(result).toMatchObject({ status: 'failed', error: expect.stringContaining('Look up') });
  });
});

describe('testing a node with the newest run’s data', () => {
  it('says there is no run yet (409) when the workflow never ran', async () => {
    const id = await save(triage('Triage never run'));
    const res = await testNode(id, 'route');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/^No run yet/);
  });

  it('uses the upstream data of the newest run that has them', async () => {
    const id = await save(triage('Triage after a run'));
    fake.script([{ data: { category: 'bug' } }, { content: 'Enriched' }]);
    const run = await runToEnd(t, ada.token, id, { message: 'It crashes', leads: ['one'] });
    expect(run.status, run.error ?? '').toBe('completed');
    fake.reset();

    const route = await tested(id, 'route');
    expect(route).toMatchObject({ status: 'completed', data: { branch: 'bug' }, runId: run.id });
    const tag = await tested(id, 'tag', {});
    expect(tag).toMatchObject({ data: { tag: '[bug] It crashes' }, runId: run.id });
    expect(chatRequests()).toHaveLength(0);
  });
});

describe('who may test what', () => {
  it('answers 404 for another organization’s workflow and for an unknown node', async () => {
    const id = await save(triage('Triage private'));
    const eve = await t.signup();
    expect((await testNode(id, 'route', { context: sample }, eve.token)).statusCode).toBe(404);
    expect((await testNode(randomUUID(), 'route', { context: sample })).statusCode).toBe(404);
    const unknown = await testNode(id, 'nope', { context: sample });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/no such node/);
  });

  it('answers 400 for a node that is not a step, or a node sent under another id', async () => {
    const id = await save(triage('Triage refusals'));
    const start = await testNode(id, 'start', { context: sample });
    expect(start.statusCode).toBe(400);
    expect(start.json().message).toBe('Only steps can be tested: Start nodes never run as steps');
    const other = await testNode(id, 'route', { node: triage('x').nodes![3], context: sample });
    expect(other.statusCode).toBe(400);
  });

  it('lets a member test, as a member may edit the workflow (there is no role above that to refuse: no 403)', async () => {
    const id = await save(triage('Triage team'));
    const bob = await joinOrganization(t, ada, await t.signup(), 'member');
    const res = await testNode(id, 'route', { context: sample }, bob.token);
    expect(res.statusCode, res.body).toBe(200);
  });
});
