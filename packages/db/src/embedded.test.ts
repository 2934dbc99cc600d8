import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded';

const asRoot = process.getuid?.() === 0;
// The user the embedded Postgres runs as: the "postgres" user under root, otherwise ourselves.
const postgresUser = () =>
  asRoot
    ? {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
      }
    : {};

/** Whether `pid` is a process that still runs (a zombie, waiting for its parent, does not). */
async function running(pid: number) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
}

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
      // A second cluster on the same folder (its Postgres's parent, this process, is alive) must
      // fail loudly, with Postgres's own explanation.
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

  it.runIf(process.platform === 'linux')(
    'stops a Postgres left running on its folder by a server that died, then starts',
    { timeout: 60_000 },
    async () => {
      const dataDir = path.join(base, 'crashed');
      const clusterDir = path.join(dataDir, 'postgres');
      const pidFile = path.join(clusterDir, 'postmaster.pid');
      const first = await startEmbeddedPostgres({ dataDir, ephemeral: true });
      const readPid = async () => Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
      const binary = (await readFile(`/proc/${await readPid()}/cmdline`, 'utf8')).split('\0')[0];
      await query(first.url, `CREATE TABLE kept (note text); INSERT INTO kept VALUES ('survived')`);
      await first.stop();

      // What a server SIGKILLed before this version (or with its watchdog gone) leaves: a Postgres
      // whose parent is gone, still serving the folder.
      const starter = spawn(
        '/bin/sh',
        [
          '-c',
          '"$0" -D "$1" -p "$2" -c listen_addresses=127.0.0.1 >/dev/null 2>&1 &',
          binary,
          clusterDir,
          String(first.port),
        ],
        { stdio: 'ignore', ...postgresUser() },
      );
      await once(starter, 'exit');
      await expect
        .poll(() => readFile(pidFile, 'utf8').catch(() => ''), { timeout: 20_000 })
        .toMatch(/\nready/);
      const orphan = await readPid();
      expect(await running(orphan)).toBe(true);

      try {
        const second = await startEmbeddedPostgres({ dataDir, ephemeral: true });
        try {
          expect(await running(orphan)).toBe(false);
          expect(await query(second.url, 'SELECT note FROM kept')).toEqual([{ note: 'survived' }]);
        } finally {
          await second.stop();
        }
      } finally {
        // Without the fix, nobody else would stop it.
        if (await running(orphan)) process.kill(orphan, 'SIGINT');
      }
    },
  );

  it.runIf(process.platform === 'linux')(
    'starts over a pid file whose process is gone or is another program',
    { timeout: 60_000 },
    async () => {
      const dataDir = path.join(base, 'stale');
      const clusterDir = path.join(dataDir, 'postgres');
      const pidFile = path.join(clusterDir, 'postmaster.pid');
      await (await startEmbeddedPostgres({ dataDir, ephemeral: true })).stop();
      const writePidFile = async (pid: number) => {
        await writeFile(pidFile, `${pid}\n${clusterDir}\n`, { mode: 0o600 });
        const { uid, gid } = postgresUser();
        if (uid !== undefined) await chown(pidFile, uid, gid);
      };

      // A dead process's file: Postgres itself sees it is stale.
      const finished = spawn('true', { stdio: 'ignore' });
      await once(finished, 'exit');
      await writePidFile(finished.pid!);
      await (await startEmbeddedPostgres({ dataDir, ephemeral: true })).stop();

      // Its PID now another live program of the same user: Postgres would refuse it as "lock file
      // already exists", so it is removed first, and that program is left alone.
      const other = spawn('sleep', ['60'], { stdio: 'ignore', ...postgresUser() });
      try {
        await writePidFile(other.pid!);
        const started = await startEmbeddedPostgres({ dataDir, ephemeral: true });
        await started.stop();
        expect(other.exitCode).toBe(null);
        expect(other.signalCode).toBe(null);
      } finally {
        other.kill();
      }
    },
  );
});
