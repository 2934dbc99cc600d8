// API latency under concurrent load on list endpoints with thousands of rows (docs/product-rules.md, Performance budgets).
import { mkdtempSync, chmodSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  agentExecutions,
  agents,
  createDb,
  runMigrations,
  startEmbeddedPostgres,
  users,
  workflowExecutions,
  workflows,
} from '@crewline/db';
import { executionSchema } from '@crewline/contracts';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/testing/test-config';

const CONCURRENCY = 10;
const DURATION_MS = 4000;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * The clients, in a thread of their own: real clients are other machines, so their requests and
 * responses are not parsed on the server's event loop or collected by its garbage collector (which,
 * with the clients in the server's thread, added their pauses to the server's latencies). Each
 * endpoint gets WARMUP_MS of the same load first, unmeasured: a process's first requests of a kind
 * compile its code paths and plan its statements on each pooled connection.
 */
const LOAD_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, token, concurrency, warmupMs, durationMs } = workerData;
async function hammer(ms, latencies) {
  const deadline = performance.now() + ms;
  let errors = 0;
  await Promise.all(Array.from({ length: concurrency }, async (_, client) => {
    const url = urls[client % urls.length];
    while (performance.now() < deadline) {
      const started = performance.now();
      const res = await fetch(url, { headers: { authorization: 'Bearer ' + token } });
      await res.arrayBuffer();
      if (!res.ok) errors++;
      latencies?.push(performance.now() - started);
    }
  }));
  return errors;
}
(async () => {
  await hammer(warmupMs);
  const latencies = [];
  const errors = await hammer(durationMs, latencies);
  parentPort.postMessage({ latencies, errors });
})();
`;
const WARMUP_MS = 1000;
const TEN_ZONES = [
  'Europe/Paris',
  'UTC',
  'America/New_York',
  'America/Sao_Paulo',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Pacific/Auckland',
  'Africa/Lagos',
];

/** Client i asks for urls[i % urls.length]. */
async function load(urls: string[], token: string) {
  const { latencies, errors } = await new Promise<{ latencies: number[]; errors: number }>(
    (resolve, reject) => {
      const thread = new Worker(LOAD_THREAD, {
        eval: true,
        workerData: { urls, token, concurrency: CONCURRENCY, warmupMs: WARMUP_MS, durationMs: DURATION_MS },
      });
      thread.once('message', resolve);
      thread.once('error', reject);
    },
  );
  latencies.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    requests: latencies.length,
    errors,
    requestsPerSecond: round(latencies.length / (DURATION_MS / 1000)),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
  };
}

export async function runApiLatency() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-'));
  chmodSync(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  const database = createDb(pg.url);
  try {
    await runMigrations(database.db);
    const app = await buildApp({ config: testConfig(), db: database.db, logger: false });
    // For comparison only: the list as it answered before it served summaries (whole runs, output
    // map, logs and metrics included), on the same rows in the same process.
    app.get(
      '/api/bench/executions-whole-runs',
      { schema: { response: { 200: z.array(executionSchema) } } },
      async (request) => {
        const rows = await database.db
          .select({
            e: workflowExecutions,
            workflowName: workflows.name,
            processType: workflows.processType,
            triggeredByName: users.username,
          })
          .from(workflowExecutions)
          .leftJoin(workflows, eq(workflows.id, workflowExecutions.workflowId))
          .leftJoin(users, eq(users.id, workflowExecutions.triggeredBy))
          .where(eq(workflowExecutions.organizationId, request.auth.organizationId))
          .orderBy(desc(workflowExecutions.createdAt))
          .limit(50);
        return rows.map(({ e, workflowName, processType, triggeredByName }) => ({
          ...e,
          workflowName,
          processType,
          triggeredByName,
          result: (e.result ?? null) as string | null,
          startedAt: e.startedAt?.toISOString() ?? null,
          completedAt: e.completedAt?.toISOString() ?? null,
          createdAt: e.createdAt.toISOString(),
        }));
      },
    );
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const signup = await fetch(`${address}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'bench',
        email: 'bench@example.com',
        password: 'bench-password',
        confirmPassword: 'bench-password',
      }),
    });
    const { token, organization } = (await signup.json()) as { token: string; organization: { id: string } };
    const org = organization.id;
    const agentIds = await database.db
      .insert(agents)
      .values(
        Array.from({ length: 1000 }, (_, i) => ({
          name: `Agent ${i}`,
          role: 'Role',
          goal: 'Goal',
          organizationId: org,
        })),
      )
      .returning({ id: agents.id });
    const flows = await database.db
      .insert(workflows)
      .values(Array.from({ length: 200 }, (_, i) => ({ name: `Flow ${i}`, organizationId: org })))
      .returning({ id: workflows.id });
    const answer = 'The agent wrote a report of a few paragraphs. '.repeat(40);
    const runOutput = Object.fromEntries(
      ['researcher', 'writer'].map((node) => [
        node,
        {
          content: answer,
          metadata: { agentName: node, role: 'Analyst', model: 'gpt-4o' },
          executionTime: 1200,
          usage: { promptTokens: 100, completionTokens: 50, totalTokens: 150 },
        },
      ]),
    );
    const runLogs = Array.from({ length: 12 }, (_, i) => ({
      at: new Date().toISOString(),
      level: 'info' as const,
      message: `Step ${i}: the agent answered`,
    }));
    for (let batch = 0; batch < 10; batch++) {
      // Spread over the last 10 days, so the 7-day analytics range holds most of them.
      const runs = await database.db
        .insert(workflowExecutions)
        .values(
          Array.from({ length: 500 }, (_, i) => {
            const at = Date.now() - (batch * 500 + i) * 172_800;
            return {
              workflowId: flows[(batch * 500 + i) % flows.length].id,
              organizationId: org,
              status: i % 10 === 0 ? ('failed' as const) : ('completed' as const),
              createdAt: new Date(at),
              startedAt: new Date(at),
              completedAt: new Date(at + 5000),
              metrics: { totalTokens: 300 },
              // What a real two-step run stores: each step's answer, the run's log lines and its result.
              output: runOutput,
              logs: runLogs,
              result: answer,
            };
          }),
        )
        .returning({ id: workflowExecutions.id, createdAt: workflowExecutions.createdAt });
      // Two agent steps per run.
      await database.db.insert(agentExecutions).values(
        runs.flatMap((run, i) =>
          [0, 1].map((k) => ({
            workflowExecutionId: run.id,
            agentId: agentIds[(i * 2 + k) % agentIds.length].id,
            status: 'completed' as const,
            metrics: { executionTime: 1200, totalTokens: 150 },
            createdAt: run.createdAt,
          })),
        ),
      );
    }
    // What a running system looks like a minute after such a bulk insert: autovacuum has set the
    // visibility map and the planner's statistics. Without it, each run of the bench would measure
    // whether autovacuum happened to pass during the load, and plans made for empty tables.
    await database.pool.query('vacuum analyze');
    const results: Record<string, unknown> = {};
    for (const [name, route] of [
      ['health', '/api/health'],
      ['auth_me', '/api/auth/me'],
      ['agents_list_1000', '/api/agents'],
      ['executions_list_50_of_5000_whole_runs_before', '/api/bench/executions-whole-runs'],
      ['executions_list_50_of_5000', '/api/executions'],
      ['stats_5000_executions', `/api/organizations/${org}/stats`],
      [
        'analytics_7d_5000_executions_10000_steps',
        `/api/organizations/${org}/analytics?days=7&tz=Europe%2FParis`,
      ],
      ['analytics_30d_5000_executions_10000_steps', `/api/organizations/${org}/analytics?days=30`],
      ['analytics_90d_5000_executions_10000_steps', `/api/organizations/${org}/analytics?days=90`],
      // Each client in a time zone of its own: no two requests can share a summary, so each is computed.
      [
        'analytics_7d_each_client_its_own_time_zone',
        TEN_ZONES.map((tz) => `/api/organizations/${org}/analytics?days=7&tz=${encodeURIComponent(tz)}`),
      ],
    ] as const) {
      const routes: readonly string[] = typeof route === 'string' ? [route] : route;
      results[name] = await load(
        routes.map((r) => `${address}${r}`),
        token,
      );
      console.log(name, results[name]);
    }
    await app.close();
    return {
      concurrency: CONCURRENCY,
      durationMs: DURATION_MS,
      method: `clients in a thread of their own; per endpoint ${WARMUP_MS} ms of the same load unmeasured, then ${DURATION_MS} ms measured`,
      rows: { agents: 1000, workflows: 200, executions: 5000, agentSteps: 10000 },
      endpoints: results,
    };
  } finally {
    await database.close();
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
