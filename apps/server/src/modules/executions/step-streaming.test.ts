import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  MAX_WATCHED_WORKFLOWS,
  realtimeMessages,
  type AuthResponse,
  type RealtimeEvent,
} from '@crewline/contracts';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { connectRealtime, type RealtimeClient } from '../../testing/realtime-client';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { waitForRunEnd, workflowOnFakeModel } from '../../testing/app-fixtures';

// A running step's answer streams to the organization's sockets as the model writes it (step-stream.ts)
// while someone watches its workflow (the watch message, modules/realtime/watched-workflows.ts): over
// the Postgres bus as in production, at most ten updates a second, between the step's started and
// completed events, and never stored: the stored answer is the whole one, once.

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let bob: AuthResponse;
let base: string;
const clients: RealtimeClient[] = [];

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
  base = `ws://127.0.0.1:${address.port}/ws`;
  ada = await t.signup();
  bob = await t.signup();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

async function follow(auth: AuthResponse) {
  const client = connectRealtime(`${base}?token=${encodeURIComponent(auth.token)}`);
  clients.push(client);
  await client.opened;
  expect((await client.subscribe(auth.organization.id)).type).toBe('subscribed');
  return client;
}

/** The socket watches the workflow; resolves once this process's runner has heard it. */
async function watch(client: RealtimeClient, organizationId: string, workflowId: string) {
  client.send({ type: 'watch', organizationId, workflowIds: [workflowId] });
  await expect.poll(() => t.services.watchedWorkflows.isWatched(organizationId, workflowId)).toBe(true);
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

async function execute(auth: AuthResponse, workflowId: string) {
  const res = await t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token: auth.token,
    payload: {},
  });
  expect(res.statusCode).toBe(202);
  return res.json().id as string;
}

type Delta = Extract<RealtimeEvent, { type: 'execution_node_delta' }>;

describe('streamed step answers', () => {
  it('reach the run’s organization in order, throttled, between started and completed, and are not stored', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Streamed',
      agents: [{ name: 'Writer' }],
    });
    const answer = words(30);
    // 30 pieces, 25 ms apart: about 750 ms of answer.
    fake.script([{ content: answer, chunkDelayMs: 25 }]);
    const adaSocket = await follow(ada);
    const bobSocket = await follow(bob);
    await watch(adaSocket, ada.organization.id, workflowId);

    const executionId = await execute(ada, workflowId);
    const run = await waitForRunEnd(t, ada.token, executionId);
    expect(run.status).toBe('completed');
    await adaSocket.waitFor(
      (m) => m.type === 'workflow_execution_completed' && m.executionId === executionId,
    );

    const ofRun = adaSocket.messages.filter((m) => m.executionId === executionId);
    const types = ofRun.map((m) => m.type);
    const deltas = ofRun.filter((m) => m.type === 'execution_node_delta') as unknown as Delta[];
    // Far fewer updates than pieces: at most one per 100 ms of a 750 ms answer, plus the edges.
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.length).toBeLessThanOrEqual(9);
    expect(types.indexOf('execution_node_started')).toBeLessThan(types.indexOf('execution_node_delta'));
    expect(types.lastIndexOf('execution_node_delta')).toBeLessThan(types.indexOf('execution_node_completed'));
    // Contiguous: each continues where the last ended, and together they begin the answer.
    let offset = 0;
    for (const delta of deltas) {
      expect(delta).toMatchObject({ nodeId: 'n1', baseNodeId: 'n1', organizationId: ada.organization.id });
      expect(delta.offset).toBe(offset);
      offset += delta.text.length;
    }
    const streamed = deltas.map((d) => d.text).join('');
    expect(answer.startsWith(streamed)).toBe(true);
    expect(streamed.length).toBeGreaterThan(answer.length / 3);

    // The model was asked to stream; the answer is stored once, whole.
    expect(fake.requests[0].body.stream).toBe(true);
    const stored = await t.database.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM agent_executions WHERE workflow_execution_id = $1`,
      [executionId],
    );
    expect(Number(stored.rows[0].n)).toBe(1);
    const details = (
      await t.request({ method: 'GET', url: `/api/executions/${executionId}`, token: ada.token })
    ).json();
    expect(JSON.stringify(details).split(answer).length - 1).toBeGreaterThanOrEqual(1);

    // Another organization hears nothing of it.
    expect(bobSocket.messages.some((m) => m.executionId === executionId)).toBe(false);
    expect(bobSocket.messages.some((m) => m.type === 'execution_node_delta')).toBe(false);
  });

  it('an instant answer sends no update at all: the completed event carries it', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Instant',
      agents: [{ name: 'Quick' }],
    });
    fake.script([{ content: 'Done at once.' }]);
    const socket = await follow(ada);
    await watch(socket, ada.organization.id, workflowId);
    const executionId = await execute(ada, workflowId);
    await socket.waitFor((m) => m.type === 'workflow_execution_completed' && m.executionId === executionId);
    expect(socket.messages.filter((m) => m.executionId === executionId).map((m) => m.type)).not.toContain(
      'execution_node_delta',
    );
  });

  it('each step of a chain streams under its own step id', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Chain',
      agents: [{ name: 'First' }, { name: 'Second' }],
    });
    fake.script([
      { content: words(12), chunkDelayMs: 25 },
      { content: words(12), chunkDelayMs: 25 },
    ]);
    const socket = await follow(ada);
    await watch(socket, ada.organization.id, workflowId);
    const executionId = await execute(ada, workflowId);
    await socket.waitFor((m) => m.type === 'workflow_execution_completed' && m.executionId === executionId);
    const ofRun = socket.messages.filter((m) => m.executionId === executionId);
    const order = ofRun
      .filter((m) => !['workflow_execution_created', 'workflow_execution_started'].includes(m.type))
      .map((m) => `${m.type}:${m.nodeId ?? ''}`)
      .filter((entry, i, all) => entry !== all[i - 1]);
    expect(order).toEqual([
      'execution_node_started:n1',
      'execution_node_delta:n1',
      'execution_node_completed:n1',
      'execution_node_started:n2',
      'execution_node_delta:n2',
      'execution_node_completed:n2',
      'workflow_execution_completed:',
    ]);
  });

  it('is not streamed while nobody watches the workflow: the model answers in one piece', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Unwatched',
      agents: [{ name: 'Alone' }],
    });
    fake.script([{ content: words(12), chunkDelayMs: 25 }]);
    // Following the organization is not watching the workflow.
    const socket = await follow(ada);
    const executionId = await execute(ada, workflowId);
    await socket.waitFor((m) => m.type === 'workflow_execution_completed' && m.executionId === executionId);
    expect(fake.requests[0].body.stream).toBeUndefined();
    expect(socket.messages.some((m) => m.type === 'execution_node_delta')).toBe(false);
  });

  it('another organization cannot make a workflow stream, nor watch in an organization it does not follow', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Private',
      agents: [{ name: 'Secret keeper' }],
    });
    const bobSocket = await follow(bob);
    bobSocket.send({ type: 'watch', organizationId: ada.organization.id, workflowIds: [workflowId] });
    await bobSocket.waitFor((m) => m.type === 'error' && m.message === realtimeMessages.notSubscribed);
    // Watching ada's workflow id in bob's own organization names another key.
    bobSocket.send({ type: 'watch', organizationId: bob.organization.id, workflowIds: [workflowId] });
    await expect
      .poll(() => t.services.watchedWorkflows.isWatched(bob.organization.id, workflowId))
      .toBe(true);
    expect(t.services.watchedWorkflows.isWatched(ada.organization.id, workflowId)).toBe(false);
    fake.script([{ content: words(12), chunkDelayMs: 25 }]);
    const adaSocket = await follow(ada);
    const executionId = await execute(ada, workflowId);
    await adaSocket.waitFor(
      (m) => m.type === 'workflow_execution_completed' && m.executionId === executionId,
    );
    expect(fake.requests[0].body.stream).toBeUndefined();
    expect(bobSocket.messages.some((m) => m.executionId === executionId)).toBe(false);
  });

  it('refuses a watch of too many workflows or of ids that are not workflow ids', async () => {
    const socket = await follow(ada);
    const many = Array.from({ length: MAX_WATCHED_WORKFLOWS + 1 }, () => randomUUID());
    socket.send({ type: 'watch', organizationId: ada.organization.id, workflowIds: many });
    socket.send({ type: 'watch', organizationId: ada.organization.id, workflowIds: ['../etc'] });
    await expect
      .poll(
        () =>
          socket.messages.filter((m) => m.type === 'error' && m.message === realtimeMessages.badMessage)
            .length,
      )
      .toBe(2);
  });
});
