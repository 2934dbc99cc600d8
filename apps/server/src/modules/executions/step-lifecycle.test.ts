import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentExecutions } from '@crewline/db';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { asc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { chainOf } from '../../testing/workflow-shapes';
import { configureModel, createAgent, waitForRunEnd } from '../../testing/app-fixtures';

// Each step goes through one handler in the runner (step-recorder.ts): stored, then delivered to
// its node's destination, then published; a step whose agent call fails is stored as failed and
// published as execution_node_failed.

let t: TestApp;
let ada: AuthResponse;
let fake: FakeLlmServer;

/** What the run looked like, read through the API and the database, when a webhook delivery arrived. */
type Seen = {
  path: string;
  body: { executionId: string; nodeId: string; content: string };
  run: Execution;
  steps: { nodeId: string | null; status: string }[];
  idempotencyKey: string | undefined;
};
let seen: Seen[] = [];
let hooks: http.Server;
let hooksUrl: string;
/** While true, /flaky answers 500 like /broken; then 200 like /hook. */
let flakyDown = false;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url);
  // A customer's webhook that looks at the run before it answers: /hook answers 200, /broken 500.
  hooks = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(raw) as Seen['body'];
        const run = (
          await t.request({ method: 'GET', url: `/api/executions/${body.executionId}`, token: ada.token })
        ).json() as Execution;
        const steps = await t.db
          .select({ nodeId: agentExecutions.nodeId, status: agentExecutions.status })
          .from(agentExecutions)
          .where(eq(agentExecutions.workflowExecutionId, body.executionId));
        const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
        seen.push({ path: req.url ?? '', body, run, steps, idempotencyKey });
        const refuse = req.url?.startsWith('/broken') || (req.url?.startsWith('/flaky') && flakyDown);
        res.writeHead(refuse ? 500 : 200).end();
      })();
    });
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => hooks?.close(resolve));
});
beforeEach(() => {
  fake.reset();
  seen = [];
});

/**
 * An active workflow chaining one new agent per name; `data` sets node properties by node id
 * (n1, n2, …), e.g. an output destination.
 */
async function workflowOf(
  names: string[],
  options: { processType?: string; data?: Record<string, Record<string, unknown>> } = {},
) {
  const agents = [];
  for (const name of names) agents.push(await createAgent(t, ada.token, { name }));
  const { nodes, edges } = chainOf(agents.map((a) => a.id));
  const res = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: {
      name: `Flow ${Math.random().toString(36).slice(2, 7)}`,
      status: 'active',
      processType: options.processType ?? 'sequential',
      nodes: nodes.map((n) => ({ ...n, data: { ...n.data, ...options.data?.[n.id] } })),
      edges,
    },
  });
  expect(res.statusCode).toBe(201);
  return { id: res.json().id as string, agents };
}

async function run(workflowId: string) {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token: ada.token,
    payload: {},
  });
  expect(res.statusCode).toBe(202);
  return waitForRunEnd(t, ada.token, res.json().id as string);
}

const stepsOf = (executionId: string) =>
  t.db
    .select()
    .from(agentExecutions)
    .where(eq(agentExecutions.workflowExecutionId, executionId))
    .orderBy(asc(agentExecutions.completedAt));

describe('a step delivered to its destination', () => {
  it('is delivered only once it is stored, with the content stored', async () => {
    const { id } = await workflowOf(['Writer', 'Editor'], {
      data: { n1: { outputDestination: 'webhook', webhookUrl: `${hooksUrl}/hook` } },
    });
    fake.script([{ content: 'The first draft' }, { content: 'The edited post' }]);

    const done = await run(id);
    expect(done.status).toBe('completed');
    expect(seen).toHaveLength(1);
    const [delivery] = seen;
    expect(delivery.body).toMatchObject({ executionId: done.id, nodeId: 'n1', content: 'The first draft' });
    // When the webhook heard of the step, the run already showed it and its row was stored.
    expect(delivery.run.status).toBe('running');
    expect(delivery.run.output.n1).toMatchObject({ content: 'The first draft' });
    expect(delivery.steps).toEqual([{ nodeId: 'n1', status: 'completed' }]);
    // The delivery's log line is kept with the run's log.
    expect(done.logs.map((line) => line.message)).toContain(`Writer: POSTed to ${hooksUrl}/…`);
    expect((await stepsOf(done.id)).map((s) => [s.nodeId, s.delivery])).toEqual([
      ['n1', 'delivered'],
      ['n2', null],
    ]);
  });

  it('fails the run when the delivery fails, and runs no later step', async () => {
    const { id } = await workflowOf(['Writer', 'Editor'], {
      data: { n1: { outputDestination: 'webhook', webhookUrl: `${hooksUrl}/broken` } },
    });
    fake.script([{ content: 'The first draft' }, { content: 'never asked' }]);

    const done = await run(id);
    expect(done.status).toBe('failed');
    expect(done.error).toBe(
      `Agent "Writer" could not send its output to the webhook ${hooksUrl}/…: it answered with HTTP status 500`,
    );
    expect(seen.map((s) => s.path)).toEqual(['/broken']);
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
    // The step itself finished and is kept: what failed was sending its output.
    expect(done.output.n1).toMatchObject({ content: 'The first draft' });
    expect((await stepsOf(done.id)).map((s) => [s.nodeId, s.status, s.delivery])).toEqual([
      ['n1', 'completed', 'pending'],
    ]);
  });

  it('is sent by the retry when its delivery failed, with the same idempotency key and no new model call', async () => {
    const { id } = await workflowOf(['Writer', 'Editor'], {
      data: { n1: { outputDestination: 'webhook', webhookUrl: `${hooksUrl}/flaky` } },
    });
    flakyDown = true;
    fake.script([{ content: 'The first draft' }, { content: 'The edited post' }]);
    const failed = await run(id);
    expect(failed.status).toBe('failed');

    flakyDown = false;
    const retry = await t.request({
      method: 'POST',
      url: `/api/executions/${failed.id}/retry`,
      token: ada.token,
      payload: {},
    });
    expect(retry.statusCode).toBe(202);
    const done = await waitForRunEnd(t, ada.token, retry.json().id as string);
    expect(done.status).toBe('completed');
    expect(done.result).toBe('The edited post');

    // The reused step's output went out once more, keyed as the first attempt was, so a receiver
    // that got it already can drop it; Writer's model was asked once in all.
    expect(seen.map((s) => [s.path, s.body.executionId, s.idempotencyKey])).toEqual([
      ['/flaky', failed.id, `${failed.id}:n1`],
      ['/flaky', done.id, `${failed.id}:n1`],
    ]);
    expect(seen[1].body.content).toBe('The first draft');
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(2);
    expect((await stepsOf(done.id)).map((s) => [s.nodeId, s.delivery])).toEqual([
      ['n1', 'delivered'],
      ['n2', null],
    ]);
  });
});

describe('a step whose agent call fails', () => {
  it('is stored as failed and published as execution_node_failed with the readable error', async () => {
    const { id, agents } = await workflowOf(['First', 'Second']);
    fake.script([
      { content: 'step one done' },
      { error: { status: 400, message: 'model "gpt-4o" is overloaded' } },
    ]);

    const done = await run(id);
    expect(done.status).toBe('failed');
    await expect
      .poll(() => t.published.filter((e) => e.type === 'execution_node_failed'))
      .toEqual([
        {
          type: 'execution_node_failed',
          organizationId: ada.organization.id,
          executionId: done.id,
          workflowId: id,
          nodeId: 'n2',
          baseNodeId: 'n2',
          error: done.error,
        },
      ]);
    expect(done.error).toContain('overloaded');
    // The run's log names the failed step once (the run review marks it on the graph).
    expect(done.logs.filter((line) => line.level === 'error')).toEqual([
      expect.objectContaining({ message: done.error, nodeId: 'n2' }),
    ]);
    const steps = await stepsOf(done.id);
    expect(steps.map((s) => [s.nodeId, s.agentId, s.status])).toEqual([
      ['n1', agents[0].id, 'completed'],
      ['n2', agents[1].id, 'failed'],
    ]);
    expect(steps[1].error).toBe(done.error);
    // The completed step was not reported as failed.
    expect(
      t.published.filter((e) => e.type === 'execution_node_completed' && e.executionId === done.id),
    ).toEqual([expect.objectContaining({ nodeId: 'n1' })]);
  });
});

describe('a hierarchical delegation', () => {
  it("is stored and published as its own step, with the co-worker's agent", async () => {
    const { id, agents } = await workflowOf(['Manager', 'Analyst'], { processType: 'hierarchical' });
    fake.script([
      {
        toolCalls: [
          { name: 'delegate_work_to_coworker', arguments: { coworker: 'Analyst', task: 'Count the ships' } },
        ],
      },
      { content: 'There are 7 ships' },
      { content: 'Final: 7 ships counted' },
    ]);

    const done = await run(id);
    expect(done.status).toBe('completed');
    const steps = await stepsOf(done.id);
    expect(steps.map((s) => [s.nodeId, s.agentId, s.status])).toEqual([
      ['n2#1', agents[1].id, 'completed'],
      ['n1', agents[0].id, 'completed'],
    ]);
    await expect
      .poll(() =>
        t.published
          .filter(
            (e) => e.type.startsWith('execution_node_') && 'executionId' in e && e.executionId === done.id,
          )
          .map((e) => ('baseNodeId' in e ? [e.type, e.nodeId, e.baseNodeId] : [e.type])),
      )
      .toEqual([
        ['execution_node_started', 'n1', 'n1'],
        ['execution_node_started', 'n2#1', 'n2'],
        ['execution_node_completed', 'n2#1', 'n2'],
        ['execution_node_completed', 'n1', 'n1'],
      ]);
    // The output map says which node each entry belongs to, so no reader decodes the step's key.
    expect(done.output['n2#1'].metadata).toMatchObject({ baseNodeId: 'n2', delegatedBy: 'n1' });
    expect(steps.map((s) => s.baseNodeId)).toEqual(['n2', 'n1']);
  });
});
