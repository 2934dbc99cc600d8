// Cold start, warm start and idle memory of the real server process (main.ts, ROLE=all, embedded
// PostgreSQL), started as `npm start` starts it: `node --import tsx apps/server/src/main.ts`.
// Each round uses a fresh DATA_DIR: the first start initialises the cluster (initdb, migrations, secrets),
// the second start reuses it. Then `npm start` itself, as a user types it, on an existing DATA_DIR: the
// budgets of docs/product-rules.md (healthy within 1.5 s, 150 MiB idle) are its figures.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  processEnv,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../apps/server/src/testing/server-process';
import { memoryMiB } from './figures';

const ROUNDS = 5;
const IDLE_MS = 5000;
/** `npm start` rounds; one more goes first, which builds the web app if it is not current. */
const NPM_ROUNDS = 5;
const NPM_IDLE_MS = 30_000;
const root = path.join(import.meta.dirname, '..');
const START_TIMEOUT_MS = 60_000;
const HEALTH_POLL_MS = 10;

/** When `GET /api/health` first answers 200 (performance.now()), polling every HEALTH_POLL_MS. */
async function healthyAt(url: string): Promise<number> {
  for (;;) {
    const res = await fetch(`${url}/api/health`).catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status === 200) return performance.now();
    await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(sorted[Math.floor(sorted.length / 2)]),
    min: round(sorted[0]),
    max: round(sorted[sorted.length - 1]),
  };
}

function withTimeout<T>(promise: Promise<T>, what: string, server: ServerProcess) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} took over ${START_TIMEOUT_MS} ms:\n${server.output()}`)),
      START_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Spawn → 'Crewline is running at' → first 200 from /api/health → idle → SIGTERM → exit. */
async function startOnce(dataDir: string) {
  const spawned = performance.now();
  const server = startServerProcess(processEnv({ DATA_DIR: dataDir }));
  try {
    const url = await withTimeout(server.url, 'the "running at" line', server);
    const running = performance.now();
    const healthy = await withTimeout(healthyAt(url), 'GET /api/health → 200', server);
    const pid = server.child.pid!;
    const atHealthy = memoryMiB(pid);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const idle = memoryMiB(pid);
    const stopping = performance.now();
    const code = await stopServerProcess(server);
    if (code !== 0) throw new Error(`server exited with ${code} on SIGTERM:\n${server.output()}`);
    return {
      runningMs: running - spawned,
      healthMs: healthy - spawned,
      rssAtHealthyMiB: atHealthy.rss,
      idleRssMiB: idle.rss,
      peakRssMiB: idle.peak,
      stopMs: performance.now() - stopping,
    };
  } finally {
    // A failed start: make sure nothing is left running (a graceful stop also stops its Postgres).
    if (server.child.exitCode === null && server.child.signalCode === null) {
      await withTimeout(stopServerProcess(server), 'stopping', server).catch(() =>
        stopServerProcess(server, 'SIGKILL'),
      );
    }
  }
}

/** The pids of `pid`'s descendants (from /proc). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0;) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** The server process under `npm start` (npm → maybe sh → node): node itself, not a shell. */
function serverPid(npmPid: number): number | undefined {
  return descendants(npmPid).find((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const entry = ['scripts/start.ts', 'apps/server/src/main.ts'];
      return path.basename(argv[0]) === 'node' && argv.some((arg) => entry.includes(arg));
    } catch {
      return false;
    }
  });
}

/**
 * `npm start` → 'Crewline is running at' → first 200 from /api/health → idle → SIGTERM to the server
 * process → npm exits. `rebuilt`: the start ran the web app's build (Vite's output was printed).
 */
async function npmStartOnce(dataDir: string) {
  const spawned = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: processEnv({ DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const within = <T>(promise: Promise<T>, what: string) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      // A start that builds the web app takes its build's time too.
      timer = setTimeout(() => reject(new Error(`${what} took too long:\n${output}`)), 10 * START_TIMEOUT_MS);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  let pid: number | undefined;
  try {
    const url = await within(
      (async () => {
        for (;;) {
          const match = /Crewline is running at (http:\/\/[^"\s]+)/.exec(output);
          if (match) return match[1].replace('localhost', '127.0.0.1');
          if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
        }
      })(),
      'the "running at" line',
    );
    const running = performance.now();
    const healthy = await within(healthyAt(url), 'GET /api/health → 200');
    pid = serverPid(child.pid!);
    if (!pid) throw new Error(`no server process under npm (${child.pid}):\n${output}`);
    const atHealthy = memoryMiB(pid);
    await new Promise((resolve) => setTimeout(resolve, NPM_IDLE_MS));
    const idle = memoryMiB(pid);
    process.kill(pid, 'SIGTERM');
    const code = await within(exited, 'stopping');
    if (code !== 0) throw new Error(`npm start exited with ${code} after SIGTERM:\n${output}`);
    return {
      rebuilt: /building for production|built in/.test(output),
      runningMs: running - spawned,
      healthMs: healthy - spawned,
      rssAtHealthyMiB: atHealthy.rss,
      idleRssMiB: idle.rss,
      peakRssMiB: idle.peak,
    };
  } finally {
    // A failed round: nothing is left running (a server orphaned by its npm included).
    const alive = (p: number) => existsSync(`/proc/${p}`);
    pid ??= child.pid === undefined ? undefined : serverPid(child.pid);
    if (pid !== undefined && alive(pid)) {
      process.kill(pid, 'SIGTERM');
      for (let waited = 0; alive(pid) && waited < START_TIMEOUT_MS; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await within(exited, 'stopping').catch(() => child.kill('SIGKILL'));
    }
  }
}

async function runNpmStart() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-npm-start-'));
  chmodSync(dataDir, 0o755);
  try {
    // Initialises DATA_DIR, and builds the web app if `npm start` finds it missing or stale.
    const first = await npmStartOnce(dataDir);
    console.log('npm start, first', first);
    const rounds: Awaited<ReturnType<typeof npmStartOnce>>[] = [];
    for (let i = 0; i < NPM_ROUNDS; i++) {
      rounds.push(await npmStartOnce(dataDir));
      console.log(`npm start, round ${i + 1}`, rounds[i]);
    }
    const of = (key: 'runningMs' | 'healthMs' | 'rssAtHealthyMiB' | 'idleRssMiB' | 'peakRssMiB') =>
      stats(rounds.map((r) => r[key]));
    return {
      firstRebuilt: first.rebuilt,
      rebuilt: rounds.map((r) => r.rebuilt),
      healthMs: of('healthMs'),
      runningMs: of('runningMs'),
      rssAtHealthyMiB: of('rssAtHealthyMiB'),
      idleRssMiB: of('idleRssMiB'),
      peakRssMiB: of('peakRssMiB'),
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Sample = Awaited<ReturnType<typeof startOnce>>;
function summarise(samples: Sample[]) {
  const of = (key: keyof Sample) => stats(samples.map((s) => s[key]));
  return {
    runningMs: of('runningMs'),
    healthMs: of('healthMs'),
    rssAtHealthyMiB: of('rssAtHealthyMiB'),
    idleRssMiB: of('idleRssMiB'),
    peakRssMiB: of('peakRssMiB'),
    stopMs: of('stopMs'),
  };
}

export async function runServerStart() {
  const serverNode = execFileSync(process.execPath, ['--version'], { encoding: 'utf8' }).trim();
  const cold: Sample[] = [];
  const warm: Sample[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-start-'));
    chmodSync(dataDir, 0o755);
    try {
      cold.push(await startOnce(dataDir));
      warm.push(await startOnce(dataDir));
      console.log(`round ${i + 1}`, { cold: cold[i], warm: warm[i] });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const npmStart = await runNpmStart();
  return {
    serverNode,
    rounds: ROUNDS,
    idleMs: IDLE_MS,
    coldStart: summarise(cold),
    warmStart: summarise(warm),
    npmStart: { rounds: NPM_ROUNDS, idleMs: NPM_IDLE_MS, ...npmStart },
    note:
      'The real entry point (main.ts, ROLE=all, LOG_LEVEL=info) in a child process on this Node, with ' +
      'embedded PostgreSQL. coldStart: a new DATA_DIR (initdb, migrations, secrets); warmStart: the same ' +
      'DATA_DIR started again. runningMs: spawn to the "Crewline is running at" log line; healthMs: spawn to ' +
      `the first 200 from GET /api/health (polled every ${HEALTH_POLL_MS} ms); idleRssMiB: VmRSS of the Node ` +
      `process (Postgres's processes not included) after ${IDLE_MS / 1000} s idle; peakRssMiB: its VmHWM then; ` +
      'stopMs: SIGTERM to exit. p50 of the rounds, with min and max. npmStart: `npm start` as a user runs ' +
      'it (npm, the web build check, the server), on a DATA_DIR that exists; a first start goes before the ' +
      `rounds (firstRebuilt: it built the web app); rebuilt: each round's start ran the build; idleRssMiB is ` +
      `the server process's VmRSS after ${NPM_IDLE_MS / 1000} s idle. Budgets (docs/product-rules.md): ` +
      'npmStart.healthMs p50 ≤ 1500 with no rebuild, npmStart.idleRssMiB p50 ≤ 150.',
  };
}
