import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentExecutions, workflowExecutions, workflows } from '@crewline/db';
import type { AuthResponse, WorkflowNode } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;
let writer: { id: string };
let editor: { id: string };
let bobsAgent: { id: string };

const agent = async (token: string, name: string) =>
  (
    await t.request({ method: 'POST', url: '/api/agents', token, payload: { name, role: 'R', goal: 'G' } })
  ).json();

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  bob = await t.signup();
  writer = await agent(ada.token, 'Writer');
  editor = await agent(ada.token, 'Editor');
  bobsAgent = await agent(bob.token, 'Bob agent');
});
afterAll(() => t.close());

const start = { id: 'start', type: 'start', position: { x: 100, y: 100 }, data: { label: 'Start' } };
const end = { id: 'end', type: 'end', position: { x: 500, y: 100 }, data: { label: 'End' } };
const agentNode = (id: string, agentId: string, x = 250) => ({
  id,
  type: 'agent',
  agentId,
  position: { x, y: 120 },
  data: { label: id, agentId, outputFormat: 'text', outputDestination: 'database' },
});
const twoAgents = () => ({
  name: 'Blog pipeline',
  description: 'Write and edit a post',
  nodes: [start, agentNode('a', writer.id), agentNode('b', editor.id, 380), end],
  edges: [
    { id: 'e1', source: 'start', target: 'a' },
    { id: 'e2', source: 'a', target: 'b' },
    { id: 'e3', source: 'b', target: 'end' },
  ],
});
const create = (payload: object, token = ada.token) =>
  t.request({ method: 'POST', url: '/api/workflows', token, payload });

describe('workflows API', () => {
  it('creates a draft with the builder defaults and keeps node positions', async () => {
    const res = await create(twoAgents());
    expect(res.statusCode).toBe(201);
    const workflow = res.json();
    expect(workflow).toMatchObject({
      name: 'Blog pipeline',
      status: 'draft',
      processType: 'sequential',
      triggerType: 'manual',
      warnings: [],
      organizationId: ada.organization.id,
    });
    const one = await t.request({ method: 'GET', url: `/api/workflows/${workflow.id}`, token: ada.token });
    expect(one.json().nodes.find((n: { id: string }) => n.id === 'b').position).toEqual({ x: 380, y: 120 });
    const list = await t.request({ method: 'GET', url: '/api/workflows', token: ada.token });
    expect(list.json().map((w: { id: string }) => w.id)).toContain(workflow.id);
  });

  it('answers each structural rule with its message as a 400', async () => {
    const cases: [object, string][] = [
      [{ ...twoAgents(), name: '' }, 'Please enter a workflow name'],
      [{ ...twoAgents(), nodes: [agentNode('a', writer.id), end] }, 'Workflow must have a start node'],
      [{ ...twoAgents(), nodes: [start, agentNode('a', writer.id)] }, 'Workflow must have an end node'],
      [
        { ...twoAgents(), nodes: [start, agentNode('a', '00000000-0000-4000-8000-000000000000'), end] },
        'Step "a" uses an agent that was deleted. Open the workflow and choose another agent.',
      ],
      [
        { ...twoAgents(), triggerType: 'schedule', triggerConfig: { cron: 'soon' } },
        'Please enter a valid cron expression for scheduled workflows',
      ],
      [
        { ...twoAgents(), triggerType: 'email', triggerConfig: {} },
        'Please enter an email address for email-triggered workflows',
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await create(payload);
      expect({ message, status: res.statusCode }).toEqual({ message, status: 400 });
      expect(res.json().errors).toContainEqual({ path: '', message });
    }
  });

  it('refuses an agent of another organization', async () => {
    const res = await create({ ...twoAgents(), nodes: [start, agentNode('a', bobsAgent.id), end] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'Step "a" uses an agent that was deleted. Open the workflow and choose another agent.',
    );
  });

  it('will not run a workflow whose node was pointed at an agent of another organization behind its back', async () => {
    const workflow = (await create({ ...twoAgents(), status: 'active' })).json();
    // Only a direct write can do this: every save checks the agents against the organization's own.
    await t.db
      .update(workflows)
      .set({
        nodes: [start, agentNode('a', bobsAgent.id), agentNode('b', editor.id, 400), end] as WorkflowNode[],
      })
      .where(eq(workflows.id, workflow.id));
    const run = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflow.id}/execute`,
      token: ada.token,
      payload: {},
    });
    expect(run.statusCode).toBe(400);
    expect(run.json().message).toBe(
      'Step "a" uses an agent that was deleted. Open the workflow and choose another agent.',
    );
  });

  it('returns warnings without blocking', async () => {
    const payload = twoAgents();
    payload.nodes.push(agentNode('c', writer.id, 600));
    const res = await create(payload);
    expect(res.statusCode).toBe(201);
    expect(res.json().warnings).toEqual(['Node "c" is not connected']);
  });

  it('activates a workflow with a partial update and checks the merged structure', async () => {
    const workflow = (await create(twoAgents())).json();
    const res = await t.request({
      method: 'PUT',
      url: `/api/workflows/${workflow.id}`,
      token: ada.token,
      payload: { status: 'active' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', name: 'Blog pipeline' });
    expect(res.json().nodes).toHaveLength(4);
    const broken = await t.request({
      method: 'PUT',
      url: `/api/workflows/${workflow.id}`,
      token: ada.token,
      payload: { nodes: [start] },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBe('Workflow must have an end node');
  });

  it('deletes a workflow with its executions and their agent executions', async () => {
    const workflow = (await create(twoAgents())).json();
    const [run] = await t.db
      .insert(workflowExecutions)
      .values({ workflowId: workflow.id, organizationId: ada.organization.id, status: 'completed' })
      .returning();
    await t.db
      .insert(agentExecutions)
      .values({ workflowExecutionId: run.id, agentId: writer.id, nodeId: 'a', status: 'completed' });
    expect(
      (await t.request({ method: 'DELETE', url: `/api/workflows/${workflow.id}`, token: ada.token }))
        .statusCode,
    ).toBe(204);
    expect(await t.db.select().from(workflowExecutions).where(eq(workflowExecutions.id, run.id))).toEqual([]);
    expect(
      await t.db.select().from(agentExecutions).where(eq(agentExecutions.workflowExecutionId, run.id)),
    ).toEqual([]);
    expect(
      (await t.request({ method: 'GET', url: `/api/workflows/${workflow.id}`, token: ada.token })).statusCode,
    ).toBe(404);
  });

  it('answers 404 for another organization’s workflow and for bad ids', async () => {
    const workflow = (await create(twoAgents())).json();
    for (const [method, payload] of [['GET'], ['PUT', { name: 'Stolen' }], ['DELETE']] as const) {
      const res = await t.request({
        method,
        url: `/api/workflows/${workflow.id}`,
        token: bob.token,
        payload,
      });
      expect({ method, status: res.statusCode }).toEqual({ method, status: 404 });
    }
    expect((await t.request({ method: 'GET', url: '/api/workflows', token: bob.token })).json()).toEqual([]);
    expect(
      (await t.request({ method: 'GET', url: '/api/workflows/not-a-uuid', token: ada.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: `/api/workflows/${workflow.id}`, token: ada.token })).json()
        .name,
    ).toBe('Blog pipeline');
  });
});
