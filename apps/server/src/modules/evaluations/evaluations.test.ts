import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AuthResponse, EvalComparison, EvalRun } from '@crewline/contracts';
import { configureModel, createAgent, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply } from '../../testing/fake-llm-server';
import { closeInOrder } from '../../testing/fake-model-suite';
import { startFakeSmtpServer, type FakeSmtpServer } from '../../testing/fake-smtp-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testConfig } from '../../testing/test-config';

// docs/product-rules.md, Evaluations: datasets, eval runs pinned to a version, comparison, the gate.
let t: TestApp;
let fake: FakeLlmServer;
let smtp: FakeSmtpServer;
let ada: AuthResponse;
let bob: AuthResponse;
let agentId: string;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  smtp = await startFakeSmtpServer({ user: 'crewline', pass: 's3cret-smtp' });
  t = await createTestApp({
    worker: true,
    emailMonitor: false,
    config: {
      runs: { ...testConfig().runs, concurrency: 8 },
      mail: { smtpUrl: smtp.url, from: 'Crewline <no-reply@crewline.test>' },
    },
  });
  ada = await t.signup();
  bob = await t.signup();
  await configureModel(t, ada.token, fake.url, { defaultModel: 'gpt-4o' });
  agentId = (
    await createAgent(t, ada.token, {
      name: 'Classifier',
      outputSchema: {
        type: 'object',
        properties: { answer: { type: 'string' }, category: { type: 'string' } },
        required: ['answer', 'category'],
        additionalProperties: false,
      },
    })
  ).id;
});
afterAll(async () => {
  await closeInOrder(t, fake);
  await smtp?.close();
});
beforeEach(() => fake.reset());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = ada.token) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });

const ITEMS = 20;
const key = (i: number) => `[item-${String(i).padStart(2, '0')}]`;

/** One classifier step whose prompt starts with `style` (v1 'Plain', v2 'Careful'). */
const definition = (style: string) => ({
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
    {
      id: 'classify',
      type: 'agent',
      agentId,
      position: { x: 200, y: 0 },
      data: { prompt: `${style}: {{ input.topic }}` },
    },
    { id: 'end', type: 'end', position: { x: 400, y: 0 }, data: {} },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'classify' },
    { id: 'e2', source: 'classify', target: 'end' },
  ],
});

/**
 * The model's answers under a prompt style: item i answers right (its expected `A<i>`, category ok)
 * when `right(i)`, else wrong.
 */
function scriptAnswers(style: string, right: (i: number) => boolean, delayMs = 0) {
  const replies: FakeReply[] = [];
  for (let i = 1; i <= ITEMS; i++) {
    replies.push({
      when: `${style}: ${key(i)}`,
      delayMs,
      data: right(i) ? { answer: `A${i}`, category: 'ok' } : { answer: 'wrong', category: 'bad' },
    });
  }
  fake.script(replies);
}

async function waitForEvalRun(id: string, token = ada.token): Promise<EvalRun> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const run = (await call('GET', `/api/eval-runs/${id}`, undefined, token)).json() as EvalRun;
    if (run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`eval run ${id} did not end`);
}

async function newWorkflow(name: string, style = 'Plain') {
  const res = await call('POST', '/api/workflows', { name, status: 'active', ...definition(style) });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

async function newDataset(name: string, count = ITEMS) {
  const dataset = (await call('POST', '/api/datasets', { name })).json();
  const items = Array.from({ length: count }, (_, index) => ({
    input: { topic: key(index + 1) },
    expected: `A${index + 1}`,
    tags: index < 10 ? ['first-half'] : [],
  }));
  const added = await call('POST', `/api/datasets/${dataset.id}/items`, { items });
  expect(added.statusCode).toBe(201);
  return dataset.id as string;
}

/** Exact on the step's parsed answer, and the JSON result's category. */
const graders = [
  { type: 'exact', name: 'Answer', target: 'nodes.classify.data.answer' },
  { type: 'json_equals', name: 'Category', field: 'category', expected: 'ok' },
];

async function newEvaluation(workflowId: string, datasetId: string) {
  const res = await call('POST', '/api/evaluations', {
    name: 'Classifier eval',
    workflowId,
    datasetId,
    graders,
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

async function startEvalRun(evaluationId: string, body: object) {
  const res = await call('POST', `/api/evaluations/${evaluationId}/runs`, body);
  expect(res.statusCode).toBe(202);
  return res.json().id as string;
}

describe('datasets', () => {
  it('keeps versions: adding and removing items raises the version, and another organization sees none of it', async () => {
    const created = await call('POST', '/api/datasets', { name: 'Tickets', description: 'Support tickets' });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(created.json()).toMatchObject({ version: 1, itemCount: 0 });
    expect((await call('POST', '/api/datasets', { name: 'Tickets' })).statusCode).toBe(409);

    const added = await call('POST', `/api/datasets/${id}/items`, {
      items: [
        { input: { subject: 'Refund' }, expected: 'billing', tags: ['money'] },
        { input: { subject: 'Login' }, expected: { team: 'auth' } },
      ],
    });
    expect(added.json()).toMatchObject({ added: 2, dataset: { version: 2, itemCount: 2 } });
    const list = (await call('GET', `/api/datasets/${id}/items`)).json();
    expect(list.items.map((item: { expected: unknown }) => item.expected)).toEqual([
      'billing',
      { team: 'auth' },
    ]);

    const removed = await call('DELETE', `/api/datasets/${id}/items/${list.items[0].id}`);
    expect(removed.statusCode).toBe(204);
    expect((await call('GET', `/api/datasets/${id}`)).json()).toMatchObject({ version: 3, itemCount: 1 });
    expect((await call('DELETE', `/api/datasets/${id}/items/${list.items[0].id}`)).statusCode).toBe(404);

    // Bob's organization: not found, and not listed.
    expect((await call('GET', `/api/datasets/${id}`, undefined, bob.token)).statusCode).toBe(404);
    expect((await call('GET', `/api/datasets/${id}/items`, undefined, bob.token)).statusCode).toBe(404);
    expect(
      (await call('POST', `/api/datasets/${id}/items`, { items: [{ input: {} }] }, bob.token)).statusCode,
    ).toBe(404);
    expect((await call('GET', '/api/datasets', undefined, bob.token)).json()).toEqual([]);
  });

  it('imports a CSV with a mapping, after a preview that adds nothing', async () => {
    const { id } = (await call('POST', '/api/datasets', { name: 'From CSV' })).json();
    const csv = 'question,gold,labels\n"Where, exactly?",Here,"a,b"\nWhen?,Now,\n';
    const url = `/api/datasets/${id}/import?expected=gold&tags=labels`;
    const preview = await t.request({
      method: 'POST',
      url: `${url}&preview=true`,
      token: ada.token,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      format: 'csv',
      added: 0,
      total: 2,
      columns: ['question', 'gold', 'labels'],
    });
    expect(preview.json().sample[0]).toEqual({
      input: { question: 'Where, exactly?' },
      expected: 'Here',
      tags: ['a', 'b'],
    });
    const imported = await t.request({
      method: 'POST',
      url,
      token: ada.token,
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(imported.json()).toMatchObject({ added: 2, dataset: { itemCount: 2 } });
    const refused = await t.request({
      method: 'POST',
      url,
      token: ada.token,
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.json().message).toContain('text/csv');
  });

  it('takes past runs as items, with their results as expected answers', async () => {
    const workflowId = await newWorkflow('Past runs');
    fake.script([{ data: { answer: 'A1', category: 'ok' } }, { data: { answer: 'A2', category: 'ok' } }]);
    const runs = [];
    for (const topic of ['one', 'two']) {
      const started = await call('POST', `/api/workflows/${workflowId}/execute`, { input: { topic } });
      runs.push((await waitForRunEnd(t, ada.token, started.json().id)).id);
    }
    const { id } = (await call('POST', '/api/datasets', { name: 'From runs' })).json();
    const added = await call('POST', `/api/datasets/${id}/items/from-executions`, {
      executionIds: runs,
      useResultAsExpected: true,
    });
    expect(added.statusCode).toBe(201);
    const { items } = (await call('GET', `/api/datasets/${id}/items`)).json();
    expect(items.map((item: { input: unknown }) => item.input)).toEqual([{ topic: 'one' }, { topic: 'two' }]);
    expect(items[0].sourceExecutionId).toBe(runs[0]);
    expect(items[0].expected).toEqual({ answer: 'A1', category: 'ok' });
    // Bob cannot take Ada's runs.
    const { id: bobs } = (await call('POST', '/api/datasets', { name: 'Bob' }, bob.token)).json();
    const refused = await call(
      'POST',
      `/api/datasets/${bobs}/items/from-executions`,
      { executionIds: runs, useResultAsExpected: false },
      bob.token,
    );
    expect(refused.statusCode).toBe(404);
  });
});

describe('eval runs', () => {
  it('grades a 20-item dataset against a version, and the comparison with a changed prompt shows its regressions', async () => {
    const workflowId = await newWorkflow('Classifier');
    const datasetId = await newDataset('Twenty');
    const evaluationId = await newEvaluation(workflowId, datasetId);

    scriptAnswers('Plain', (i) => i <= 15);
    const first = await startEvalRun(evaluationId, { version: 'active', concurrency: 5 });
    const v1 = await waitForEvalRun(first);
    expect(v1).toMatchObject({
      status: 'completed',
      versionLabel: 'v1',
      progress: { done: 20, total: 20 },
      passRate: 0.75,
    });
    expect(v1.scores.map((score) => [score.name, score.mean])).toEqual([
      ['Answer', 0.75],
      ['Category', 0.75],
    ]);
    // Failures first: items 16–20, each with both graders' reasons.
    expect(v1.items.slice(0, 5).map((item) => item.input.topic)).toEqual([16, 17, 18, 19, 20].map(key));
    expect(v1.items[0].passed).toBe(false);
    expect(v1.items[0].grades.map((grade) => grade.passed)).toEqual([false, false]);
    expect(v1.items[19].passed).toBe(true);
    expect(v1.latencyMs.p50).not.toBeNull();
    expect(v1.items.every((item) => item.executionId)).toBe(true);

    // The item runs are real runs (trigger eval), hidden from the runs list unless asked for.
    const listed = (await call('GET', `/api/executions?workflowId=${workflowId}`)).json();
    expect(listed).toEqual([]);
    const evalRuns = (
      await call('GET', `/api/executions?workflowId=${workflowId}&trigger=eval&limit=100`)
    ).json();
    expect(evalRuns).toHaveLength(20);

    // v2 changes the prompt: items 13–15 now fail, 16 and 17 now pass.
    expect(
      (await call('PUT', `/api/workflows/${workflowId}`, { ...definition('Careful'), status: 'active' }))
        .statusCode,
    ).toBe(200);
    scriptAnswers('Careful', (i) => i <= 12 || i === 16 || i === 17);
    const second = await startEvalRun(evaluationId, { version: 2, concurrency: 20 });
    const v2 = await waitForEvalRun(second);
    expect(v2).toMatchObject({ versionLabel: 'v2', passRate: 14 / 20 });

    const compared = await call('GET', `/api/eval-runs/compare?a=${first}&b=${second}`);
    expect(compared.statusCode).toBe(200);
    const comparison = compared.json() as EvalComparison;
    expect(comparison.totals).toMatchObject({ regressions: 3, improvements: 2 });
    expect(comparison.totals.passRateDelta).toBeCloseTo(-0.05);
    expect(comparison.items.slice(0, 3).map((pair) => pair.input.topic)).toEqual([13, 14, 15].map(key));
    expect(comparison.items[0]).toMatchObject({ regressed: true, improved: false, scoreDelta: -1 });
    expect(comparison.items[3]).toMatchObject({ improved: true });

    // Another organization cannot read, compare or cancel them.
    expect((await call('GET', `/api/eval-runs/${first}`, undefined, bob.token)).statusCode).toBe(404);
    expect(
      (await call('GET', `/api/eval-runs/compare?a=${first}&b=${second}`, undefined, bob.token)).statusCode,
    ).toBe(404);
    expect((await call('GET', `/api/evaluations/${evaluationId}`, undefined, bob.token)).statusCode).toBe(
      404,
    );
    expect((await call('GET', '/api/evaluations', undefined, bob.token)).json()).toEqual([]);
  });

  it('is pinned: editing the workflow while it runs does not change the items still to run', async () => {
    const workflowId = await newWorkflow('Pinned eval');
    const datasetId = await newDataset('Pinned', 4);
    const evaluationId = await newEvaluation(workflowId, datasetId);
    scriptAnswers('Plain', () => true, 300);
    scriptAnswers('Careful', () => false);
    const id = await startEvalRun(evaluationId, { version: 'active', concurrency: 1 });
    await expect.poll(() => fake.requests.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const edited = await call('PUT', `/api/workflows/${workflowId}`, definition('Careful'));
    expect(edited.statusCode).toBe(200);
    const run = await waitForEvalRun(id);
    expect(run).toMatchObject({ passRate: 1, progress: { done: 4, total: 4 } });
    const prompts = fake.requests.map((request) => JSON.stringify(request.body));
    expect(prompts.every((prompt) => prompt.includes('Plain:') && !prompt.includes('Careful:'))).toBe(true);
  });

  it('runs the draft as a snapshot, and a cancel stops the items not yet run', async () => {
    const created = await call('POST', '/api/workflows', { name: 'Draft only', ...definition('Plain') });
    const workflowId = created.json().id as string;
    const datasetId = await newDataset('Cancel', 6);
    const evaluationId = await newEvaluation(workflowId, datasetId);
    // A draft has no active version to run.
    const refused = await call('POST', `/api/evaluations/${evaluationId}/runs`, { version: 'active' });
    expect(refused.statusCode).toBe(409);

    scriptAnswers('Plain', () => true, 800);
    const id = await startEvalRun(evaluationId, { version: 'draft', concurrency: 1 });
    await expect.poll(() => fake.requests.length, { timeout: 10_000 }).toBe(1);
    const cancelled = await call('POST', `/api/eval-runs/${id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', versionLabel: 'Draft' });
    expect((await call('POST', `/api/eval-runs/${id}/cancel`)).statusCode).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const run = (await call('GET', `/api/eval-runs/${id}`)).json() as EvalRun;
    expect(run.status).toBe('cancelled');
    expect(run.items.filter((item) => item.error === 'Not run')).toHaveLength(5);
    expect(fake.requests.length).toBe(1);
    // The snapshot is no version of the workflow's history, nor one to restore; its runs show its graph.
    expect((await call('GET', `/api/workflows/${workflowId}/versions`)).json()).toEqual([]);
    const snapshot = await call('GET', `/api/workflows/${workflowId}/versions/-1`);
    expect(snapshot.statusCode).toBe(200);
    expect(snapshot.json().nodes.map((node: { id: string }) => node.id)).toEqual([
      'start',
      'classify',
      'end',
    ]);
    expect((await call('POST', `/api/workflows/${workflowId}/versions/-1/restore`)).statusCode).toBe(404);
  });
});

describe('the activation gate', () => {
  it('refuses an activation whose evaluation fails, records one that passes, and lets an owner override it', async () => {
    const workflowId = await newWorkflow('Gated');
    const datasetId = await newDataset('Gate', 10);
    const evaluationId = await newEvaluation(workflowId, datasetId);
    const gate = { evaluationId, minPassRate: 0.8 };
    const versions = async () => (await call('GET', `/api/workflows/${workflowId}/versions`)).json().length;

    // Setting the gate: an evaluation of another workflow is refused.
    const other = await newEvaluation(await newWorkflow('Other'), datasetId);
    expect(
      (
        await call('PUT', `/api/workflows/${workflowId}`, {
          config: { activationGate: { ...gate, evaluationId: other } },
        })
      ).statusCode,
    ).toBe(400);
    const gated = await call('PUT', `/api/workflows/${workflowId}`, { config: { activationGate: gate } });
    expect(gated.statusCode).toBe(200);
    // A new workflow (a copy, a template) cannot start behind another workflow's evaluation.
    const copy = await call('POST', '/api/workflows', {
      name: 'Gated copy',
      ...definition('Plain'),
      config: { activationGate: gate },
    });
    expect(copy.statusCode).toBe(201);
    expect(copy.json().config).toEqual({});
    const before = await versions();

    // A save of the gated workflow keeps the working copy only: no version.
    expect((await call('PUT', `/api/workflows/${workflowId}`, definition('Careful'))).statusCode).toBe(200);
    expect(await versions()).toBe(before);

    // Activate: the evaluation runs on the candidate (202); it fails (7 of 10), so the next Activate is refused.
    scriptAnswers('Careful', (i) => i <= 7);
    const activating = await call('PUT', `/api/workflows/${workflowId}`, { status: 'active' });
    expect(activating.statusCode).toBe(202);
    expect(activating.json()).toMatchObject({ code: 'evaluation_running' });
    const failed = await waitForEvalRun(activating.json().evalRunId);
    expect(failed).toMatchObject({ passRate: 0.7, reason: 'activation', versionLabel: 'Draft' });
    const refused = await call('PUT', `/api/workflows/${workflowId}`, { status: 'active' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'evaluation_failed',
      passRate: 0.7,
      minPassRate: 0.8,
      evalRunId: failed.id,
    });
    expect(refused.json().failedItems.map((item: { input: { topic: string } }) => item.input.topic)).toEqual(
      [8, 9, 10].map(key),
    );
    expect(await versions()).toBe(before);

    // A member cannot override; the owner can, and the note is kept with the version.
    const override = { status: 'active', gateOverride: { note: 'Known flaky items' } };
    const created = await call('POST', `/api/organizations/${ada.organization.id}/api-keys`, { name: 'ci' });
    expect(created.statusCode).toBe(201);
    const apiKey = created.json().key as string;
    expect((await call('PUT', `/api/workflows/${workflowId}`, override, apiKey)).statusCode).toBe(403);
    // Nor can a member (an API key acts as one) remove the gate or change it.
    const dropped = await call('PUT', `/api/workflows/${workflowId}`, { config: {} }, apiKey);
    expect(dropped.statusCode).toBe(403);
    expect(dropped.json().message).toBe('Only owners and admins change the activation gate');
    expect((await call('PUT', `/api/workflows/${workflowId}`, override)).statusCode).toBe(200);
    const [newest] = (await call('GET', `/api/workflows/${workflowId}/versions`)).json();
    expect(newest.note).toContain('Activation gate overridden: Known flaky items');

    // A candidate that passes is recorded by itself once its evaluation has passed.
    const recorded = await versions();
    expect((await call('PUT', `/api/workflows/${workflowId}`, definition('Plain'))).statusCode).toBe(200);
    scriptAnswers('Plain', (i) => i <= 9);
    const second = await call('PUT', `/api/workflows/${workflowId}`, {
      status: 'active',
      versionNote: 'Plain again',
    });
    expect(second.statusCode).toBe(202);
    await waitForEvalRun(second.json().evalRunId);
    await expect.poll(versions, { timeout: 10_000 }).toBe(recorded + 1);
    const [passed] = (await call('GET', `/api/workflows/${workflowId}/versions`)).json();
    expect(passed.note).toMatch(/^Plain again · Evaluation passed: 90 %/);
    // Nothing changed since: activating again passes at once.
    expect((await call('PUT', `/api/workflows/${workflowId}`, { status: 'active' })).statusCode).toBe(200);
    // Restoring version 1 (from before the gate) brings its steps back, not its lack of a gate.
    const restored = await call('POST', `/api/workflows/${workflowId}/versions/1/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().config.activationGate).toEqual(gate);
  });
});

describe('nightly evaluations', () => {
  it('run once a night against the active version, and a drop below the threshold reaches owners and admins', async () => {
    const workflowId = await newWorkflow('Nightly');
    const datasetId = await newDataset('Nightly', 10);
    const created = await call('POST', '/api/evaluations', {
      name: 'Nightly check',
      workflowId,
      datasetId,
      graders,
      schedule: { nightly: true, minPassRate: 0.9 },
    });
    const evaluationId = created.json().id as string;
    scriptAnswers('Plain', (i) => i <= 7);
    const { nightly } = t.services.evaluations;
    // Before 02:00 UTC nothing is due; from then on, once a day. A day to come: the worker's own
    // nightly loop may already have claimed today's night by the real clock.
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect(await nightly.runDue(new Date(`${day}T01:30:00Z`))).toBe(0);
    expect(await nightly.runDue(new Date(`${day}T03:00:00Z`))).toBe(1);
    expect(await nightly.runDue(new Date(`${day}T23:00:00Z`))).toBe(0);
    const [run] = (await call('GET', `/api/evaluations/${evaluationId}/runs`)).json();
    expect(run).toMatchObject({ reason: 'schedule', versionLabel: 'v1' });
    expect(await waitForEvalRun(run.id)).toMatchObject({ passRate: 0.7 });
    const mail = await smtp.waitFor(ada.user.email, (m) => m.subject.includes('Nightly check'));
    expect(mail.subject).toBe('Crewline: the nightly evaluation “Nightly check” dropped to 70 %');
    expect(mail.text).toContain(`/evaluations/runs/${run.id}`);
  });
});
