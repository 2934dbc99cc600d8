// Cold start, warm start and idle memory of the real server process (main.ts, ROLE=all, embedded
// PostgreSQL), started as `npm start` starts it: `node --import tsx apps/server/src/main.ts`.
// Each round uses a fresh DATA_DIR: the first start initialises the cluster (initdb, migrations, secrets),
// the second start reuses it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  processEnv,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../apps/server/src/testing/server-process';

const ROUNDS = 5;
const IDLE_MS = 5000;
const START_TIMEOUT_MS = 60_000;
const HEALTH_POLL_MS = 10;

const round = (n: number) => Math.round(n * 100) / 100;
function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(sorted[Math.floor(sorted.length / 2)]),
    min: round(sorted[0]),
    max: round(sorted[sorted.length - 1]),
  };
}

/** VmRSS and VmHWM (peak RSS) of a process, in MiB. */
function memoryMiB(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: round(kib('VmRSS') / 1024), peak: round(kib('VmHWM') / 1024) };
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
    const healthy = await withTimeout(
      (async () => {
        for (;;) {
          const res = await fetch(`${url}/api/health`).catch(() => undefined);
          await res?.arrayBuffer();
          if (res?.status === 200) return performance.now();
          await new Promise((resolve) => setTimeout(resolve, HEALTH_POLL_MS));
        }
      })(),
      'GET /api/health → 200',
      server,
    );
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
  return {
    serverNode,
    rounds: ROUNDS,
    idleMs: IDLE_MS,
    coldStart: summarise(cold),
    warmStart: summarise(warm),
    note:
      'The real entry point (main.ts, ROLE=all, LOG_LEVEL=info) in a child process on this Node, with ' +
      'embedded PostgreSQL. coldStart: a new DATA_DIR (initdb, migrations, secrets); warmStart: the same ' +
      'DATA_DIR started again. runningMs: spawn to the "Crewline is running at" log line; healthMs: spawn to ' +
      `the first 200 from GET /api/health (polled every ${HEALTH_POLL_MS} ms); idleRssMiB: VmRSS of the Node ` +
      `process (Postgres's processes not included) after ${IDLE_MS / 1000} s idle; peakRssMiB: its VmHWM then; ` +
      'stopMs: SIGTERM to exit. p50 of the rounds, with min and max.',
  };
}
