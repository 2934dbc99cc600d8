import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { executionMessages, type AuthResponse } from '@crewline/contracts';
import { createAgent, configureModel, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder } from '../../testing/fake-model-suite';
import { jsonLogLines } from '../../testing/json-log-lines';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testConfig } from '../../testing/test-config';
import { chainOf, fanOf } from '../../testing/workflow-shapes';

// docs/architecture.md, Runs: a run is pinned to the workflow version that was newest when it started.
let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let bob: AuthResponse;
const { lines: logLines, stream: logStream } = jsonLogLines<{ level: number; msg: string }>();

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({
    worker: true,
    config: { runs: { ...testConfig().runs, concurrency: 1 } },
    loggerInstance: pino({ level: 'info' }, logStream),
  });
  ada = await t.signup();
  bob = await t.signup();
  await configureModel(t, ada.token, fake.url, { defaultModel: 'gpt-4o' });
});
afterAll(() => closeInOrder(t, fake));
beforeEach(() => fake.reset());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = ada.token) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });

const waitForEnd = (id: string) => waitForRunEnd(t, ada.token, id, 20_000);

/** The agents (by the name in their system prompt) the fake model was asked, in order. */
const askedAgents = (names: string[]) =>
  fake.requests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => {
      const system = (r.body.messages as { role: string; content: string }[]).find(
        (m) => m.role === 'system',
      );
      return names.find((name) => system?.content.includes(name));
    });

const chatRequests = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

describe('runs pinned to a workflow version', () => {
  it('a queued run executes the version it was started on, though the workflow was edited before it began', async () => {
    const holder = await createAgent(t, ada.token, { name: 'Holder' });
    const writer = await createAgent(t, ada.token, { name: 'Writer' });
    const editor = await createAgent(t, ada.token, { name: 'Editor' });
    const critic = await createAgent(t, ada.token, { name: 'Critic' });
    const names = ['Holder', 'Writer', 'Editor', 'Critic'];
    const busy = await call('POST', '/api/workflows', {
      name: 'Busy',
      status: 'active',
      ...chainOf([holder.id]),
    });
    const created = await call('POST', '/api/workflows', {
      name: 'Pinned',
      status: 'active',
      ...chainOf([writer.id, editor.id]),
    });
    const workflowId = created.json().id as string;

    // The only worker slot is taken by a slow step, so the second run waits in the queue.
    fake.script([
      { content: 'held', delayMs: 1500 },
      { content: 'Draft text' },
      { content: 'Edited text' },
      { content: 'Critique' },
    ]);
    const blocking = await call('POST', `/api/workflows/${busy.json().id}/execute`);
    await expect.poll(chatRequests, { timeout: 10_000 }).toBe(1);
    const queued = await call('POST', `/api/workflows/${workflowId}/execute`, { input: { topic: 'tides' } });
    expect(queued.statusCode).toBe(202);
    expect(queued.json()).toMatchObject({ status: 'pending', workflowVersion: 1 });

    // Meanwhile the workflow becomes Critic only, saved while active: version 2.
    const edit = await call('PUT', `/api/workflows/${workflowId}`, {
      ...chainOf([critic.id]),
      versionNote: 'Critic',
    });
    expect(edit.statusCode).toBe(200);
    expect((await call('GET', `/api/workflows/${workflowId}/versions`)).json()[0].version).toBe(2);

    expect((await waitForEnd(blocking.json().id)).result).toBe('held');
    const done = await waitForEnd(queued.json().id);
    expect(done.status).toBe('completed');
    expect(done.workflowVersion).toBe(1);
    expect(askedAgents(names)).toEqual(['Holder', 'Writer', 'Editor']);
    expect(Object.keys(done.output).sort()).toEqual(['n1', 'n2']);
    expect(done.result).toBe('Edited text');

    // A new run takes the newest version.
    const next = await call('POST', `/api/workflows/${workflowId}/execute`);
    expect(next.json().workflowVersion).toBe(2);
    const nextDone = await waitForEnd(next.json().id);
    expect(nextDone.status).toBe('completed');
    expect(nextDone.result).toBe('Critique');
    expect(askedAgents(names)).toEqual(['Holder', 'Writer', 'Editor', 'Critic']);
  });

  it('stores the collected answers of a parallel run as its result', async () => {
    const a = await createAgent(t, ada.token, { name: 'Alpha' });
    const b = await createAgent(t, ada.token, { name: 'Beta' });
    const created = await call('POST', '/api/workflows', {
      name: 'Fan',
      status: 'active',
      processType: 'parallel',
      ...fanOf([a.id, b.id]),
    });
    fake.script([{ content: 'one' }, { content: 'two' }]);
    const done = await waitForEnd(
      (await call('POST', `/api/workflows/${created.json().id}/execute`)).json().id,
    );
    expect(done.status).toBe('completed');
    expect(Object.values(done.result as Record<string, string>).sort()).toEqual(['one', 'two']);
  });

  it('keeps a final answer that is JSON text as that text', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Jsonish' });
    const created = await call('POST', '/api/workflows', {
      name: 'Json',
      status: 'active',
      ...chainOf([agent.id]),
    });
    fake.script([{ content: '{"status":200,"body":{"ok":true}}' }]);
    const done = await waitForEnd(
      (await call('POST', `/api/workflows/${created.json().id}/execute`)).json().id,
    );
    expect(done.status).toBe('completed');
    expect(done.result).toBe('{"status":200,"body":{"ok":true}}');
  });

  it('refuses paused and draft workflows with 409 and another organization with 404', async () => {
    const writer = await createAgent(t, ada.token, { name: 'Solo' });
    const created = await call('POST', '/api/workflows', { name: 'Paused', ...chainOf([writer.id]) });
    const id = created.json().id as string;
    const draft = await call('POST', `/api/workflows/${id}/execute`);
    expect(draft.statusCode).toBe(409);
    expect(draft.json().message).toBe(executionMessages.draft);
    await call('PUT', `/api/workflows/${id}`, { status: 'active' });
    await call('PUT', `/api/workflows/${id}`, { status: 'paused' });
    const paused = await call('POST', `/api/workflows/${id}/execute`);
    expect(paused.statusCode).toBe(409);
    expect(paused.json().message).toBe(executionMessages.notRunnable('paused'));
    expect((await call('POST', `/api/workflows/${id}/execute`, {}, bob.token)).statusCode).toBe(404);
    expect(chatRequests()).toBe(0);
  });

  it('a workflow deleted mid-run stops its run quietly and the worker keeps working', async () => {
    const slow = await createAgent(t, ada.token, { name: 'Slowpoke' });
    const quick = await createAgent(t, ada.token, { name: 'Quick' });
    const doomed = await call('POST', '/api/workflows', {
      name: 'Doomed',
      status: 'active',
      ...chainOf([slow.id, quick.id]),
    });
    const survivor = await call('POST', '/api/workflows', {
      name: 'Survivor',
      status: 'active',
      ...chainOf([quick.id]),
    });
    fake.script([{ content: 'late answer', delayMs: 1500 }]);
    const run = await call('POST', `/api/workflows/${doomed.json().id}/execute`);
    await expect.poll(chatRequests, { timeout: 10_000 }).toBe(1);
    const errorsBefore = logLines.filter((l) => l.level >= 50).length;
    expect((await call('DELETE', `/api/workflows/${doomed.json().id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/executions/${run.json().id}`)).statusCode).toBe(404);

    // The attempt notices (its lease or its step write finds no run) and ends without an error line.
    await expect
      .poll(() => logLines.some((l) => l.msg === 'run attempt interrupted'), { timeout: 10_000 })
      .toBe(true);
    expect(logLines.filter((l) => l.level >= 50).length).toBe(errorsBefore);

    fake.script([{ content: 'still here' }]);
    const other = await waitForEnd(
      (await call('POST', `/api/workflows/${survivor.json().id}/execute`)).json().id,
    );
    expect(other.status).toBe('completed');
    expect(other.result).toBe('still here');
  });
});
