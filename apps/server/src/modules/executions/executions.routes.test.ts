import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentExecutions } from '@crewline/db';
import { executionMessages, type AuthResponse, type Execution } from '@crewline/contracts';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder } from '../../testing/fake-model-suite';
import { chainOf, fanOf } from '../../testing/workflow-shapes';
import { configureModel, waitForRunEnd } from '../../testing/app-fixtures';

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;
let fake: FakeLlmServer;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true });
  ada = await t.signup({ firstName: 'Ada', lastName: 'Lovelace' });
  bob = await t.signup();
  await configureModel(t, ada.token, fake.url, { defaultModel: 'gpt-4o' });
});
afterAll(() => closeInOrder(t, fake));
beforeEach(() => fake.reset());

async function createAgent(name: string, fields: Record<string, unknown> = {}) {
  const res = await t.request({
    method: 'POST',
    url: '/api/agents',
    token: ada.token,
    payload: { name, role: `${name} role`, goal: `${name} goal`, llmModel: 'gpt-4o', ...fields },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; name: string };
}

type Shape = { processType?: string; status?: string; agents: { id: string }[]; chain?: boolean };

/** Start → agents → End; `chain` links the agents one after another, otherwise each hangs off Start. */
async function createWorkflow({
  processType = 'sequential',
  status = 'active',
  agents,
  chain = true,
}: Shape) {
  const { nodes, edges } = (chain ? chainOf : fanOf)(agents.map((a) => a.id));
  const res = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: { name: `Flow ${Math.random().toString(36).slice(2, 7)}`, processType, status, nodes, edges },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; name: string };
}

const execute = (workflowId: string, payload: object = {}, token = ada.token) =>
  t.request({ method: 'POST', url: `/api/workflows/${workflowId}/execute`, token, payload });

const waitForEnd = (id: string, token = ada.token) => waitForRunEnd(t, token, id);

/** The user message of each model request, in the order the fake server received them. */
const prompts = () =>
  fake.requests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map(
      (r) => (r.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content,
    );

describe('POST /api/workflows/:id/execute', () => {
  it('answers 202 with the run at once (claimed by the idle worker as it started), which the worker runs to completed', async () => {
    const writer = await createAgent('Writer');
    const workflow = await createWorkflow({ agents: [writer] });
    fake.script([{ content: 'A short poem', delayMs: 300 }]);

    const res = await execute(workflow.id, { input: { topic: 'sea' } });
    expect(res.statusCode).toBe(202);
    const queued = res.json() as Execution;
    expect(queued).toMatchObject({
      workflowId: workflow.id,
      workflowName: workflow.name,
      processType: 'sequential',
      // The worker's loops are idle and nothing else waits: the insert claimed it (decision 0058).
      status: 'running',
      input: { topic: 'sea' },
      triggeredBy: ada.user.id,
      triggeredByName: 'Ada Lovelace',
    });

    const done = await waitForEnd(queued.id);
    expect(done.status).toBe('completed');
    expect(done.startedAt).not.toBeNull();
    expect(done.completedAt).not.toBeNull();
    expect(done.output.n1).toMatchObject({ content: 'A short poem', metadata: { agentName: 'Writer' } });
    // Events travel through Postgres NOTIFY, so they may arrive just after the row reads completed.
    await expect
      .poll(() => t.published.map((e) => e.type))
      .toEqual(
        expect.arrayContaining([
          'workflow_execution_created',
          'workflow_execution_started',
          'execution_node_started',
          'execution_node_completed',
          'workflow_execution_completed',
        ]),
      );
  });

  it("sequential: passes A's output into B's prompt and stores both outputs by node id with tokens and times", async () => {
    const a = await createAgent('Researcher');
    const b = await createAgent('Editor');
    const workflow = await createWorkflow({ agents: [a, b] });
    fake.script([{ content: 'FACTS-FROM-A' }, { content: 'Edited article' }]);

    const res = await execute(workflow.id, {
      input: { topic: 'tides' },
      dynamicInstructions: 'Write for children',
      parameters: { tone: 'playful' },
    });
    const done = await waitForEnd(res.json().id);

    expect(done.status).toBe('completed');
    const [first, second] = prompts();
    for (const prompt of [first, second]) {
      expect(prompt).toContain('tides');
      expect(prompt).toContain('Write for children');
      expect(prompt).toContain('tone');
      expect(prompt).toContain('playful');
    }
    expect(first).not.toContain('FACTS-FROM-A');
    expect(second).toContain('FACTS-FROM-A');

    const output = done.output as Record<
      string,
      { content: string; executionTime: number; usage: { totalTokens: number } }
    >;
    expect(Object.keys(output).sort()).toEqual(['n1', 'n2']);
    expect(output.n1.content).toBe('FACTS-FROM-A');
    expect(output.n2.content).toBe('Edited article');
    for (const step of Object.values(output)) {
      expect(step.usage.totalTokens).toBeGreaterThan(0);
      expect(step.executionTime).toBeGreaterThanOrEqual(0);
    }
    expect(done.metrics).toMatchObject({ steps: 2 });
    expect(done.metrics.totalTokens).toBe(output.n1.usage.totalTokens + output.n2.usage.totalTokens);
    expect(done.dynamicInstructions).toBe('Write for children');
    expect(done.parameters).toEqual({ tone: 'playful' });

    const steps = await t.db
      .select()
      .from(agentExecutions)
      .where(eq(agentExecutions.workflowExecutionId, done.id));
    expect(steps.map((s) => [s.nodeId, s.agentId, s.status]).sort()).toEqual([
      ['n1', a.id, 'completed'],
      ['n2', b.id, 'completed'],
    ]);
  });

  it('parallel: all agents are in flight at once, so the run takes about its slowest agent, not the sum', async () => {
    const agents = [await createAgent('P1'), await createAgent('P2'), await createAgent('P3')];
    const workflow = await createWorkflow({ processType: 'parallel', agents, chain: false });
    const delayMs = 1500;
    fake.script([
      { content: 'one', delayMs },
      { content: 'two', delayMs },
      { content: 'three', delayMs },
    ]);
    const id = (await execute(workflow.id)).json().id as string;
    // All three model calls arrive while none has answered yet.
    await expect.poll(() => fake.requests.length, { timeout: delayMs - 200, interval: 20 }).toBe(3);
    expect(
      (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json().output,
    ).toEqual({});

    const done = await waitForEnd(id);
    expect(done.status).toBe('completed');
    expect(
      Object.values(done.output)
        .map((o) => (o as { content: string }).content)
        .sort(),
    ).toEqual(['one', 'three', 'two']);
    const wall = new Date(done.completedAt!).getTime() - new Date(done.startedAt!).getTime();
    expect(wall).toBeLessThan(2 * delayMs); // one after another it could not be under 3 × delayMs
  });

  it('hierarchical: the lead delegates to a co-worker through a tool call and the delegation is a step', async () => {
    const lead = await createAgent('Manager');
    const coworker = await createAgent('Analyst');
    const workflow = await createWorkflow({ processType: 'hierarchical', agents: [lead, coworker] });
    fake.script([
      {
        toolCalls: [
          { name: 'delegate_work_to_coworker', arguments: { coworker: 'Analyst', task: 'Count the ships' } },
        ],
      },
      { content: 'There are 7 ships' },
      { content: 'Final: 7 ships counted' },
    ]);
    const done = await waitForEnd((await execute(workflow.id)).json().id);
    expect(done.status).toBe('completed');
    expect(prompts()[1]).toContain('Count the ships');
    expect(done.output.n1).toMatchObject({ content: 'Final: 7 ships counted' });
    expect(done.output['n2#1']).toMatchObject({
      content: 'There are 7 ships',
      metadata: { agentName: 'Analyst', delegatedBy: 'n1' },
    });
  });

  it('a failing model call ends the run failed with the error text and keeps the finished steps', async () => {
    const a = await createAgent('First');
    const b = await createAgent('Second');
    const workflow = await createWorkflow({ agents: [a, b] });
    fake.script([
      { content: 'step one done' },
      { error: { status: 400, message: 'model "gpt-4o" is overloaded' } },
    ]);
    const done = await waitForEnd((await execute(workflow.id)).json().id);
    expect(done.status).toBe('failed');
    expect(done.error).toContain('overloaded');
    expect(done.error).not.toMatch(/\n\s+at /); // no stack trace
    expect(done.output.n1).toMatchObject({ content: 'step one done' });
    await expect
      .poll(() => t.published)
      .toContainEqual(expect.objectContaining({ type: 'workflow_execution_failed', executionId: done.id }));
    // Both steps are stored: the first completed, the second failed with the provider's words.
    const steps = await t.db
      .select()
      .from(agentExecutions)
      .where(eq(agentExecutions.workflowExecutionId, done.id));
    expect(steps.map((s) => [s.agentId, s.nodeId, s.status]).sort()).toEqual(
      [
        [a.id, 'n1', 'completed'],
        [b.id, 'n2', 'failed'],
      ].sort(),
    );
    expect(steps.find((s) => s.status === 'failed')).toMatchObject({
      error: expect.stringContaining('overloaded'),
      output: null,
      startedAt: expect.any(Date),
      completedAt: expect.any(Date),
    });
  });

  it('cancel stops a running run: its model call is aborted and no later step runs', async () => {
    const a = await createAgent('Slow');
    const b = await createAgent('Never');
    const workflow = await createWorkflow({ agents: [a, b] });
    fake.script([{ content: 'too late', delayMs: 5000 }, { content: 'should not run' }]);
    const id = (await execute(workflow.id)).json().id as string;
    await expect.poll(() => fake.requests.length, { timeout: 5000 }).toBe(1);

    const res = await t.request({ method: 'POST', url: `/api/executions/${id}/cancel`, token: ada.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('cancelled');
    await expect.poll(() => t.services.runner.activeRuns().includes(id), { timeout: 3000 }).toBe(false);

    const after = await waitForEnd(id);
    expect(after.status).toBe('cancelled');
    expect(after.output).toEqual({});
    expect(fake.requests).toHaveLength(1);

    const again = await t.request({ method: 'POST', url: `/api/executions/${id}/cancel`, token: ada.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(executionMessages.alreadyFinished('cancelled'));
  });

  it('refuses a draft with 409 and a message, and queues nothing', async () => {
    const a = await createAgent('Drafty');
    const workflow = await createWorkflow({ agents: [a], status: 'draft' });
    const res = await execute(workflow.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(executionMessages.draft);
    const list = await t.request({
      method: 'GET',
      url: `/api/executions?workflowId=${workflow.id}`,
      token: ada.token,
    });
    expect(list.json()).toEqual([]);
  });

  it('validates the body and accepts a bodiless request', async () => {
    const a = await createAgent('Body');
    const workflow = await createWorkflow({ agents: [a] });
    const bad = await execute(workflow.id, { parameters: 'nope' });
    expect(bad.statusCode).toBe(400);
    const bare = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflow.id}/execute`,
      token: ada.token,
    });
    expect(bare.statusCode).toBe(202);
    expect(bare.json()).toMatchObject({ input: {}, parameters: {}, dynamicInstructions: null });
    await waitForEnd(bare.json().id);
  });
});

describe('reading runs', () => {
  it("lists the organization's runs newest first, filters by workflow, and hides them from other organizations", async () => {
    const a = await createAgent('Lister');
    const w1 = await createWorkflow({ agents: [a] });
    const w2 = await createWorkflow({ agents: [a] });
    const first = (await execute(w1.id)).json() as Execution;
    const second = (await execute(w2.id)).json() as Execution;
    await waitForEnd(first.id);
    await waitForEnd(second.id);

    const all = (
      await t.request({ method: 'GET', url: '/api/executions', token: ada.token })
    ).json() as Execution[];
    expect(all.findIndex((e) => e.id === second.id)).toBeLessThan(all.findIndex((e) => e.id === first.id));
    const one = (
      await t.request({ method: 'GET', url: `/api/executions?workflowId=${w1.id}`, token: ada.token })
    ).json() as Execution[];
    expect(one.map((e) => e.id)).toEqual([first.id]);

    for (const [method, url] of [
      ['GET', `/api/executions/${first.id}`],
      ['POST', `/api/executions/${first.id}/cancel`],
      ['POST', `/api/workflows/${w1.id}/execute`],
    ] as const) {
      const res = await t.request({
        method,
        url,
        token: bob.token,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const bobs = await t.request({ method: 'GET', url: '/api/executions', token: bob.token });
    expect(bobs.json()).toEqual([]);
    const unknown = await t.request({ method: 'GET', url: '/api/executions/not-a-uuid', token: ada.token });
    expect(unknown.statusCode).toBe(404);
  });
});
