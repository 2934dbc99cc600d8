import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { createAgent, waitForRunEnd, workflowOnFakeModel } from '../../testing/app-fixtures';
import { delayedSendOf } from '../../testing/workflow-shapes';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { connectRealtime } from '../../testing/realtime-client';
import { processMetrics, startMetricsServer } from '.';
import { modelFamily } from './metrics';
import { loadConfig } from '../env';

/*
 * GET /metrics as Prometheus reads it (docs/architecture.md, Operating: metrics): scraped over HTTP,
 * the exposition text parsed here line by line, and the figures compared with what the test ran.
 * The app has no worker of its own: the test queues runs, reads the queue gauge, then works them with
 * the runner, so every figure is known exactly.
 */

const TOKEN = 'metrics-token-0123456789abcdef';

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The exposition format's sample lines (`name{label="value",…} value`), comments and types skipped. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    const pairs = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;
    for (const [, key, raw] of (match[2] ?? '').matchAll(pairs))
      labels[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const value = match[3] === '+Inf' ? Infinity : match[3] === '-Inf' ? -Infinity : Number(match[3]);
    samples.push({ name: match[1], labels, value });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels`. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ config: { metrics: { port: undefined, token: TOKEN } } });
  ada = await t.signup();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function scrape(token = TOKEN) {
  const res = await t.request({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return { text: res.body, samples: parseExposition(res.body) };
}

/** Works every queued run with the runner, as a worker's loop would. */
async function workQueue() {
  while (await t.services.runner.runNext()) {
    /* next */
  }
}

describe('GET /metrics with METRICS_TOKEN', () => {
  it('counts the runs by trigger, the queue, claims, steps, model calls, tokens and cost', async () => {
    const workflowId = await workflowOnFakeModel(t, ada.token, {
      modelUrl: fake.url,
      workflow: 'Measured',
      agents: [{ name: 'Writer', llmModel: 'gpt-4o' }],
    });
    const before = (await scrape()).samples;

    // Two manual runs and one a schedule starts, queued with no worker to take them yet.
    const ids: string[] = [];
    for (const _ of [1, 2]) {
      const res = await t.request({
        method: 'POST',
        url: `/api/workflows/${workflowId}/execute`,
        token: ada.token,
        payload: { input: {} },
      });
      expect(res.statusCode).toBe(202);
      ids.push(res.json().id as string);
    }
    const scheduled = await t.services.triggers.fire({
      organizationId: ada.organization.id,
      workflowId,
      trigger: 'schedule',
      input: {},
    });
    ids.push(scheduled.id);

    const queued = (await scrape()).samples;
    expect(valueOf(queued, 'crewline_runs_queued')).toBe(3);
    expect(valueOf(queued, 'crewline_runs_started_total', { trigger: 'manual' })).toBe(
      valueOf(before, 'crewline_runs_started_total', { trigger: 'manual' }) + 2,
    );
    expect(valueOf(queued, 'crewline_runs_started_total', { trigger: 'schedule' })).toBe(
      valueOf(before, 'crewline_runs_started_total', { trigger: 'schedule' }) + 1,
    );

    // The first manual run's model refuses (400, not retried): that run fails; the others complete.
    fake.script([
      { error: { status: 400, message: 'Bad request' } },
      { content: 'Second answer.' },
      { content: 'Scheduled answer.' },
    ]);
    await workQueue();
    const runs: Execution[] = [];
    for (const id of ids) runs.push(await waitForRunEnd(t, ada.token, id));
    expect(runs.map((run) => run.status)).toEqual(['failed', 'completed', 'completed']);

    const { text, samples: after } = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(valueOf(after, 'crewline_runs_queued')).toBe(0);
    expect(delta('crewline_runs_completed_total', { trigger: 'manual' })).toBe(1);
    expect(delta('crewline_runs_failed_total', { trigger: 'manual' })).toBe(1);
    expect(delta('crewline_runs_completed_total', { trigger: 'schedule' })).toBe(1);
    expect(delta('crewline_runs_failed_total', { trigger: 'schedule' })).toBe(0);
    expect(delta('crewline_runs_completed_total', { trigger: 'webhook' })).toBe(0);
    // Each run claimed once, from its queueing.
    expect(delta('crewline_run_claim_latency_seconds_count')).toBe(3);
    expect(delta('crewline_run_claim_latency_seconds_sum')).toBeGreaterThan(0);
    // One agent step each: two completed, one failed.
    expect(delta('crewline_step_duration_seconds_count', { kind: 'agent', status: 'completed' })).toBe(2);
    expect(delta('crewline_step_duration_seconds_count', { kind: 'agent', status: 'failed' })).toBe(1);
    // One model call each, by provider and family (gpt-4o is the gpt-4 family).
    const calls = { provider: 'openai', model_family: 'gpt-4' };
    expect(delta('crewline_model_call_duration_seconds_count', { ...calls, outcome: 'ok' })).toBe(2);
    expect(delta('crewline_model_call_duration_seconds_count', { ...calls, outcome: 'error' })).toBe(1);

    // Tokens and cost as the completed steps report them.
    const steps = runs.slice(1).map((run) => run.output.n1);
    const sum = (pick: (usage: (typeof steps)[number]['usage']) => number) =>
      steps.reduce((total, step) => total + pick(step.usage), 0);
    expect(sum((u) => u.promptTokens)).toBeGreaterThan(0);
    expect(delta('crewline_model_tokens_total', { provider: 'openai', direction: 'input' })).toBe(
      sum((u) => u.promptTokens),
    );
    expect(delta('crewline_model_tokens_total', { provider: 'openai', direction: 'output' })).toBe(
      sum((u) => u.completionTokens),
    );
    expect(delta('crewline_model_cost_usd_total', { provider: 'openai' })).toBeCloseTo(
      sum((u) => u.costUsd ?? 0),
      9,
    );
    expect(delta('crewline_model_cost_usd_total', { provider: 'anthropic' })).toBe(0);

    // The process's own figures: its pool and event loop (prom-client's default metrics, prefixed).
    expect(valueOf(after, 'crewline_db_pool_max')).toBe(t.database.pool.options.max);
    expect(valueOf(after, 'crewline_db_pool_connections')).toBeGreaterThan(0);
    expect(after.some((s) => s.name === 'crewline_nodejs_eventloop_lag_seconds')).toBe(true);
    expect(after.some((s) => s.name === 'crewline_websocket_connections')).toBe(true);

    // Nothing names an organization: no label, and no organization's id in any value.
    expect(after.filter((s) => Object.keys(s.labels).some((k) => k.includes('organization')))).toEqual([]);
    expect(text).not.toContain(ada.organization.id);
    expect(text).not.toContain(workflowId);
  });

  it('counts the runs waiting for a person or a time', async () => {
    const before = valueOf((await scrape()).samples, 'crewline_runs_waiting');
    const sender = await createAgent(t, ada.token, { name: 'Sender' });
    const workflow = await t.request({
      method: 'POST',
      url: '/api/workflows',
      token: ada.token,
      payload: { name: 'Waits a day', status: 'active', ...delayedSendOf(sender.id) },
    });
    expect(workflow.statusCode, workflow.body).toBe(201);
    const started = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflow.json().id}/execute`,
      token: ada.token,
      payload: { input: {} },
    });
    expect(started.statusCode).toBe(202);
    await workQueue();
    const after = (await scrape()).samples;
    expect(valueOf(after, 'crewline_runs_waiting')).toBe(before + 1);
    expect(valueOf(after, 'crewline_runs_queued')).toBe(0);
  });

  it('counts the realtime websockets open on the process', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('the app is not listening on a port');
    const open = async () => valueOf((await scrape()).samples, 'crewline_websocket_connections');
    /** Scrapes until the gauge reads `expected` (a socket is counted once its token is checked). */
    const until = async (expected: number) => {
      for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
        if ((await open()) === expected) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await open()).toBe(expected);
    };
    const before = await open();
    const client = connectRealtime(
      `ws://127.0.0.1:${address.port}/ws?token=${encodeURIComponent(ada.token)}`,
    );
    await client.opened;
    await until(before + 1);
    client.close();
    await client.closed;
    await until(before);
  });

  it('answers 401 with JSON to a wrong or missing token', async () => {
    const wrong = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toMatch(/metrics token/);
    expect(wrong.body).not.toContain('crewline_');
    const missing = await t.request({ method: 'GET', url: '/metrics' });
    expect(missing.statusCode).toBe(401);
    // A user's session is not the metrics token.
    const session = await t.request({ method: 'GET', url: '/metrics', token: ada.token });
    expect(session.statusCode).toBe(401);
  });
});

describe('METRICS_PORT and METRICS_TOKEN', () => {
  const env = { JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };
  it('are read into the configuration, and a short token stops the start naming it', () => {
    expect(loadConfig(env).metrics).toEqual({ port: undefined, token: undefined });
    expect(loadConfig({ ...env, METRICS_PORT: '9464', METRICS_TOKEN: TOKEN }).metrics).toEqual({
      port: 9464,
      token: TOKEN,
    });
    expect(() => loadConfig({ ...env, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ ...env, METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });
});

describe('the model family label', () => {
  it('keeps a model name to its family, and a bounded number of them', () => {
    expect(modelFamily('gpt-4o-mini')).toBe('gpt-4');
    expect(modelFamily('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4');
    expect(modelFamily('llama3.1:8b')).toBe('llama3');
    expect(modelFamily('accounts/fireworks/models/mixtral-8x7b')).toBe('mixtral-8');
    const many = Array.from({ length: 100 }, (_, i) => modelFamily(`custom${'x'.repeat(i)}-model`));
    expect(new Set(many).size).toBeLessThanOrEqual(31);
    expect(many.at(-1)).toBe('other');
  });
});

describe('GET /metrics and the API', () => {
  it('is not part of the OpenAPI document', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(Object.keys(res.json().paths as object)).not.toContain('/metrics');
    expect(Object.keys(res.json().paths as object)).toContain('/api/health');
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('answers 404 on the main port, token or not', async () => {
    const plain = await createTestApp();
    try {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const res = await plain.request({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toEqual(expect.any(String));
      }
    } finally {
      await plain.close();
    }
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics on its own port without a token, and the main port answers 404', async () => {
    const settings = { port: 0, token: TOKEN };
    const ported = await createTestApp({ config: { metrics: settings } });
    const registry = await processMetrics(settings, ported.db, ported.services.queueDepth);
    const server = await startMetricsServer({ port: 0, host: '127.0.0.1', registry: registry! });
    try {
      const main = await ported.request({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(main.statusCode).toBe(404);

      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const samples = parseExposition(await res.text());
      // This app's database has no run: its queue reads empty.
      expect(valueOf(samples, 'crewline_runs_queued')).toBe(0);
      expect(samples.some((s) => s.name === 'crewline_runs_started_total')).toBe(true);

      const other = await fetch(`http://127.0.0.1:${server.port}/api/health`);
      expect(other.status).toBe(404);
    } finally {
      await server.close();
      await ported.close();
    }
  });
});
