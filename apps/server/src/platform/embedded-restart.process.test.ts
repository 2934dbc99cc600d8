import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../testing/fake-llm-server';
import { modelCallsFor, processApi, signUpWithChain } from '../testing/process-api';
import {
  processEnv,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../testing/server-process';

// docs/architecture.md, Runtime: the server on its embedded PostgreSQL (as `npm start` runs it) is
// SIGKILLed while two runs wait for the model. Its PostgreSQL stops with it rather than keeping the
// data folder locked, so the server starts again on the same DATA_DIR and finishes both runs.
let fake: FakeLlmServer;
const servers: ServerProcess[] = [];
let env: NodeJS.ProcessEnv;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-embedded-restart-'));
// mkdtemp makes it 0700; as root, Postgres runs as the "postgres" user and must enter it.
chmodSync(dataDir, 0o755);
const clusterDir = path.join(dataDir, 'postgres');
let base = '';
const call = processApi(() => base);

beforeAll(async () => {
  fake = await startFakeLlmServer();
  // No DATABASE_URL: the embedded PostgreSQL in DATA_DIR.
  env = processEnv({
    DATA_DIR: dataDir,
    EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
    RUN_LEASE_SECONDS: '2',
  });
});

afterAll(async () => {
  for (const server of servers) await stopServerProcess(server, 'SIGKILL');
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = () => {
  const server = startServerProcess(env);
  servers.push(server);
  return server;
};

/** Processes whose command line names our cluster folder: the postmaster and its watchdog. */
const onOurFolder = () =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(clusterDir));

/** Rejects when `promise` has not settled after `ms`: a deadline for the test, not a speed check. */
const within = <T>(ms: number, promise: Promise<T>, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} after ${ms} ms`)), ms)),
  ]);

describe('the server on its embedded PostgreSQL, SIGKILLed mid-run', () => {
  it(
    'takes its PostgreSQL with it, starts again on the same DATA_DIR and finishes the runs',
    { timeout: 90_000 },
    async () => {
      const first = start();
      onTestFailed(() =>
        servers.forEach((server, n) => console.log(`--- start ${n + 1} ---\n${server.output()}`)),
      );
      base = await first.url;
      const { token, workflowId } = await signUpWithChain(call, fake, ['Alpha', 'Bravo']);
      // Both runs' first agent is still waiting for its answer when the server dies.
      fake.script([
        { content: 'never delivered', delayMs: 60_000 },
        { content: 'never delivered', delayMs: 60_000 },
      ]);
      const ids: string[] = [];
      for (const task of ['first run', 'second run']) {
        const queued = await call('POST', `/api/workflows/${workflowId}/execute`, { input: { task } }, token);
        expect(queued.status).toBe(202);
        ids.push(queued.body.id as string);
      }
      await expect.poll(() => modelCallsFor(fake, 'Alpha'), { timeout: 20_000 }).toBe(2);
      const postmaster = Number(readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      expect(onOurFolder().some((line) => line.trim().startsWith(`${postmaster} `))).toBe(true);

      await stopServerProcess(first, 'SIGKILL');
      // The PostgreSQL it started (and the watchdog that stopped it) are gone, without anyone's help.
      await expect.poll(onOurFolder, { timeout: 15_000, interval: 200 }).toEqual([]);

      const second = start();
      base = await within(30_000, second.url, 'the restarted server was not listening');
      const health = await call('GET', '/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok' });

      // The runs in flight are resumed (the model answers at once now) and complete.
      for (const id of ids) {
        await expect
          .poll(async () => (await call('GET', `/api/executions/${id}`, undefined, token)).body.status, {
            timeout: 30_000,
            interval: 200,
          })
          .toBe('completed');
      }
      expect(modelCallsFor(fake, 'Alpha')).toBe(4); // the two cut off, then the two resumed
      expect(modelCallsFor(fake, 'Bravo')).toBe(2);
      const resumed = await call('GET', `/api/executions/${ids[0]}`, undefined, token);
      expect(resumed.body.metrics).toMatchObject({ steps: 2, attempts: 2 });

      expect(await stopServerProcess(second)).toBe(0);
      expect(onOurFolder()).toEqual([]);
    },
  );
});
