import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents, workflowExecutions, workflows } from '@crewline/db';
import type { AuthResponse } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  bob = await t.signup();
  const org = ada.organization.id;
  await t.db.insert(agents).values([
    { name: 'Researcher', role: 'Research', goal: 'Find facts', status: 'active', organizationId: org },
    { name: 'Writer', role: 'Write', goal: 'Write posts', status: 'inactive', organizationId: org },
    { name: 'Editor', role: 'Edit', goal: 'Edit posts', status: 'active', organizationId: org },
  ]);
  const [flow, draft] = await t.db
    .insert(workflows)
    .values([
      { name: 'Blog pipeline', status: 'active', organizationId: org, nodes: [], edges: [] },
      { name: 'Draft flow', status: 'draft', organizationId: org, nodes: [], edges: [] },
    ])
    .returning();
  const run = (status: 'completed' | 'failed' | 'running', seconds: number, startedMinutesAgo: number) => ({
    workflowId: flow.id,
    organizationId: org,
    status,
    triggeredBy: ada.user.id,
    createdAt: minutesAgo(startedMinutesAgo),
    startedAt: minutesAgo(startedMinutesAgo),
    completedAt:
      status === 'running' ? null : new Date(minutesAgo(startedMinutesAgo).getTime() + seconds * 1000),
  });
  await t.db.insert(workflowExecutions).values([
    run('completed', 10, 5),
    run('completed', 20, 60),
    run('completed', 30, 3 * 24 * 60), // older than a day: not recent
    run('failed', 4, 10),
    run('running', 0, 1),
  ]);
  // Bob's organization has a workflow with a run that must never show up in Ada's figures.
  const [bobFlow] = await t.db
    .insert(workflows)
    .values({
      name: 'Bob secret flow',
      status: 'active',
      organizationId: bob.organization.id,
      nodes: [],
      edges: [],
    })
    .returning();
  await t.db
    .insert(workflowExecutions)
    .values({ workflowId: bobFlow.id, organizationId: bob.organization.id, status: 'failed' });
  void draft;
});
afterAll(() => t.close());

describe('organization stats', () => {
  it('computes every figure from the organization’s own rows', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/organizations/${ada.organization.id}/stats`,
      token: ada.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      totalAgents: 3,
      activeAgents: 2,
      totalWorkflows: 2,
      activeWorkflows: 1,
      totalExecutions: 5,
      recentExecutions: 4,
      successRate: 75, // 3 completed of 4 finished
      failedExecutions: 1,
      avgExecutionTime: 16, // (10 + 20 + 30 + 4) / 4
    });
  });

  it('answers an empty organization with zeros and no success rate yet', async () => {
    const carol = await t.signup();
    const res = await t.request({
      method: 'GET',
      url: `/api/organizations/${carol.organization.id}/stats`,
      token: carol.token,
    });
    expect(res.json()).toMatchObject({
      totalAgents: 0,
      totalExecutions: 0,
      successRate: null,
      avgExecutionTime: 0,
    });
  });

  it('answers 404 for another organization’s id', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/organizations/${ada.organization.id}/stats`,
      token: bob.token,
    });
    expect(res.statusCode).toBe(404);
    const activity = await t.request({
      method: 'GET',
      url: `/api/organizations/${ada.organization.id}/activity`,
      token: bob.token,
    });
    expect(activity.statusCode).toBe(404);
  });
});

describe('activity and lists', () => {
  it('lists the newest activity of the organization only', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/organizations/${ada.organization.id}/activity`,
      token: ada.token,
    });
    const { items } = res.json();
    expect(items).toHaveLength(5);
    const times = items.map((i: { at: string }) => Date.parse(i.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(JSON.stringify(items)).not.toContain('Bob secret flow');
  });

  it('names who did each thing: who saved the agent or workflow, who started the run, or its trigger', async () => {
    const carol = await t.signup({ firstName: 'Carol', lastName: 'Shaw' });
    const created = await t.request({
      method: 'POST',
      url: '/api/agents',
      token: carol.token,
      payload: { name: 'Scout', role: 'Scouting', goal: 'Find leads' },
    });
    expect(created.statusCode).toBe(201);
    const [flow] = await t.db
      .insert(workflows)
      .values({
        name: 'Inbox flow',
        status: 'active',
        organizationId: carol.organization.id,
        nodes: [],
        edges: [],
      })
      .returning();
    await t.db.insert(workflowExecutions).values([
      { workflowId: flow.id, organizationId: carol.organization.id, status: 'completed', trigger: 'webhook' },
      {
        workflowId: flow.id,
        organizationId: carol.organization.id,
        status: 'completed',
        triggeredBy: carol.user.id,
        createdAt: minutesAgo(1),
      },
    ]);
    const res = await t.request({
      method: 'GET',
      url: `/api/organizations/${carol.organization.id}/activity`,
      token: carol.token,
    });
    const items = res.json().items as { kind: string; title: string; actor: string | null }[];
    expect(items.find((i) => i.title === 'Scout')).toMatchObject({
      kind: 'agent_created',
      actor: 'Carol Shaw',
    });
    const runs = items.filter((i) => i.kind === 'execution').map((i) => i.actor);
    expect(runs.sort()).toEqual(['Carol Shaw', 'Webhook']);
    // A workflow written without a person (here straight into the database) names nobody.
    expect(items.find((i) => i.kind === 'workflow_created')).toMatchObject({
      title: 'Inbox flow',
      actor: null,
    });
  });

  it('lists executions newest first with workflow name and who triggered them', async () => {
    const res = await t.request({ method: 'GET', url: '/api/executions', token: ada.token });
    const list = res.json();
    expect(list).toHaveLength(5);
    expect(list[0]).toMatchObject({
      status: 'running',
      workflowName: 'Blog pipeline',
      processType: 'sequential',
      triggeredByName: ada.user.firstName + ' ' + ada.user.lastName,
    });
    const bobs = await t.request({ method: 'GET', url: '/api/executions', token: bob.token });
    expect(bobs.json()).toHaveLength(1);
    expect(bobs.json()[0].workflowName).toBe('Bob secret flow');
  });

  it('lists agents and workflows of the organization only', async () => {
    const agentsRes = await t.request({ method: 'GET', url: '/api/agents', token: bob.token });
    expect(agentsRes.json()).toEqual([]);
    const mine = await t.request({ method: 'GET', url: '/api/agents', token: ada.token });
    expect(
      mine
        .json()
        .map((a: { name: string }) => a.name)
        .sort(),
    ).toEqual(['Editor', 'Researcher', 'Writer']);
    expect(mine.json()[0]).toMatchObject({
      llmProvider: 'openai',
      llmModel: 'gpt-4o',
      temperature: 70,
      maxTokens: 2000,
    });
    const flows = await t.request({ method: 'GET', url: '/api/workflows', token: bob.token });
    expect(flows.json().map((w: { name: string }) => w.name)).toEqual(['Bob secret flow']);
  });

  it('reports real system status', async () => {
    const res = await t.request({ method: 'GET', url: '/api/system/status', token: ada.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      api: { status: 'operational' },
      database: { status: 'operational' },
      workflowEngine: { status: 'down', detail: 'No worker is running' },
      llmProviders: { status: 'not_configured', configured: [] },
    });
    expect(res.json().responseTimeMs).toBeGreaterThan(0);
  });
});
