import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { agentTemplates, workflowTemplates } from '@crewline/db';
import type {
  Agent,
  AgentTemplate,
  AuthResponse,
  TemplatesResponse,
  Workflow,
  WorkflowTemplate,
} from '@crewline/contracts';
import { configureModel, createAgent, createChainWorkflow, waitForRunEnd } from '../../testing/app-fixtures';
import type { FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder, startFakeModelSuite } from '../../testing/fake-model-suite';
import type { TestApp } from '../../testing/test-app';
import { sampleAgentTemplates, sampleWorkflowTemplates } from './sample-templates';

let t: TestApp, fake: FakeLlmServer, ada: AuthResponse;
beforeAll(async () => ({ t, fake, ada } = await startFakeModelSuite()));
afterAll(() => closeInOrder(t, fake));
beforeEach(() => fake.reset());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });

async function templates(who: AuthResponse, sort?: string): Promise<TemplatesResponse> {
  const res = await call('GET', `/api/templates${sort ? `?sort=${sort}` : ''}`, who.token);
  expect(res.statusCode).toBe(200);
  return res.json();
}

const workflowNamed = async (who: AuthResponse, name: string) =>
  (await templates(who)).workflows.find((w) => w.name === name)!;

async function useWorkflowTemplate(who: AuthResponse, template: WorkflowTemplate) {
  const res = await call('POST', `/api/templates/${template.id}/create`, who.token, {
    name: `${template.name} (Copy)`,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { workflow: Workflow; agents: Agent[] };
}

describe('the shipped library', () => {
  it('is there from the start, for every organization, with the agents each workflow needs', async () => {
    const { workflows, agents } = await templates(ada);
    expect(workflows).toHaveLength(sampleWorkflowTemplates.length);
    expect(agents).toHaveLength(sampleAgentTemplates.length);
    expect(workflows.length).toBeGreaterThanOrEqual(12);
    const blog = workflows.find((w) => w.name === 'Blog Post Pipeline')!;
    expect(blog).toMatchObject({
      category: 'Content Marketing',
      isPublic: true,
      isOwn: false,
      usageCount: 0,
    });
    expect(blog.agents.map((a) => a.key)).toHaveLength(3);
    expect(blog.nodes.filter((n) => n.type === 'agent').map((n) => n.agentId)).toEqual(
      blog.agents.map((a) => a.key),
    );
    expect(agents.every((a) => a.role && a.goal && a.systemPrompt)).toBe(true);
  });

  it('seeding again adds nothing, and brings back a sample that went missing', async () => {
    const first = await call('POST', '/api/templates/seed', ada.token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      added: { workflows: 0, agents: 0 },
      total: { workflows: sampleWorkflowTemplates.length, agents: sampleAgentTemplates.length },
    });
    await t.db.delete(workflowTemplates).where(eq(workflowTemplates.slug, sampleWorkflowTemplates[0].slug));
    await t.db.delete(agentTemplates).where(eq(agentTemplates.slug, sampleAgentTemplates[0].slug));
    const again = await call('POST', '/api/templates/seed', ada.token);
    expect(again.json().added).toEqual({ workflows: 1, agents: 1 });
    const { workflows, agents } = await templates(ada);
    expect(workflows).toHaveLength(sampleWorkflowTemplates.length);
    expect(agents).toHaveLength(sampleAgentTemplates.length);
  });

  it('seeding an unchanged library writes no row; a sample whose text changed gets the shipped text', async () => {
    const versions = async () =>
      new Map(
        (
          await t.db.execute<{ slug: string; version: string }>(
            sql`select slug, xmin::text as version from workflow_templates where slug is not null`,
          )
        ).rows.map((row) => [row.slug, row.version]),
      );
    const [sample] = sampleWorkflowTemplates;
    await t.db
      .update(workflowTemplates)
      .set({ name: 'Renamed in the database' })
      .where(eq(workflowTemplates.slug, sample.slug));
    const before = await versions();
    expect((await call('POST', '/api/templates/seed', ada.token)).statusCode).toBe(200);
    const after = await versions();
    expect(after.size).toBe(sampleWorkflowTemplates.length);
    for (const [slug, version] of after) {
      if (slug === sample.slug) expect(version).not.toBe(before.get(slug));
      else expect(version).toBe(before.get(slug));
    }
    expect((await workflowNamed(ada, sample.name)).name).toBe(sample.name);
  });

  it('serves the landing page a summary, signed out', async () => {
    const res = await t.request({ method: 'GET', url: '/api/templates/library' });
    expect(res.statusCode).toBe(200);
    const { workflows } = res.json() as { workflows: { name: string; agentCount: number }[] };
    expect(workflows).toHaveLength(sampleWorkflowTemplates.length);
    expect(workflows.find((w) => w.name === 'Blog Post Pipeline')?.agentCount).toBe(3);
    expect(res.body).not.toContain('systemPrompt');
  });
});

describe('using a template', () => {
  it('every shipped workflow template makes a valid workflow that runs to completed', async () => {
    const who = await t.signup();
    await configureModel(t, who.token, fake.url);
    for (const template of (await templates(who)).workflows) {
      const { workflow, agents } = await useWorkflowTemplate(who, template);
      expect(workflow).toMatchObject({
        name: `${template.name} (Copy)`,
        status: 'draft',
        processType: template.processType,
        triggerType: template.triggerType,
        templateCategory: template.category,
      });
      expect(agents).toHaveLength(template.agents.length);
      const ids = new Set(agents.map((a) => a.id));
      for (const node of workflow.nodes.filter((n) => n.type === 'agent')) {
        expect(ids.has(node.agentId!)).toBe(true);
        expect(node.data.agentId).toBe(node.agentId);
      }
      const activated = await call('PUT', `/api/workflows/${workflow.id}`, who.token, { status: 'active' });
      expect(activated.statusCode, `${template.name}: ${activated.body}`).toBe(200);
      expect(activated.json().warnings).toEqual([]);
      // What every template reads of its input: a topic, a support message, a list of leads.
      const run = await call('POST', `/api/workflows/${workflow.id}/execute`, who.token, {
        input: { topic: 'Tide pools', message: 'Tide pools', leads: [{ company: 'Tide pools' }] },
      });
      expect(run.statusCode, run.body).toBe(202);
      const ended = await waitForRunEnd(t, who.token, run.json().id, 30_000);
      expect(ended.status, `${template.name}: ${ended.error}`).toBe('completed');
    }
  });

  it('reuses the agents made from the same template, counts each use, and answers 404 for an unknown id', async () => {
    const who = await t.signup();
    const blog = await workflowNamed(who, 'Blog Post Pipeline');
    const first = await useWorkflowTemplate(who, blog);
    const second = await useWorkflowTemplate(who, blog);
    expect(second.agents.map((a) => a.id).sort()).toEqual(first.agents.map((a) => a.id).sort());
    const agents = (await call('GET', '/api/agents', who.token)).json() as Agent[];
    expect(agents).toHaveLength(3);
    expect((await workflowNamed(who, 'Blog Post Pipeline')).usageCount).toBe(blog.usageCount + 2);

    const missing = await call(
      'POST',
      '/api/templates/00000000-0000-4000-8000-000000000000/create',
      who.token,
      {
        name: 'x',
      },
    );
    expect(missing.statusCode).toBe(404);
    expect((await call('POST', '/api/templates/not-an-id/create', who.token, { name: 'x' })).statusCode).toBe(
      404,
    );
    expect(
      (await call('POST', `/api/templates/${blog.id}/create`, who.token, { name: ' ' })).statusCode,
    ).toBe(400);
  });

  it('an agent template makes an agent with its definition', async () => {
    const who = await t.signup();
    const [template] = (await templates(who)).agents;
    const res = await call('POST', `/api/templates/agents/${template.id}/create`, who.token, {
      name: 'My helper',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'My helper',
      role: template.role,
      goal: template.goal,
      systemPrompt: template.systemPrompt,
      templateCategory: template.category,
    });
    const after = (await templates(who)).agents.find((a) => a.id === template.id)!;
    expect(after.usageCount).toBe(template.usageCount + 1);
  });

  it('counts the agents a workflow template needs against the plan', async () => {
    const who = await t.signup({ plan: 'starter' });
    for (let i = 0; i < 3; i++) await createAgent(t, who.token, { name: `Agent ${i}` });
    const blog = await workflowNamed(who, 'Blog Post Pipeline');
    const res = await call('POST', `/api/templates/${blog.id}/create`, who.token, { name: 'Blog (Copy)' });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'plan_limit', limit: 'agents', plan: 'starter' });
    expect((await call('GET', '/api/agents', who.token)).json()).toHaveLength(3);
    expect((await call('GET', '/api/workflows', who.token)).json()).toHaveLength(0);
  });
});

describe('sort', () => {
  it('orders by usage for Most Popular, by creation for Most Recent, by name for Highest Rated', async () => {
    const who = await t.signup();
    const byName = (await templates(who, 'rating')).workflows.map((w) => w.name);
    const lower = byName.map((name) => name.toLowerCase());
    expect(lower).toEqual([...lower].sort());
    // The last by name, used more than any other, comes first.
    const last = await workflowNamed(who, byName[byName.length - 1]);
    const most = Math.max(...(await templates(who)).workflows.map((w) => w.usageCount));
    for (let i = 0; i <= most - last.usageCount; i++) await useWorkflowTemplate(who, last);
    const popular = (await templates(who, 'popular')).workflows;
    expect(popular[0].id).toBe(last.id);
    expect(popular.map((w) => w.usageCount)).toEqual(
      [...popular.map((w) => w.usageCount)].sort((a, b) => b - a),
    );
    const agentId = (await createAgent(t, who.token, { name: 'Mine' })).id;
    await call('POST', `/api/agents/${agentId}/save-as-template`, who.token, {
      name: 'Newest of all',
      category: 'Operations',
    });
    expect((await templates(who, 'recent')).agents[0].name).toBe('Newest of all');
    expect((await call('GET', '/api/templates?sort=cheapest', who.token)).statusCode).toBe(400);
  });
});

describe('save as template', () => {
  it('keeps a workflow with its agents private to the organization, without its webhook secret', async () => {
    const who = await t.signup();
    const other = await t.signup();
    await configureModel(t, who.token, fake.url);
    const writer = await createAgent(t, who.token, { name: 'Writer', systemPrompt: 'Write well.' });
    const editor = await createAgent(t, who.token, { name: 'Writer' });
    const workflowId = await createChainWorkflow(t, who.token, 'Ours', [writer.id, editor.id], {
      triggerType: 'webhook',
      triggerConfig: { secret: 'a-very-secret-webhook-value-0123456789' },
    });
    const saved = await call('POST', `/api/workflows/${workflowId}/save-as-template`, who.token, {
      name: 'Our pipeline',
      description: 'Two writers',
      category: 'Operations',
      tags: ['internal'],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const template = saved.json() as WorkflowTemplate;
    expect(template).toMatchObject({ isOwn: true, isPublic: false, category: 'Operations', usageCount: 0 });
    expect(template.agents.map((a) => a.key)).toEqual(['writer', 'writer-2']);
    expect(template.agents[0].systemPrompt).toBe('Write well.');
    expect(saved.body).not.toContain('a-very-secret-webhook-value');
    expect(saved.body).not.toContain(writer.id);

    const mine = await templates(who);
    expect(mine.workflows.filter((w) => w.isOwn).map((w) => w.name)).toEqual(['Our pipeline']);
    const theirs = await templates(other);
    expect(theirs.workflows.some((w) => w.id === template.id)).toBe(false);
    const stolen = await call('POST', `/api/templates/${template.id}/create`, other.token, {
      name: 'Mine now',
    });
    expect(stolen.statusCode).toBe(404);

    // Used again, the copy runs: new agents from the saved definitions, a new webhook secret.
    const { workflow, agents } = await useWorkflowTemplate(who, template);
    expect(agents.map((a) => a.name)).toEqual(['Writer', 'Writer']);
    expect(agents.some((a) => a.id === writer.id)).toBe(false);
    await call('PUT', `/api/workflows/${workflow.id}`, who.token, { status: 'active' });
    const run = await call('POST', `/api/workflows/${workflow.id}/execute`, who.token, { input: {} });
    expect((await waitForRunEnd(t, who.token, run.json().id)).status).toBe('completed');

    const otherAgent = await createAgent(t, other.token, { name: 'Theirs' });
    const foreign = await call('POST', `/api/agents/${otherAgent.id}/save-as-template`, who.token, {
      name: 'x',
      category: 'y',
    });
    expect(foreign.statusCode).toBe(404);
    const foreignWorkflow = await call('POST', `/api/workflows/${workflowId}/save-as-template`, other.token, {
      name: 'x',
      category: 'y',
    });
    expect(foreignWorkflow.statusCode).toBe(404);
  });

  it('saves an agent as a private template without its tools', async () => {
    const who = await t.signup();
    const agent = await createAgent(t, who.token, { name: 'Analyst', tools: ['web_search'] });
    const res = await call('POST', `/api/agents/${agent.id}/save-as-template`, who.token, {
      name: 'Our analyst',
      category: 'Business Intelligence',
      tags: ['kpi', 'weekly', 'finance'],
    });
    expect(res.statusCode).toBe(201);
    const template = res.json() as AgentTemplate;
    expect(template).toMatchObject({ name: 'Our analyst', role: 'Analyst role', tools: [], isOwn: true });
    const other = await t.signup();
    expect((await templates(other)).agents.some((a) => a.id === template.id)).toBe(false);
  });
});
