import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, Usage, Workflow } from '@crewline/contracts';
import { attachNewTool, configureModel, createAgent } from '../../testing/app-fixtures';
import { createKnowledgeBase } from '../../testing/knowledge-fixtures';
import { statementsDuring } from '../../testing/statements';
import { createTestApp, type TestApp } from '../../testing/test-app';

// Safe deletes (docs/product-rules.md): what uses an agent, a tool or a knowledge base is listed before
// it goes, and a workflow left with a step on a deleted agent says so in words, on the list and on Execute.

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  bob = await t.signup();
  // Knowledge bases embed with the organization's connection; nothing is embedded here.
  await configureModel(t, ada.token, 'http://127.0.0.1:9');
});
afterAll(() => t?.close());

const deleted = (step: string) =>
  `Step "${step}" uses an agent that was deleted. Open the workflow and choose another agent.`;

/** Start → one labelled step per agent → End. */
const chain = (steps: [label: string, agentId: string][]) => {
  const nodes = [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { label: 'Start' } },
    ...steps.map(([label, agentId], i) => ({
      id: `agent-mx587z27-${i + 1}`,
      type: 'agent',
      agentId,
      position: { x: 200 * (i + 1), y: 0 },
      data: { label, agentId },
    })),
    { id: 'end', type: 'end', position: { x: 200 * (steps.length + 1), y: 0 }, data: { label: 'End' } },
  ];
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, source: nodes[i].id, target: node.id }));
  return { nodes, edges };
};

async function workflow(token: string, name: string, steps: [string, string][], status = 'active') {
  const res = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token,
    payload: { name, status, ...chain(steps) },
  });
  expect(res.statusCode).toBe(201);
  return res.json<Workflow>();
}

const get = (url: string, token = ada.token) => t.request({ method: 'GET', url, token });
const remove = (url: string, token = ada.token) => t.request({ method: 'DELETE', url, token });

/** The statements of one request that are not its sign-in check (session, membership, rate limit). */
async function ownStatements(work: () => Promise<unknown>) {
  const seen = await statementsDuring(async () => {
    await work();
  });
  return seen.filter((s) => !/auth_sessions|memberships|rate_limit|api_keys|organization_members/.test(s));
}

describe('GET /api/agents/:id/usage', () => {
  it('lists the workflows whose working copy or newest version uses the agent, in one statement', async () => {
    const analyst = await createAgent(t, ada.token, { name: 'Analyst' });
    const other = await createAgent(t, ada.token, { name: 'Other' });
    const triage = await workflow(ada.token, 'Lead triage', [['Summarize', analyst.id]]);
    const digest = await workflow(ada.token, 'Digest', [['Read', analyst.id]], 'draft');
    await workflow(ada.token, 'Unrelated', [['Read', other.id]]);
    // An active workflow edited while paused: its working copy no longer names the agent, but the
    // version it would run again on Resume was saved before, and so still does.
    const moved = await workflow(ada.token, 'Moved on', [['Summarize', analyst.id]]);
    const put = (payload: object) =>
      t.request({ method: 'PUT', url: `/api/workflows/${moved.id}`, token: ada.token, payload });
    expect((await put({ status: 'paused' })).statusCode).toBe(200);
    expect((await put(chain([['Summarize', other.id]]))).statusCode).toBe(200);

    let res!: Awaited<ReturnType<typeof get>>;
    const statements = await ownStatements(async () => {
      res = await get(`/api/agents/${analyst.id}/usage`);
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<Usage>()).toEqual({
      workflows: [
        { id: digest.id, name: 'Digest', status: 'draft' },
        { id: triage.id, name: 'Lead triage', status: 'active' },
        { id: moved.id, name: 'Moved on', status: 'paused' },
      ],
      agents: [],
    });
    expect(statements).toEqual([expect.stringContaining('workflow_versions')]);

    expect((await get(`/api/agents/${other.id}/usage`)).json<Usage>().workflows.map((w) => w.name)).toEqual([
      'Moved on',
      'Unrelated',
    ]);
  });

  it("answers 404 for another organization's agent, and for an id that is not one", async () => {
    const mine = await createAgent(t, ada.token, { name: 'Private' });
    const res = await get(`/api/agents/${mine.id}/usage`, bob.token);
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 404,
      body: { message: 'Agent not found' },
    });
    expect((await get('/api/agents/not-a-uuid/usage')).statusCode).toBe(404);
  });
});

describe('GET /api/tools/:id/usage', () => {
  it('lists the agents linked to the tool, in one statement; 404 for another organization', async () => {
    const writer = await createAgent(t, ada.token, { name: 'Writer' });
    const editor = await createAgent(t, ada.token, { name: 'Editor' });
    const tool = await attachNewTool(t, ada.token, writer.id, {
      name: 'Search',
      category: 'web',
      config: { url: 'https://example.com' },
    });
    const link = await t.request({
      method: 'POST',
      url: `/api/agents/${editor.id}/tools/${tool.id}`,
      token: ada.token,
      payload: { config: {} },
    });
    expect(link.statusCode).toBe(201);

    let res!: Awaited<ReturnType<typeof get>>;
    const statements = await ownStatements(async () => {
      res = await get(`/api/tools/${tool.id}/usage`);
    });
    expect(res.json<Usage>()).toEqual({
      workflows: [],
      agents: [
        { id: editor.id, name: 'Editor' },
        { id: writer.id, name: 'Writer' },
      ],
    });
    expect(statements).toEqual([expect.stringContaining('agent_tools')]);
    const theirs = await get(`/api/tools/${tool.id}/usage`, bob.token);
    expect({ status: theirs.statusCode, body: theirs.json() }).toEqual({
      status: 404,
      body: { message: 'Tool not found' },
    });
  });
});

describe('GET /api/knowledge-bases/:id/usage', () => {
  it('lists the vector-store tools searching it and the agents using them, in one statement', async () => {
    const base = await createKnowledgeBase(t, ada.token, { name: 'Handbook' });
    const elsewhere = await createKnowledgeBase(t, ada.token, { name: 'Elsewhere' });
    const support = await createAgent(t, ada.token, { name: 'Support' });
    const sales = await createAgent(t, ada.token, { name: 'Sales' });
    const store = await attachNewTool(t, ada.token, support.id, {
      name: 'Handbook search',
      category: 'vector_store',
      config: { knowledgeBaseId: base.id },
    });
    await attachNewTool(t, ada.token, sales.id, {
      name: 'Other search',
      category: 'vector_store',
      config: { knowledgeBaseId: elsewhere.id },
    });

    let res!: Awaited<ReturnType<typeof get>>;
    const statements = await ownStatements(async () => {
      res = await get(`/api/knowledge-bases/${base.id}/usage`);
    });
    expect(res.json<Usage>()).toEqual({
      workflows: [],
      tools: [{ id: store.id, name: 'Handbook search' }],
      agents: [{ id: support.id, name: 'Support' }],
    });
    expect(statements).toEqual([expect.stringContaining('vector_store')]);
    const theirs = await get(`/api/knowledge-bases/${base.id}/usage`, bob.token);
    expect({ status: theirs.statusCode, body: theirs.json() }).toEqual({
      status: 404,
      body: { message: 'Knowledge base not found' },
    });
  });
});

describe('a workflow whose agent was deleted', () => {
  it('stays active, needs attention in the list and the detail, and Execute says why in words', async () => {
    const summarizer = await createAgent(t, ada.token, { name: 'Summarizer' });
    const keeper = await createAgent(t, ada.token, { name: 'Keeper' });
    const broken = await workflow(ada.token, 'Lead triage', [
      ['Summarize', summarizer.id],
      ['Keep', keeper.id],
    ]);
    const healthy = await workflow(ada.token, 'Healthy', [['Keep', keeper.id]]);
    const listed = async () =>
      Object.fromEntries(
        (await get('/api/workflows')).json<Workflow[]>().map((w) => [w.id, w] as [string, Workflow]),
      );
    expect((await listed())[broken.id]).toMatchObject({ needsAttention: false, problems: [] });

    expect((await remove(`/api/agents/${summarizer.id}`)).statusCode).toBe(204);

    const after = await listed();
    expect(after[broken.id]).toMatchObject({
      status: 'active',
      needsAttention: true,
      problems: [deleted('Summarize')],
    });
    expect(after[healthy.id]).toMatchObject({ needsAttention: false, problems: [] });
    expect((await get(`/api/workflows/${broken.id}`)).json()).toMatchObject({
      status: 'active',
      needsAttention: true,
      problems: [deleted('Summarize')],
    });

    const run = await t.request({
      method: 'POST',
      url: `/api/workflows/${broken.id}/execute`,
      token: ada.token,
      payload: {},
    });
    expect({ status: run.statusCode, message: run.json().message }).toEqual({
      status: 400,
      message: deleted('Summarize'),
    });
    expect(run.body).not.toContain(summarizer.id);
    expect(run.body).not.toContain('agent-mx587z27');
  });

  it('reads the list in one statement however many workflows there are', async () => {
    const statements = await ownStatements(() => get('/api/workflows'));
    expect(statements.filter((s) => s.includes('"workflows"'))).toHaveLength(1);
  });
});
