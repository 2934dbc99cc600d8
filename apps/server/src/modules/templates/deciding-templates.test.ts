import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Agent, AuthResponse, Execution, Workflow, WorkflowTemplate } from '@crewline/contracts';
import { validateWorkflow } from '@crewline/engine';
import { runToEnd } from '../../testing/app-fixtures';
import type { FakeLlmServer, RecordedRequest } from '../../testing/fake-llm-server';
import { closeInOrder, startFakeModelSuite } from '../../testing/fake-model-suite';
import type { TestApp } from '../../testing/test-app';
import { decidingWorkflowTemplates } from './deciding-workflow-templates';

/*
 * The library templates that decide (issue 35): support triage routes on a structured field, lead
 * enrichment maps over a list, the draft-review loop stops when its editor approves. Each is used
 * through the API as a user would (Use template, activate, run) against the fake model server.
 */

let t: TestApp, fake: FakeLlmServer, ada: AuthResponse;
beforeAll(async () => ({ t, fake, ada } = await startFakeModelSuite()));
afterAll(() => closeInOrder(t, fake));
beforeEach(() => fake.reset());

const bySlug = new Map(decidingWorkflowTemplates.map((tpl) => [tpl.slug, tpl]));
const shipped = (slug: string) => bySlug.get(slug)!;

const chats = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
/** The last user message a model request carried (what a prompt template rendered). */
const userText = (req: RecordedRequest | undefined): string => {
  const users = ((req?.body?.messages ?? []) as { role: string; content: unknown }[]).filter(
    (m) => m.role === 'user',
  );
  const content = users.at(-1)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
};

type Step = { kind: string; status: string; content: string; data: unknown };
const outputOf = (run: Execution) => run.output as unknown as Record<string, Step>;

let copies = 0;
/** Uses the shipped template named `name` as ada, activates the workflow and answers it with its agents. */
async function use(name: string): Promise<{ workflow: Workflow; agents: Agent[] }> {
  const list = await t.request({ method: 'GET', url: '/api/templates', token: ada.token });
  const template = (list.json().workflows as WorkflowTemplate[]).find((w) => w.name === name)!;
  expect(template, name).toBeDefined();
  const made = await t.request({
    method: 'POST',
    url: `/api/templates/${template.id}/create`,
    token: ada.token,
    payload: { name: `${name} ${++copies}` },
  });
  expect(made.statusCode, made.body).toBe(201);
  const { workflow, agents } = made.json() as { workflow: Workflow; agents: Agent[] };
  // It saves as it came, and activates with no warning.
  const saved = await t.request({
    method: 'PUT',
    url: `/api/workflows/${workflow.id}`,
    token: ada.token,
    payload: { nodes: workflow.nodes, edges: workflow.edges, status: 'active' },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  expect(saved.json().warnings).toEqual([]);
  return { workflow, agents };
}

const agentNamed = (agents: Agent[], name: string) => agents.find((a) => a.name === name)!;

describe('the templates that decide', () => {
  it('ship triage, lead enrichment and the draft-review loop, each valid without errors or warnings', () => {
    expect([...bySlug.keys()]).toEqual(['routed-support-triage', 'lead-enrichment', 'draft-review-loop']);
    for (const tpl of decidingWorkflowTemplates) {
      const keys = new Set(tpl.agents.map((a) => a.key));
      const result = validateWorkflow({ ...tpl, processType: tpl.processType }, (id) => keys.has(id));
      expect(result, tpl.slug).toEqual({ errors: [], warnings: [] });
    }
  });

  it('are refused by validation when a required part is taken away', () => {
    // The checks above can fail: without its else path the triage is invalid, and so is a map over
    // an agent the template does not define.
    const triage = shipped('routed-support-triage');
    const keys = new Set(triage.agents.map((a) => a.key));
    const noElse = validateWorkflow(
      { ...triage, edges: triage.edges.filter((e) => e.sourceHandle !== 'else') },
      (id) => keys.has(id),
    );
    expect(noElse.errors.join('\n')).toMatch(/else path/);
    const leads = shipped('lead-enrichment');
    const noAgent = validateWorkflow(leads, (id) => id === 'lead-prioritizer');
    expect(noAgent.errors).not.toEqual([]);
  });

  it('give the agents whose fields the workflow reads an output schema', () => {
    const schemaOf = (slug: string, key: string) =>
      shipped(slug).agents.find((a) => a.key === key)!.outputSchema as {
        properties: Record<string, { enum?: string[] }>;
        required: string[];
      };
    const triage = schemaOf('routed-support-triage', 'classifier');
    expect(triage.properties.category.enum).toEqual(['billing', 'bug', 'other']);
    expect(triage.required).toEqual(['category', 'urgency', 'summary']);
    expect(schemaOf('lead-enrichment', 'lead-researcher').required).toEqual([
      'company',
      'website',
      'industry',
      'size',
      'summary',
    ]);
    expect(schemaOf('draft-review-loop', 'draft-editor').required).toEqual(['draft', 'approved', 'feedback']);
  });
});

describe('support triage with routing, used and run', () => {
  it.each([
    ['billing', 'I was charged twice for my March invoice', 'billing', ['bug', 'general']],
    ['other', 'Can I export my reports to a spreadsheet?', 'general', ['billing', 'bug']],
  ] as const)(
    'routes a request classified %s to one specialist; the other two are skipped and never asked',
    async (category, message, specialist, skipped) => {
      const { workflow, agents } = await use('Support Triage with Routing');
      expect(agentNamed(agents, 'Support Classifier').outputSchema).toEqual(
        shipped('routed-support-triage').agents[0].outputSchema,
      );
      expect(agentNamed(agents, 'Billing Specialist').outputSchema).toBeNull();
      fake.script([{ data: { category, urgency: 'high', summary: 'Needs help fast' }, when: message }]);

      const run = await runToEnd(t, ada.token, workflow.id, { message });

      expect(run.status, run.error ?? '').toBe('completed');
      const out = outputOf(run);
      expect(out.classify).toMatchObject({ status: 'completed', data: { category, urgency: 'high' } });
      expect(out.route).toMatchObject({
        kind: 'condition',
        data: { branch: category === 'other' ? 'else' : category },
      });
      expect(out[specialist]).toMatchObject({ kind: 'agent', status: 'completed' });
      for (const id of skipped) expect(out[id]?.status ?? 'skipped', id).toBe('skipped');
      expect(out.join).toMatchObject({ kind: 'merge', status: 'completed', data: [{ nodeId: specialist }] });
      expect(out.reply).toMatchObject({ kind: 'agent', status: 'completed' });
      // Classify, one specialist and the reply: three model calls.
      expect(chats()).toHaveLength(3);
      const reply = userText(chats().at(-1));
      expect(reply).toContain(`Classification: ${category} request, high urgency.`);
      expect(reply).toContain(message);
      expect(reply).toContain(`Specialist notes:\n${out[specialist].content}`);
    },
  );
});

describe('lead enrichment, used and run', () => {
  it('researches every lead (one result per lead, in order), keeps a failed one aside and ranks the rest', async () => {
    const { workflow, agents } = await use('Lead Enrichment');
    expect(agentNamed(agents, 'Lead Researcher').outputSchema).toMatchObject({
      required: ['company', 'website', 'industry', 'size', 'summary'],
    });
    const researcher = agentNamed(agents, 'Lead Researcher').id;
    expect(workflow.nodes.find((n) => n.id === 'enrich')?.data).toMatchObject({
      items: 'input.leads',
      run: { agentId: researcher },
      concurrency: 5,
      onItemError: 'continue',
    });
    const profile = (company: string) => ({
      company,
      website: `https://${company.toLowerCase()}.example`,
      industry: 'Software',
      size: 'small',
      summary: `${company} makes software.`,
    });
    const leads = ['Acme', 'Globex', 'Initech', 'Umbrella'].map((company) => ({ company }));
    fake.script([
      { data: profile('Acme'), when: 'Research Acme' },
      { error: { status: 400, message: 'Lead refused' }, when: 'Research Globex' },
      { data: profile('Initech'), when: 'Research Initech' },
      { data: profile('Umbrella'), when: 'Research Umbrella' },
    ]);

    const run = await runToEnd(t, ada.token, workflow.id, { leads });

    expect(run.status, run.error ?? '').toBe('completed');
    const out = outputOf(run);
    const items = out.enrich.data as { index: number; status: string; data?: { company: string } }[];
    expect(items.map((i) => [i.index, i.status, i.data?.company])).toEqual([
      [0, 'completed', 'Acme'],
      [1, 'failed', undefined],
      [2, 'completed', 'Initech'],
      [3, 'completed', 'Umbrella'],
    ]);
    expect(out.collect).toMatchObject({ kind: 'transform', data: { failed: 1 } });
    expect((out.collect.data as { profiles: unknown[] }).profiles).toEqual([
      profile('Acme'),
      profile('Initech'),
      profile('Umbrella'),
    ]);
    const rank = userText(chats().find((r) => userText(r).startsWith('Rank these enriched leads')));
    expect(rank).toContain('Leads that could not be researched: 1');
    expect(rank).toContain('https://umbrella.example');
    expect(out.rank).toMatchObject({ status: 'completed' });
  });
});

describe('the draft-review loop, used and run', () => {
  const pass = (draft: string, approved: boolean, feedback: string) => ({ draft, approved, feedback });

  it('stops at the pass its editor approves, each pass working from the last draft and feedback', async () => {
    const { workflow, agents } = await use('Draft Review Loop');
    expect(workflow.nodes.find((n) => n.id === 'revise')?.data).toMatchObject({
      run: { agentId: agentNamed(agents, 'Draft Editor').id },
      until: 'last.data.approved == true',
      maxIterations: 3,
    });
    fake.script([
      {
        data: pass('Draft one', false, 'Add a concrete example'),
        when: 'None yet: this is the first draft.',
      },
      { data: pass('Draft two', true, 'Ready to publish'), when: 'Add a concrete example' },
    ]);

    const run = await runToEnd(t, ada.token, workflow.id, { topic: 'Tide pools' });

    expect(run.status, run.error ?? '').toBe('completed');
    const passes = outputOf(run).revise.data as {
      index: number;
      data: { draft: string; approved: boolean };
    }[];
    expect(passes.map((p) => [p.index, p.data.draft, p.data.approved])).toEqual([
      [0, 'Draft one', false],
      [1, 'Draft two', true],
    ]);
    expect(chats()).toHaveLength(2);
    const [first, second] = chats().map(userText);
    expect(first).toContain('Current draft:\nTide pools');
    expect(second).toContain('Current draft:\nDraft one');
    expect(second).toContain('Feedback from the last review:\nAdd a concrete example');
  });

  it('stops after three passes when the editor never approves, and completes', async () => {
    const { workflow } = await use('Draft Review Loop');
    fake.script([
      { data: pass('Draft one', false, 'First feedback'), when: 'None yet' },
      { data: pass('Draft two', false, 'Second feedback'), when: 'First feedback' },
      { data: pass('Draft three', false, 'Third feedback'), when: 'Second feedback' },
    ]);

    const run = await runToEnd(t, ada.token, workflow.id, { topic: 'Tide pools' });

    expect(run.status, run.error ?? '').toBe('completed');
    expect((outputOf(run).revise.data as unknown[]).length).toBe(3);
    expect(chats()).toHaveLength(3);
  });
});

describe('saving a workflow that maps as a template', () => {
  it('keeps the agent the map runs (by key) with its output schema, and a copy runs on a new agent', async () => {
    const { workflow, agents } = await use('Lead Enrichment');
    const researcher = agentNamed(agents, 'Lead Researcher');
    const saved = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflow.id}/save-as-template`,
      token: ada.token,
      payload: { name: 'Our lead enrichment', category: 'Sales', tags: ['leads'] },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const template = saved.json() as WorkflowTemplate;
    expect(saved.body).not.toContain(researcher.id);
    expect(template.nodes.find((n) => n.id === 'enrich')?.data.run).toMatchObject({
      agentId: 'lead-researcher',
    });
    expect(template.agents.find((a) => a.key === 'lead-researcher')?.outputSchema).toEqual(
      researcher.outputSchema,
    );

    const copy = await t.request({
      method: 'POST',
      url: `/api/templates/${template.id}/create`,
      token: ada.token,
      payload: { name: 'Leads again' },
    });
    expect(copy.statusCode, copy.body).toBe(201);
    const made = copy.json() as { workflow: Workflow; agents: Agent[] };
    const newResearcher = agentNamed(made.agents, 'Lead Researcher');
    expect(newResearcher.id).not.toBe(researcher.id);
    expect(newResearcher.outputSchema).toEqual(researcher.outputSchema);
    expect(made.workflow.nodes.find((n) => n.id === 'enrich')?.data.run).toMatchObject({
      agentId: newResearcher.id,
    });
    await t.request({
      method: 'PUT',
      url: `/api/workflows/${made.workflow.id}`,
      token: ada.token,
      payload: { status: 'active' },
    });
    const run = await runToEnd(t, ada.token, made.workflow.id, { leads: [{ company: 'Acme' }] });
    expect(run.status, run.error ?? '').toBe('completed');
    expect(outputOf(run).enrich.data).toHaveLength(1);
  });
});
