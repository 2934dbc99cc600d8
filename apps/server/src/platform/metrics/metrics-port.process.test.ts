import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmptyDatabase } from '../../testing/test-db';
import { processEnv, startServerProcess, stopServerProcess } from '../../testing/server-process';

// A worker process has no HTTP port of its own: with METRICS_PORT it serves /metrics there, as the
// process entry (start.ts) starts it, so Prometheus scrapes workers like API processes.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-metrics-'));
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;

beforeAll(async () => {
  database = await createEmptyDatabase('metrics');
});
afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('serves /metrics on METRICS_PORT from a ROLE=worker process', async () => {
  const server = startServerProcess(
    processEnv({
      ROLE: 'worker',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      WORKER_CONCURRENCY: '3',
      METRICS_PORT: '0',
      JWT_SECRET: 'metrics-process-test-secret-0123456789abcdef',
      ENCRYPTION_KEY: '11'.repeat(32),
    }),
    /worker started/,
  );
  try {
    await server.ready;
    const port = /Metrics are served at http:\/\/[^:]+:(\d+)\/metrics/.exec(server.output())?.[1];
    expect(port, server.output()).toBeDefined();
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const line = (name: string) => new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1];
    expect(line('crewline_runs_queued')).toBe('0');
    // The pool a worker of 3 loops opens (DATABASE_POOL_SIZE's default: loops + 4).
    expect(line('crewline_db_pool_max')).toBe('7');
    expect(text).toContain('crewline_nodejs_eventloop_lag_seconds');
  } finally {
    expect(await stopServerProcess(server)).toBe(0);
  }
});
