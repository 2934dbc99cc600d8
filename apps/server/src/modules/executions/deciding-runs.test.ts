import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse, CreateWorkflowInput } from '@crewline/contracts';
import { configureModel, createAgent, runToEnd, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { mapOf } from '../../testing/workflow-shapes';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * Workflows that decide, through the API and the real AI SDK against the fake model server: a
 * structured classification routes the run down one path; the others are skipped and never reach
 * the model; the merge after them runs once; the run's details show each kind's outcome.
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

/** Support triage: classify (structured) → route → billing | bug | else general → merge → reply → end. */
function triage(overrides: Partial<CreateWorkflowInput> = {}): CreateWorkflowInput {
  return {
    name: 'Support triage',
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
          branches: [
            { id: 'billing', label: 'Billing', when: 'nodes.classify.data.category == "billing"' },
            { id: 'bug', label: 'Bug', when: 'nodes.classify.data.category == "bug"' },
          ],
        },
      },
      { id: 'billing', type: 'agent', agentId: agents.billing, position: at, data: { label: 'Billing' } },
      { id: 'bug', type: 'agent', agentId: agents.bug, position: at, data: { label: 'Bug' } },
      { id: 'general', type: 'agent', agentId: agents.general, position: at, data: { label: 'General' } },
      { id: 'join', type: 'merge', position: at, data: { mode: 'all' } },
      {
        id: 'reply',
        type: 'agent',
        agentId: agents.writer,
        position: at,
        data: {
          label: 'Reply',
          prompt:
            'Answer the {{ nodes.classify.data.category }} request: {{ input.message }} (run {{ run.id }} via {{ run.trigger }})',
        },
      },
      { id: 'end', type: 'end', position: at },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'classify' },
      { id: 'e2', source: 'classify', target: 'route' },
      { id: 'e3', source: 'route', target: 'billing', sourceHandle: 'billing' },
      { id: 'e4', source: 'route', target: 'bug', sourceHandle: 'bug' },
      { id: 'e5', source: 'route', target: 'general', sourceHandle: 'else' },
      { id: 'e6', source: 'billing', target: 'join' },
      { id: 'e7', source: 'bug', target: 'join' },
      { id: 'e8', source: 'general', target: 'join' },
      { id: 'e9', source: 'join', target: 'reply' },
      { id: 'e10', source: 'reply', target: 'end' },
    ],
    ...overrides,
  };
}

async function save(payload: CreateWorkflowInput) {
  return t.request({ method: 'POST', url: '/api/workflows', token: ada.token, payload });
}

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, emailMonitor: false });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  for (const [key, name] of [
    ['classifier', 'Classifier'],
    ['billing', 'Billing specialist'],
    ['bug', 'Bug specialist'],
    ['general', 'Generalist'],
    ['writer', 'Writer'],
  ])
    agents[key] = (await createAgent(t, ada.token, { name })).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const chatRequests = () => fake.requests.filter((r) => r.method === 'POST' && !r.path.includes('embeddings'));

describe('a run that decides', () => {
  it('routes on a structured field: only the chosen specialist is asked, the others are skipped', async () => {
    const created = await save(triage());
    expect(created.statusCode, created.body).toBe(201);
    fake.script([{ data: { category: 'bug' }, when: 'The export button crashes' }]);

    const run = await runToEnd(t, ada.token, created.json().id, { message: 'The export button crashes' });

    expect(run.status).toBe('completed');
    // Classify, the bug specialist and the reply: nobody else was sent to the model.
    expect(chatRequests()).toHaveLength(3);
    expect(run.output.classify).toMatchObject({
      kind: 'agent',
      status: 'completed',
      data: { category: 'bug' },
    });
    expect(run.output.route).toMatchObject({
      kind: 'condition',
      status: 'completed',
      data: { branch: 'bug' },
    });
    expect(run.output.billing).toMatchObject({ kind: 'agent', status: 'skipped', content: '' });
    expect(run.output.general).toMatchObject({ kind: 'agent', status: 'skipped' });
    expect(run.output.join).toMatchObject({ kind: 'merge', status: 'completed', data: [{ nodeId: 'bug' }] });
    expect(run.metrics.steps).toBe(5);
    // The reply's prompt template read the classification and the run's input.
    const last = JSON.stringify(chatRequests().at(-1)?.body);
    expect(last).toContain(`Answer the bug request: The export button crashes (run ${run.id} via manual)`);

    // The condition's step shows each expression it evaluated and the branch it took.
    const route = run.steps?.find((s) => s.nodeId === 'route');
    expect(route).toMatchObject({
      status: 'completed',
      agentId: null,
      evaluation: {
        kind: 'condition',
        evaluated: [
          { name: 'Billing', expression: 'nodes.classify.data.category == "billing"', value: false },
          { name: 'Bug', expression: 'nodes.classify.data.category == "bug"', value: true },
        ],
        result: { branch: 'bug' },
      },
    });
    expect(run.steps?.map((s) => s.nodeId)).toEqual(['classify', 'route', 'bug', 'join', 'reply']);
  });

  it('takes the else path when no branch holds', async () => {
    const created = await save(triage({ name: 'Triage else' }));
    fake.script([{ data: { category: 'other' }, when: 'Hello there' }]);
    const run = await runToEnd(t, ada.token, created.json().id, { message: 'Hello there' });
    expect(run.status).toBe('completed');
    expect(run.output.route.data).toEqual({ branch: 'else' });
    expect(run.output.general.status).toBe('completed');
    expect(['billing', 'bug'].map((id) => run.output[id].status)).toEqual(['skipped', 'skipped']);
  });

  it('fails the run with a readable error when a condition cannot be evaluated', async () => {
    const broken = triage({ name: 'Triage broken' });
    // Declared as a string, answered as a number at run time: the comparison fails.
    broken.nodes![1].data = { label: 'Classify' };
    const created = await save(broken);
    expect(created.statusCode, created.body).toBe(201);
    fake.script([{ content: 'not json at all' }]);
    const run = await runToEnd(t, ada.token, created.json().id, { message: 'x' });
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^Condition "Route": /);
    expect(chatRequests()).toHaveLength(1);
  });
});

describe('a map whose items fail', () => {
  it('fails the run naming the item, and a retry asks the model only for the items that failed', async () => {
    const leads = Array.from({ length: 10 }, (_, i) => `lead-${i}`);
    const created = await save({
      name: 'Lead enrichment',
      status: 'active',
      ...mapOf(
        { agentId: agents.writer, prompt: 'Enrich {{ item }}' },
        { concurrency: 10, onItemError: 'fail' },
      ),
    });
    expect(created.statusCode, created.body).toBe(201);
    // Three items are refused by the provider (a 400 is not retried); all ten are in flight at once.
    fake.script(
      [3, 5, 8].map((i) => ({ error: { status: 400, message: 'content policy' }, when: `Enrich lead-${i}` })),
    );
    const failed = await runToEnd(t, ada.token, created.json().id, { leads });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^Map "Enrich": item \d+ of 10 failed: /);
    expect(chatRequests()).toHaveLength(10);
    expect(
      failed.steps
        ?.filter((s) => s.status === 'completed')
        .map((s) => s.nodeId)
        .sort(),
    ).toEqual([0, 1, 2, 4, 6, 7, 9].map((i) => `enrich[${i}]`));

    fake.reset();
    const retried = await t.request({
      method: 'POST',
      url: `/api/executions/${failed.id}/retry`,
      token: ada.token,
    });
    expect(retried.statusCode, retried.body).toBe(202);
    const run = await waitForRunEnd(t, ada.token, retried.json().id);
    expect(run.status).toBe('completed');
    const asked = chatRequests().map((r) => JSON.stringify(r.body).match(/Enrich (lead-\d+)/)?.[1]);
    expect(asked.sort()).toEqual(['lead-3', 'lead-5', 'lead-8']);
    const results = run.output.enrich.data as { index: number; status: string }[];
    expect(results.map((r) => [r.index, r.status])).toEqual(leads.map((_, i) => [i, 'completed']));
  });
});

describe('a map’s list', () => {
  it('is refused past the plan’s limit, as the plan was when the run started', async () => {
    const created = await save({
      name: 'Too many leads',
      status: 'active',
      ...mapOf({ agentId: agents.writer, prompt: '{{ item }}' }),
    });
    const { limits } = (
      await t.request({ method: 'GET', url: '/api/subscription-status', token: ada.token })
    ).json() as { limits: { mapItems: number } };
    const leads = Array.from({ length: limits.mapItems + 1 }, (_, i) => i);
    const run = await runToEnd(t, ada.token, created.json().id, { leads });
    expect(run.status).toBe('failed');
    expect(run.error).toBe(`Map "Enrich" got ${leads.length} items; a map takes at most ${limits.mapItems}`);
    expect(chatRequests()).toHaveLength(0);
    const { rows } = await t.db.$client.query('select map_items from workflow_executions where id = $1', [
      run.id,
    ]);
    expect(rows[0].map_items).toBe(limits.mapItems);
  });
});

describe('saving a workflow that decides', () => {
  const messages = async (payload: CreateWorkflowInput) => {
    const res = await save(payload);
    expect(res.statusCode).toBe(400);
    return (res.json() as { errors: { message: string }[] }).errors.map((e) => e.message);
  };

  it('requires a condition’s else path', async () => {
    const draft = triage();
    draft.edges = draft.edges!.filter((e) => e.sourceHandle !== 'else');
    expect(await messages(draft)).toEqual(['Condition "Route" needs an else path']);
  });

  it('names the node and the expression that refers to an unknown field or a node not upstream', async () => {
    const draft = triage();
    draft.nodes![2].data = {
      label: 'Route',
      branches: [
        { id: 'billing', label: 'Billing', when: 'nodes.classify.data.categry == "billing"' },
        { id: 'bug', label: 'Bug', when: 'nodes.reply.content == "x"' },
      ],
    };
    const [unknownField, notUpstream] = (await messages(draft)) ?? [];
    expect(unknownField).toMatch(/^Node "Route": nodes\.classify\.data\.categry == "billing" — .*categry/);
    expect(notUpstream).toMatch(/^Node "Route": nodes\.reply\.content == "x" — .*reply/);
  });

  it('checks expressions against the agent’s own output schema when the step declares none', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Sorter' });
    const put = await t.request({
      method: 'PUT',
      url: `/api/agents/${agent.id}`,
      token: ada.token,
      payload: { outputSchema: categorySchema },
    });
    expect(put.statusCode, put.body).toBe(200);
    const draft = triage();
    draft.nodes![1] = {
      id: 'classify',
      type: 'agent',
      agentId: agent.id,
      position: at,
      data: { label: 'Classify' },
    };
    draft.nodes![2].data = {
      label: 'Route',
      branches: [{ id: 'billing', label: 'Billing', when: 'nodes.classify.data.categry == "billing"' }],
    };
    draft.edges = draft.edges!.filter((e) => e.sourceHandle !== 'bug');
    const [error] = (await messages(draft)) ?? [];
    expect(error).toMatch(/^Node "Route": nodes\.classify\.data\.categry == "billing" — .*categry/);
  });

  it('refuses a condition in a parallel workflow', async () => {
    expect(await messages(triage({ processType: 'parallel' }))).toEqual([
      'Condition "Route" works only in sequential workflows; this one is parallel',
      'Merge "Merge" works only in sequential workflows; this one is parallel',
    ]);
  });

  it('refuses data of the wrong shape with the field’s path', async () => {
    const draft = triage();
    draft.nodes![6].data = { mode: 'sometimes' };
    const res = await save(draft);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('nodes.6.data.mode');
  });
});
