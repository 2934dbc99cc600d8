import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase } from './testing/test-db';
import {
  processEnv,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './testing/server-process';

// The real entry point in a child process: start, sign up, stop with SIGTERM, start again.
// Under `npm run test:external-db` it runs against DATABASE_URL; otherwise on the embedded database.
const external = Boolean(process.env.TEST_DATABASE_URL);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-process-'));
chmodSync(dataDir, 0o755);
let database: Awaited<ReturnType<typeof createEmptyDatabase>> | undefined;
let env: NodeJS.ProcessEnv;

const start = (extraEnv: NodeJS.ProcessEnv = {}) => startServerProcess({ ...env, ...extraEnv });
const stop = (server: ServerProcess) => stopServerProcess(server);

const json = (method: string, body?: unknown, token?: string) => ({
  method,
  headers: {
    ...(body ? { 'content-type': 'application/json' } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  },
  body: body ? JSON.stringify(body) : undefined,
});

beforeAll(async () => {
  env = processEnv({ DATA_DIR: dataDir });
  if (external) {
    // An empty database: the server must create its schema itself.
    database = await createEmptyDatabase('process');
    env.DATABASE_URL = database.url;
  }
});

afterAll(async () => {
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe(`the server process (${external ? 'DATABASE_URL' : 'embedded PostgreSQL'})`, () => {
  it('keeps accounts and signed-in sessions across a restart', { timeout: 90_000 }, async () => {
    const first = start();
    const base = await first.url;
    expect(await (await fetch(`${base}/api/health`)).json()).toEqual({ status: 'ok' });
    const signup = await fetch(
      `${base}/api/auth/signup`,
      json('POST', {
        username: 'restart',
        email: 'restart@example.com',
        password: 'persist1',
        confirmPassword: 'persist1',
        firstName: 'Re',
        lastName: 'Start',
        role: 'user',
      }),
    );
    expect(signup.status).toBe(201);
    const { token, organization } = (await signup.json()) as { token: string; organization: { id: string } };
    expect(await stop(first)).toBe(0);
    expect(first.output()).toContain('stopped');
    if (!external) {
      // SIGTERM also stopped the embedded database: no postgres process is left on our data folder.
      const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
      expect(processes).not.toContain(path.join(dataDir, 'postgres'));
    }

    const second = start();
    const again = await second.url;
    const me = await fetch(`${again}/api/auth/me`, json('GET', undefined, token));
    expect(me.status).toBe(200);
    expect(((await me.json()) as { organization: { id: string } }).organization.id).toBe(organization.id);
    const login = await fetch(
      `${again}/api/auth/login`,
      json('POST', { email: 'restart@example.com', password: 'persist1' }),
    );
    expect(login.status).toBe(200);
    expect(await stop(second)).toBe(0);
  });

  it('refuses an invalid configuration with a message naming the variable', { timeout: 30_000 }, async () => {
    const bad = start({ PORT: 'not-a-port' });
    const code = await bad.exited;
    expect(code).toBe(1);
    expect(bad.output()).toContain('PORT');
    expect(bad.output()).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  });
});
