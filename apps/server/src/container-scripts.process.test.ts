import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase } from './testing/test-db';

// The container image's build and start steps (scripts/container-build.sh, scripts/container-start.sh,
// which the Dockerfile runs) on this bare machine: build a copy of this checkout into a folder, then
// migrate an empty database and start an API and a worker from that folder alone.
const run = promisify(execFile);
const repository = path.resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(path.join(os.tmpdir(), 'crewline-container-'));
chmodSync(work, 0o755);
const checkout = path.join(work, 'checkout');
const image = path.join(work, 'image');
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
const children: ChildProcess[] = [];
let env: NodeJS.ProcessEnv;
let buildOutput = '';

async function query<T>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `container-start.sh` with `args`, run to its end: its exit code and what it printed. */
async function startScript(args: string[], extra: NodeJS.ProcessEnv = {}) {
  try {
    const { stdout, stderr } = await run(path.join(image, 'scripts/container-start.sh'), args, {
      cwd: os.tmpdir(),
      env: { ...env, ...extra },
      timeout: 60_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** The server through `container-start.sh`, running until it prints `ready` (or exits first). */
async function startServer(extra: NodeJS.ProcessEnv, ready: RegExp) {
  const child = spawn(path.join(image, 'scripts/container-start.sh'), [], {
    cwd: os.tmpdir(),
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`exited (${code}) before ${ready}:\n${output}`)));
  });
  return { child, exited, output: () => output };
}

beforeAll(async () => {
  // A copy of the checkout (its sources as they are now, without builds or installed packages) with
  // hard links to the installed packages: the build writes its web app there, never into this
  // checkout's apps/web/dist, which the browser tests build at the same time.
  const excludes = ['node_modules', 'dist', './data', './.git', './test-results', './playwright-report']
    .map((pattern) => `--exclude='${pattern}'`)
    .join(' ');
  await run('bash', [
    '-c',
    `mkdir -p "$2" && tar -C "$1" ${excludes} -cf - . | tar -C "$2" -xf -`,
    'copy',
    repository,
    checkout,
  ]);
  for (const folder of [
    '.',
    ...['apps', 'packages'].flatMap((parent) =>
      readdirSync(path.join(repository, parent)).map((name) => `${parent}/${name}`),
    ),
  ]) {
    const modules = path.join(repository, folder, 'node_modules');
    if (!existsSync(modules)) continue;
    await run('bash', [
      '-c',
      'cp -al "$1" "$2" 2>/dev/null || cp -a "$1" "$2"',
      'link',
      modules,
      path.join(checkout, folder, 'node_modules'),
    ]);
  }
  // Tools' caches are rewritten in place: linked, a write in the copy would land in this checkout's.
  rmSync(path.join(checkout, 'node_modules/.cache'), { recursive: true, force: true });
  const build = await run(path.join(checkout, 'scripts/container-build.sh'), [image], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CREWLINE_BUILD_REUSE_NODE_MODULES: '1' },
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  buildOutput = build.stdout + build.stderr;
  // The checkout's copy is no longer needed: the server must start from the image folder alone.
  rmSync(checkout, { recursive: true, force: true });

  database = await createEmptyDatabase('container');
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: database.url,
    DATABASE_WAIT_SECONDS: '10',
    JWT_SECRET: 'container-test-secret-that-is-long-enough-0123',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
}, 180_000);

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('the container build and start scripts on the bare machine', () => {
  it('builds a folder with the server, its migrations and the web app, without devDependencies or tests', () => {
    expect(buildOutput).toContain('container-build: done');
    expect(existsSync(path.join(image, 'apps/web/dist/index.html'))).toBe(true);
    expect(existsSync(path.join(image, 'packages/db/migrations/meta/_journal.json'))).toBe(true);
    expect(existsSync(path.join(image, 'node_modules/tsx'))).toBe(true);
    // Dev tools, the Node of the `node` devDependency, the web app's packages and tests stay behind.
    for (const gone of ['vitest', 'typescript', 'vite', 'node', 'react-dom', 'eslint']) {
      expect(existsSync(path.join(image, 'node_modules', gone)), gone).toBe(false);
    }
    expect(existsSync(path.join(image, 'apps/server/src/app.test.ts'))).toBe(false);
    expect(existsSync(path.join(image, 'e2e'))).toBe(false);
  });

  it('gives up waiting for a database that does not answer, naming it without its password', async () => {
    const closed = await freePort();
    const result = await startScript(['migrate'], {
      DATABASE_URL: `postgres://crewline:hunter2@127.0.0.1:${closed}/crewline`,
      DATABASE_WAIT_SECONDS: '2',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('did not accept a connection within 2 s');
    expect(result.output).not.toContain('hunter2');
  });

  it(
    'migrates an empty database (the migration Job), then starts an API and a worker',
    { timeout: 120_000 },
    async () => {
      const migrated = await startScript(['migrate']);
      expect(migrated.output).toContain('is migrated');
      expect(migrated.code).toBe(0);
      const journal = JSON.parse(
        readFileSync(path.join(image, 'packages/db/migrations/meta/_journal.json'), 'utf8'),
      ) as {
        entries: unknown[];
      };
      const [applied] = await query<{ count: number }>(
        'select count(*)::int as count from drizzle.__drizzle_migrations',
      );
      expect(applied.count).toBe(journal.entries.length);

      // ROLE=api: HTTP only, the web app served, healthy; no worker heartbeat.
      const port = await freePort();
      const api = await startServer({ ROLE: 'api', PORT: String(port) }, /Crewline is running at/);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(200);
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toContain('<div id="root">');
      expect(api.output()).toMatch(/starting Crewline with ROLE=api on Node v2[2-9]/);
      expect(await startScript(['health'], { ROLE: 'api', PORT: String(port) })).toMatchObject({ code: 0 });
      expect(await query('select role from worker_heartbeats')).toEqual([]);

      // ROLE=worker: no HTTP, its heartbeat in the database, which is what its health check reads.
      const workerPort = await freePort();
      const worker = await startServer({ ROLE: 'worker', PORT: String(workerPort) }, /worker started/);
      expect(worker.output()).not.toContain('Crewline is running at');
      await expect(fetch(`http://127.0.0.1:${workerPort}/api/health`)).rejects.toThrow();
      expect(await query('select role from worker_heartbeats')).toEqual([{ role: 'worker' }]);
      expect(await startScript(['health'], { ROLE: 'worker' })).toMatchObject({ code: 0 });

      // exec: the script's process is the server, so a container's SIGTERM stops it gracefully.
      for (const server of [worker, api]) {
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
        expect(server.output()).toContain('"msg":"stopped"');
      }
      // With them gone, both health checks fail (and so would Docker's HEALTHCHECK).
      expect(await startScript(['health'], { ROLE: 'api', PORT: String(port) })).toMatchObject({ code: 1 });
      const noWorker = await startScript(['health'], { ROLE: 'worker' });
      expect(noWorker.code).toBe(1);
      expect(noWorker.output).toContain('no heartbeat of a worker');
    },
  );
});
