import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded';

const asRoot = process.getuid?.() === 0;

async function query(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'crewline-embedded-'));
  await chmod(base, 0o755);
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('the embedded database', () => {
  it('keeps its data and password across restarts, on a fresh free port each time', async () => {
    const dataDir = path.join(base, 'data');
    const signalListeners = () =>
      ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit'].map((e) => process.listenerCount(e));
    const listenersBefore = signalListeners();

    const first = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    try {
      expect(new URL(first.url).hostname).toBe('127.0.0.1');
      expect(new URL(first.url).pathname).toBe('/crewline');
      await query(first.url, `CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')`);
      // The caller's graceful shutdown stays in charge of signals and of the exit code.
      expect(signalListeners()).toEqual(listenersBefore);
    } finally {
      await first.stop();
    }

    const passwordFile = path.join(dataDir, 'postgres-password');
    expect((await stat(passwordFile)).mode & 0o777).toBe(0o600);
    const password = (await readFile(passwordFile, 'utf8')).trim();
    expect(decodeURIComponent(new URL(first.url).password)).toBe(password);

    const second = await startEmbeddedPostgres({ dataDir, ephemeral: true });
    try {
      expect(second.url.replace(/:\d+\//, ':PORT/')).toBe(first.url.replace(/:\d+\//, ':PORT/'));
      expect(await query(second.url, 'SELECT note FROM kept')).toEqual([{ note: 'still here' }]);
      // A second cluster on the same folder must fail loudly, with Postgres's own explanation.
      await expect(startEmbeddedPostgres({ dataDir, ephemeral: true })).rejects.toThrow(/postmaster\.pid/);
    } finally {
      await second.stop();
    }
    // stop() twice (say, from two shutdown paths) is harmless.
    await expect(second.stop()).resolves.toBeUndefined();
    await expect(query(second.url, 'SELECT 1')).rejects.toThrow();
  });

  it('refuses to open an existing cluster whose password file is gone', async () => {
    const dataDir = path.join(base, 'orphan');
    await mkdir(path.join(dataDir, 'postgres'), { recursive: true });
    await writeFile(path.join(dataDir, 'postgres', 'PG_VERSION'), '18\n');
    await expect(startEmbeddedPostgres({ dataDir })).rejects.toThrow(/postgres-password is missing/);
  });

  it.runIf(asRoot)('as root, names the folder the postgres user cannot enter before starting', async () => {
    const locked = path.join(base, 'private');
    await mkdir(locked, { mode: 0o700 });
    await chmod(locked, 0o700);
    await expect(startEmbeddedPostgres({ dataDir: path.join(locked, 'data') })).rejects.toThrow(
      `cannot enter ${locked} (mode 700). Fix: chmod o+x ${locked}`,
    );
  });
});
