import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@crewline/db';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { modelCallsFor, processApi, signUpWithChain } from '../../testing/process-api';
import { connectRealtime, type RealtimeClient } from '../../testing/realtime-client';
import {
  processEnv,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../../testing/server-process';

// docs/architecture.md, Request path with real processes: the database goes away under a running server (ROLE=all: API,
// worker, LISTEN connection and queue in one process) while runs are in flight, and comes back on
// the same address. Meanwhile the API answers 503; afterwards everything recovers without a restart.
const root = mkdtempSync(path.join(os.tmpdir(), 'crewline-db-restart-'));
// As root, Postgres runs as the "postgres" user and must enter the folder.
chmodSync(root, 0o755);
const clusterDir = path.join(root, 'db');
let postgres: EmbeddedPostgresHandle | undefined;
let fake: FakeLlmServer;
let server: ServerProcess | undefined;
const sockets: RealtimeClient[] = [];
let base = '';
const call = processApi(() => base);

beforeAll(async () => {
  postgres = await startEmbeddedPostgres({ dataDir: clusterDir, ephemeral: true });
  fake = await startFakeLlmServer();
  server = startServerProcess(
    processEnv({
      DATABASE_URL: postgres.url,
      DATA_DIR: path.join(root, 'app'),
      JWT_SECRET: 'database-restart-test-secret-long-enough-0123',
      ENCRYPTION_KEY: '22'.repeat(32),
      // The fake model server, and no other port of this machine.
      EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
      // Two runs at once, so of four runs two are in flight and two wait in the queue.
      WORKER_CONCURRENCY: '2',
      // A short lease so runs interrupted by the outage are handed over within seconds.
      RUN_LEASE_SECONDS: '2',
    }),
  );
  base = await server.url;
}, 60_000);

afterAll(async () => {
  for (const socket of sockets) socket.close();
  if (server) await stopServerProcess(server, 'SIGKILL');
  await fake?.close();
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** A short-lived connection of the test's own, straight to the database. */
async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: postgres!.url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('the database restarting under a running server', () => {
  it(
    'answers 503 while it is down, then recovers requests, realtime and every run in flight',
    { timeout: 90_000 },
    async () => {
      // The server's own account of what happened is the first thing to read when this fails.
      onTestFailed(() => console.log(server!.output()));
      const { token, organizationId, workflowId } = await signUpWithChain(call, fake, ['Scout', 'Scribe']);
      const wsUrl = `${base.replace('http', 'ws')}/ws?token=${token}`;
      const before = connectRealtime(wsUrl);
      sockets.push(before);
      expect((await before.subscribe(organizationId)).type).toBe('subscribed');

      // Each run's first model call is still thinking when the database goes away.
      fake.script(Array.from({ length: 4 }, () => ({ content: 'slow answer', delayMs: 1500 })));
      const runIds: string[] = [];
      for (let i = 0; i < 4; i++) {
        const queued = await call(
          'POST',
          `/api/workflows/${workflowId}/execute`,
          { input: { task: `run-${i}` } },
          token,
        );
        expect(queued.status).toBe(202);
        runIds.push(queued.body.id as string);
      }
      await expect.poll(() => modelCallsFor(fake, 'Scout'), { timeout: 15_000 }).toBe(2);

      await postgres!.stop();

      // While it is down: a clear 503 with JSON, on public, private and websocket routes alike.
      const health = await call('GET', '/api/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ message: expect.any(String) });
      for (const [method, url, body] of [
        ['GET', '/api/workflows', undefined],
        ['GET', `/api/executions/${runIds[0]}`, undefined],
        ['POST', `/api/workflows/${workflowId}/execute`, { input: { task: 'during' } }],
      ] as const) {
        const answer = await call(method, url, body, token);
        expect(answer.status, `${method} ${url}`).toBe(503);
        expect(answer.body).toEqual({ message: expect.stringMatching(/temporarily unavailable/) });
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      const login = await call('POST', '/api/auth/login', {
        email: 'faulty@example.com',
        password: 'faulty12',
      });
      expect(login.status).toBe(503);
      // A websocket cannot check its session: the handshake is refused (the browser retries) rather than left hanging.
      const refused = connectRealtime(wsUrl);
      sockets.push(refused);
      await expect(refused.opened).rejects.toThrow(/503/);
      // The in-flight model calls answer while the database is still down: their steps cannot be stored.
      const interrupted = () =>
        server!.output().split('run attempt interrupted: the database is unavailable').length - 1;
      await expect.poll(interrupted, { timeout: 10_000 }).toBe(2);

      postgres = await startEmbeddedPostgres({ dataDir: clusterDir, ephemeral: true, port: postgres!.port });

      // Without restarting the server: requests work again…
      await expect.poll(async () => (await call('GET', '/api/health')).status, { timeout: 15_000 }).toBe(200);
      expect((await call('GET', '/api/workflows', undefined, token)).status).toBe(200);

      // …every run ends completed (none lost, none stuck running), each step stored once…
      await expect
        .poll(
          async () => {
            const rows = await query<{ status: string }>(
              'select status from workflow_executions where id = any($1::uuid[])',
              [runIds],
            );
            return rows.map((r) => r.status).sort();
          },
          { timeout: 45_000, interval: 500 },
        )
        .toEqual(['completed', 'completed', 'completed', 'completed']);
      const steps = await query<{ id: string; nodes: string[] }>(
        `select workflow_execution_id as id, array_agg(node_id order by node_id) as nodes from agent_executions
         where status = 'completed' group by workflow_execution_id`,
      );
      expect(steps).toHaveLength(4);
      for (const step of steps) expect(step.nodes).toEqual(['n1', 'n2']);

      // …and realtime events reach both the socket that was open all along and a new one.
      const after = connectRealtime(wsUrl);
      sockets.push(after);
      expect((await after.subscribe(organizationId)).type).toBe('subscribed');
      const again = await call(
        'POST',
        `/api/workflows/${workflowId}/execute`,
        { input: { task: 'after' } },
        token,
      );
      expect(again.status).toBe(202);
      const completed = (m: { type: string; executionId?: unknown }) =>
        m.type === 'workflow_execution_completed' && m.executionId === again.body.id;
      await after.waitFor(completed, 20_000);
      await before.waitFor(completed, 5000);

      // An outage is routine: warnings, but nothing logged as an error (what alerts page someone for).
      expect(server!.child.exitCode).toBeNull();
      const errors = server!
        .output()
        .split('\n')
        .filter((line) => {
          if (!line.trim()) return false;
          try {
            return (JSON.parse(line) as { level: number }).level >= 50;
          } catch {
            return true; // not a log line: a stack trace printed by a crash
          }
        });
      expect(errors).toEqual([]);
    },
  );
});
