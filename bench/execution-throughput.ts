// Execution throughput end to end (docs/product-rules.md, Performance budgets): API → queue → worker → DB → events, with an instant
// fake model. The real pieces run in this process as in production (main.ts): embedded Postgres,
// pg-boss, the execution worker, the Postgres LISTEN/NOTIFY bus and the HTTP API; the model is the fake
// OpenAI-compatible server, configured as the organization's OpenAI connection.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { inArray, sql } from 'drizzle-orm';
import type { RealtimeEvent } from '@crewline/contracts';
import { createDb, runMigrations, startEmbeddedPostgres, workflowExecutions } from '@crewline/db';
import { buildApp, createServices } from '../apps/server/src/app';
import { startWorkerRole } from '../apps/server/src/modules/executions/worker-role';
import { createPgEventBus } from '../apps/server/src/platform/events';
import { executionQueue, JOBS_CHANNEL, startQueue } from '../apps/server/src/platform/queue';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { testConfig } from '../apps/server/src/testing/test-config';
import { chainOf } from '../apps/server/src/testing/workflow-shapes';

const LATENCY_RUNS = 100;
const WARMUP_RUNS = 5;
const THROUGHPUT_RUNS = 300;
const SUBMITTERS = 4;
const CONCURRENCIES = [4, 8];
const THROUGHPUT_TIMEOUT_MS = 300_000;

type Database = ReturnType<typeof createDb>;
type Timing = { job?: number; created?: number; started?: number; completed?: number; failed?: string };

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round = (n: number) => Math.round(n * 100) / 100;
function stats(values: number[]) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50Ms: round(percentile(sorted, 50)),
    p95Ms: round(percentile(sorted, 95)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted[sorted.length - 1]),
    meanMs: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

/** The production wiring of main.ts (ROLE=all) on a shared database, with `concurrency` runs at once. */
async function startStack(databaseUrl: string, database: Database, concurrency: number) {
  const config = testConfig({ runs: { concurrency, leaseMs: 30_000, maxAttempts: 3 } });
  const silent = pino({ level: 'silent' });
  const bus = createPgEventBus({ databaseUrl, pool: database.pool, logger: silent });
  await bus.start();
  const boss = await startQueue(databaseUrl, silent);
  const deps = { config, db: database.db, logger: false as const, events: bus, queue: executionQueue(boss) };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const worker = await startWorkerRole({ boss, bus, services, config, drainMs: 0 });

  // What this process saw of each run, by execution id, in performance.now() milliseconds. The job
  // wake-up and the events arrive over the same LISTEN connection the worker and the websocket hub use.
  const timings = new Map<string, Timing>();
  const waiters = new Map<string, () => void>();
  const timing = (id: string) => {
    let t = timings.get(id);
    if (!t) timings.set(id, (t = {}));
    return t;
  };
  const stopJobs = bus.onChannel(JOBS_CHANNEL, (id) => {
    if (id) timing(id).job ??= performance.now();
  });
  const stopEvents = bus.subscribe((event: RealtimeEvent) => {
    if (!('executionId' in event)) return;
    const t = timing(event.executionId);
    const now = performance.now();
    if (event.type === 'workflow_execution_created') t.created = now;
    else if (event.type === 'workflow_execution_started') t.started ??= now;
    else if (event.type === 'workflow_execution_completed') t.completed = now;
    else if (event.type === 'workflow_execution_failed') t.failed = event.error;
    else return;
    if (t.completed !== undefined || t.failed !== undefined) waiters.get(event.executionId)?.();
  });

  return {
    address,
    timings,
    /** Resolves when the run's completed (or failed) event has arrived. */
    finished(id: string) {
      const t = timing(id);
      if (t.completed !== undefined || t.failed !== undefined) return Promise.resolve(t);
      return new Promise<Timing>((resolve) => waiters.set(id, () => (waiters.delete(id), resolve(t))));
    },
    async close() {
      stopJobs();
      stopEvents();
      await worker.stop();
      await boss.stop({ graceful: false });
      await bus.stop();
      await app.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
type Stack = Awaited<ReturnType<typeof startStack>>;

async function api(stack: Stack, method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(stack.address + url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as Record<string, never>;
}

/** An account whose OpenAI connection is the fake model, and 1- and 3-agent sequential active workflows. */
async function prepare(stack: Stack, fake: FakeLlmServer) {
  const { token } = await api(stack, 'POST', '/api/auth/signup', {
    username: 'benchrun',
    email: 'benchrun@example.com',
    password: 'bench-password',
    confirmPassword: 'bench-password',
  });
  await api(
    stack,
    'PUT',
    '/api/tools/configurations/openai_config',
    { config: { apiKey: 'sk-bench', baseUrl: fake.url, defaultModel: 'gpt-4o' } },
    token,
  );
  const workflow = async (agentCount: number) => {
    const agents = [];
    for (let i = 0; i < agentCount; i++) {
      agents.push(
        await api(
          stack,
          'POST',
          '/api/agents',
          { name: `Bench ${agentCount}.${i + 1}`, role: 'Writer', goal: 'Write', llmModel: 'gpt-4o' },
          token,
        ),
      );
    }
    const { nodes, edges } = chainOf(agents.map((a) => a.id as string));
    const created = await api(
      stack,
      'POST',
      '/api/workflows',
      { name: `Bench ${agentCount} agents`, processType: 'sequential', status: 'active', nodes, edges },
      token,
    );
    return created.id as string;
  };
  return { token: token as string, oneAgent: await workflow(1), threeAgents: await workflow(3) };
}

async function execute(stack: Stack, token: string, workflowId: string) {
  const execution = await api(
    stack,
    'POST',
    `/api/workflows/${workflowId}/execute`,
    { input: { topic: 'tea' } },
    token,
  );
  return execution.id as string;
}

/** One run at a time: POST → 202 → job wake-up → started → completed. */
async function latency(stack: Stack, token: string, workflowId: string, fake: FakeLlmServer) {
  const sample = async () => {
    const posted = performance.now();
    const id = await execute(stack, token, workflowId);
    const accepted = performance.now();
    const t = await stack.finished(id);
    if (t.failed !== undefined) throw new Error(`run ${id} failed: ${t.failed}`);
    return { posted, accepted, ...t };
  };
  for (let i = 0; i < WARMUP_RUNS; i++) await sample();
  const runs = [];
  for (let i = 0; i < LATENCY_RUNS; i++) runs.push(await sample());
  fake.reset();
  return {
    runs: runs.length,
    postTo202: stats(runs.map((r) => r.accepted - r.posted)),
    postToStarted: stats(runs.map((r) => r.started! - r.posted)),
    postToCompleted: stats(runs.map((r) => r.completed! - r.posted)),
    // Both arrive over this process's LISTEN connection, so the NOTIFY delivery time cancels out.
    jobNotifyToStarted: stats(runs.map((r) => r.started! - r.job!)),
    startedToCompleted: stats(runs.map((r) => r.completed! - r.started!)),
  };
}

/** N runs submitted as fast as SUBMITTERS clients can, then wait until every one is completed. */
async function throughput(
  stack: Stack,
  database: Database,
  token: string,
  workflowId: string,
  fake: FakeLlmServer,
) {
  const ids: string[] = [];
  const begun = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: SUBMITTERS }, async () => {
      while (next < THROUGHPUT_RUNS) {
        next++;
        ids.push(await execute(stack, token, workflowId));
      }
    }),
  );
  const submitted = performance.now();
  const completedAtSubmitEnd = ids.filter((id) => stack.timings.get(id)?.completed !== undefined).length;

  // Cumulative completions each second, to show how the backlog drains.
  const perSecond: number[] = [];
  const sampler = setInterval(
    () => perSecond.push(ids.filter((id) => stack.timings.get(id)?.completed !== undefined).length),
    1000,
  );
  let timedOut = false;
  const deadline = new Promise<void>((resolve) =>
    setTimeout(() => {
      timedOut = true;
      resolve();
    }, THROUGHPUT_TIMEOUT_MS).unref(),
  );
  await Promise.race([Promise.all(ids.map((id) => stack.finished(id))), deadline]);
  clearInterval(sampler);
  const ended = performance.now();
  fake.reset();

  const byStatus = Object.fromEntries(
    (
      await database.db
        .select({ status: workflowExecutions.status, count: sql<number>`count(*)::int` })
        .from(workflowExecutions)
        .where(inArray(workflowExecutions.id, ids))
        .groupBy(workflowExecutions.status)
    ).map((r) => [r.status, r.count]),
  );
  const done = ids.map((id) => stack.timings.get(id)!).filter((t) => t.completed !== undefined);
  const lastCompleted = done.length > 0 ? Math.max(...done.map((t) => t.completed!)) : ended;
  const seconds = (ms: number) => ms / 1000;
  return {
    runs: THROUGHPUT_RUNS,
    submitters: SUBMITTERS,
    timedOut,
    statuses: byStatus,
    submitSeconds: round(seconds(submitted - begun)),
    submittedPerSecond: round(THROUGHPUT_RUNS / seconds(submitted - begun)),
    completedWhenSubmitted: completedAtSubmitEnd,
    allCompletedSeconds: round(seconds((timedOut ? ended : lastCompleted) - begun)),
    completedPerSecond: round(done.length / seconds(lastCompleted - begun)),
    completedPerSecondWhileSubmitting: round(completedAtSubmitEnd / seconds(submitted - begun)),
    backlogWhenSubmitted: THROUGHPUT_RUNS - completedAtSubmitEnd,
    drainSeconds: round(Math.max(0, seconds(lastCompleted - submitted))),
    completedPerSecondAfterSubmitting: round(
      (done.length - completedAtSubmitEnd) / Math.max(0.001, seconds(lastCompleted - submitted)),
    ),
    jobNotifyToStarted: stats(done.filter((t) => t.job && t.started).map((t) => t.started! - t.job!)),
    cumulativeCompletedEachSecond: perSecond,
  };
}

export async function runExecutionThroughput() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-'));
  chmodSync(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  const database = createDb(pg.url);
  const fake = await startFakeLlmServer();
  try {
    await runMigrations(database.db);
    let setup: Awaited<ReturnType<typeof prepare>> | undefined;
    let latencies: Record<string, unknown> = {};
    const throughputs: Record<string, unknown> = {};
    for (const concurrency of CONCURRENCIES) {
      const stack = await startStack(pg.url, database, concurrency);
      try {
        setup ??= await prepare(stack, fake);
        if (concurrency === CONCURRENCIES[0]) {
          latencies = {
            one_agent: await latency(stack, setup.token, setup.oneAgent, fake),
            three_agents: await latency(stack, setup.token, setup.threeAgents, fake),
          };
          console.log('latency', JSON.stringify(latencies, null, 2));
        }
        // Warm the wider worker pool before timing it.
        for (let i = 0; i < WARMUP_RUNS; i++)
          await stack.finished(await execute(stack, setup.token, setup.oneAgent));
        const result = await throughput(stack, database, setup.token, setup.oneAgent, fake);
        throughputs[`one_agent_concurrency_${concurrency}`] = { workerConcurrency: concurrency, ...result };
        console.log(`throughput concurrency ${concurrency}`, result);
      } finally {
        await stack.close();
      }
    }
    return {
      fakeModel: 'fake OpenAI-compatible server over HTTP on 127.0.0.1, instant replies',
      database: 'embedded PostgreSQL, ephemeral (fsync and synchronous_commit off)',
      latencyWorkerConcurrency: CONCURRENCIES[0],
      latency: latencies,
      throughput: throughputs,
      note:
        'All in one process on this machine: HTTP API, pg-boss, worker, LISTEN/NOTIFY bus and the fake model ' +
        'share the CPUs with Postgres. Latencies are measured from sending the POST; jobNotifyToStarted is from ' +
        'the job’s wake-up NOTIFY (sent at commit) to the started event, both seen on the same LISTEN connection. ' +
        'Throughput: completedPerSecondAfterSubmitting is how the backlog left when submissions stop drains, when ' +
        'no new job NOTIFY wakes the workers (cumulativeCompletedEachSecond shows it second by second).',
    };
  } finally {
    await fake.close();
    await database.close();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
