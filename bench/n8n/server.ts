// n8n as it ships, from the scratch install (install.ts), for bench/n8n-side-by-side.ts: `n8n start` in
// a child process with its own user folder (settings and the default SQLite database), the measured
// workflow (workflow.json: webhook → Set → Code → Respond to Webhook) imported and published with n8n's
// own CLI before the start, and closed-loop clients for its webhook.
//
// Everything that calls out is switched off by environment (telemetry, version and "what's new" checks,
// templates, banners, community packages, the AI assistant, license renewal); executions are saved
// (success and error, with their data), as Crewline always saves a run's history. NODE_ENV=production,
// as n8n's Docker image sets it. The Code node runs in n8n's JavaScript task runner, a child process in
// 2.x's default internal mode: its CPU is counted with n8n's.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  childrenByParent,
  machineTicks,
  request,
  ticksToMs,
  treeTicks,
  type Answer,
} from '../execution-throughput';
import { latencyStats, memoryMiB } from '../figures';
import type { N8nInstall } from './install';

const WORKFLOW_FILE = path.join(import.meta.dirname, 'workflow.json');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;
/** After a refused request a client waits this long, as Crewline's clients do. */
const ERROR_PAUSE_MS = 100;

const round = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type WorkflowFile = { id: string; nodes: { type: string; parameters: { path?: string } }[] };

function readWorkflow() {
  const workflow = JSON.parse(readFileSync(WORKFLOW_FILE, 'utf8')) as WorkflowFile;
  const webhook = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
  if (!webhook?.parameters.path) throw new Error(`${WORKFLOW_FILE} has no webhook node with a path`);
  return { id: workflow.id, webhookPath: webhook.parameters.path };
}

function freePort() {
  return new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function logTail(file: string, lines = 30) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

/** Pids of a process and all its descendants. */
function treePids(root: number) {
  const byParent = childrenByParent();
  const pids: number[] = [];
  for (const queue = [root]; queue.length > 0;) {
    const pid = queue.shift()!;
    pids.push(pid);
    queue.push(...(byParent.get(pid) ?? []));
  }
  return pids;
}

/** The topic a client sends, and the answer the workflow must give for it (proof the Code node ran). */
function expectedAnswer(topic: string) {
  const greeting = `Hello, ${topic}`;
  return { topic, greeting, length: greeting.length };
}

function answerMatches(res: Answer, topic: string) {
  const want = expectedAnswer(topic);
  return (
    res.status === 200 &&
    res.body.topic === want.topic &&
    res.body.greeting === want.greeting &&
    res.body.length === want.length
  );
}

type Sqlite3Database = {
  all(sql: string, callback: (error: Error | null, rows: Record<string, unknown>[]) => void): void;
  close(callback: (error: Error | null) => void): void;
};
type Sqlite3 = {
  OPEN_READONLY: number;
  Database: new (file: string, mode: number, callback: (error: Error | null) => void) => Sqlite3Database;
};

/**
 * What n8n's database holds after the session, read with n8n's own sqlite3 build: the executions by
 * status, and the journal and sync settings its connections get (n8n sets WAL and leaves `synchronous`
 * at the build's default).
 */
async function databaseFacts(installDir: string, file: string) {
  const sqlite3 = createRequire(path.join(installDir, 'package.json'))('sqlite3') as Sqlite3;
  const db = await new Promise<Sqlite3Database>((resolve, reject) => {
    const opened: Sqlite3Database = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) =>
      error ? reject(error) : resolve(opened),
    );
  });
  const all = (sql: string) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) =>
      db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows))),
    );
  try {
    const byStatus = await all(
      'SELECT status, count(*) AS count FROM execution_entity GROUP BY status ORDER BY status',
    );
    const [withData] = await all('SELECT count(*) AS count FROM execution_data');
    const [journal] = await all('PRAGMA journal_mode');
    const [synchronous] = await all('PRAGMA synchronous');
    const syncNames = ['OFF', 'NORMAL', 'FULL', 'EXTRA'];
    return {
      executionsByStatus: Object.fromEntries(byStatus.map((r) => [r.status, r.count])),
      executionsWithData: withData.count,
      journalMode: journal.journal_mode,
      synchronous: syncNames[Number(synchronous.synchronous)] ?? synchronous.synchronous,
    };
  } finally {
    await new Promise((resolve) => db.close(resolve));
  }
}

export type N8nPhaseResult = Awaited<ReturnType<typeof runPhase>>;

/**
 * n8n started from `install` with a new user folder (removed by `stop`), the workflow published and
 * answering. `phase` runs closed-loop clients on the webhook for a warm-up and a measured window;
 * `stop` stops n8n (SIGTERM, then SIGKILL to its process group) and completes `info`.
 */
export async function startN8n(install: N8nInstall) {
  const bin = path.join(install.dir, 'node_modules/n8n/bin/n8n');
  const { id, webhookPath } = readWorkflow();
  const userFolder = mkdtempSync(path.join(install.dir, 'session-'));
  // Kept after the session (the next one overwrites it), for a look at what n8n printed.
  const logFile = path.join(install.dir, 'n8n-last-session.log');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    N8N_USER_FOLDER: userFolder,
    N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_PORT: String(port),
    // Its task broker's default port (5679) may be taken by another n8n on the machine.
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_DYNAMIC_BANNERS_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_COMMUNITY_PACKAGES_ENABLED: 'false',
    N8N_AI_ENABLED: 'false',
    N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
    EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
    EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
    EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
  };
  const shownEnv = Object.fromEntries(
    Object.entries(env).filter(
      ([key]) => !['PATH', 'HOME', 'N8N_ENCRYPTION_KEY', 'N8N_USER_FOLDER'].includes(key),
    ),
  );

  /** The CLI command running now, if any (stopped with n8n on a signal). */
  let cliChild: ChildProcess | undefined;
  const cli = async (args: string[]) => {
    const fd = openSync(logFile, 'a');
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: install.dir,
      env,
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    cliChild = child;
    const code = await new Promise<number | string | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', (exitCode, signal) => resolve(exitCode ?? signal));
    });
    if (code !== 0) throw new Error(`n8n ${args.join(' ')} failed (${code}):\n${logTail(logFile)}`);
  };

  let child: ChildProcess | undefined;
  /** Its whole process group (the task runner too), at once. */
  const killGroup = () => {
    if (cliChild && cliChild.exitCode === null && cliChild.signalCode === null) cliChild.kill('SIGKILL');
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  /** On an exit without `stop` (a signal, a crash): only synchronous work here. */
  const onExit = () => {
    killGroup();
    rmSync(userFolder, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    killGroup();
    // Alone on this signal (Crewline not started yet, or already stopped): end as the signal would.
    if (process.listenerCount(signal) === 1) process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', onExit);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const release = () => {
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };

  const base = `http://127.0.0.1:${port}`;
  const probe = (topic: string) => request(base, 'POST', `/webhook/${webhookPath}`, { topic });
  try {
    rmSync(logFile, { force: true });
    // The CLI writes to the database directly; a running n8n would not see it, so both come first.
    await cli(['import:workflow', `--input=${WORKFLOW_FILE}`]);
    await cli(['publish:workflow', `--id=${id}`]);

    const started = performance.now();
    const fd = openSync(logFile, 'a');
    // Its own process group, so that stopping it reaches the task runner it starts.
    child = spawn(process.execPath, [bin, 'start'], {
      cwd: install.dir,
      env,
      stdio: ['ignore', fd, fd],
      detached: true,
    });
    closeSync(fd);
    const spawned = child;
    // Ready when the published workflow answers through its production webhook.
    for (const deadline = performance.now() + START_TIMEOUT_MS; ;) {
      if (spawned.exitCode !== null || spawned.signalCode !== null) {
        throw new Error(
          `n8n exited (${spawned.exitCode ?? spawned.signalCode}) while starting:\n${logTail(logFile)}`,
        );
      }
      if (performance.now() > deadline) {
        throw new Error(`n8n did not answer its webhook within ${START_TIMEOUT_MS} ms:\n${logTail(logFile)}`);
      }
      const res = await probe('start').catch(() => null);
      if (res && answerMatches(res, 'start')) break;
      await sleep(100);
    }
    const startSeconds = round((performance.now() - started) / 1000);
    // A moment for what follows the start (the task runner's own start, caches), then its memory.
    await sleep(2_000);
    const pids = treePids(spawned.pid!);
    const memory = pids.map((pid) => {
      try {
        return memoryMiB(pid).rss;
      } catch {
        return 0;
      }
    });

    const info: Record<string, unknown> = {
      version: install.version,
      command: `node ${path.relative(install.dir, bin)} start`,
      node: process.version,
      database: 'SQLite (n8n’s default), in its user folder',
      env: shownEnv,
      workflow: { file: 'bench/n8n/workflow.json', id, webhook: `POST /webhook/${webhookPath}` },
      startSeconds,
      rssAfterStartMiB: {
        main: memory[0],
        processes: pids.length,
        all: round(memory.reduce((a, b) => a + b, 0)),
      },
    };

    let stopped = false;
    return {
      info,
      async phase(clients: number, timing: { warmupMs: number; measuredMs: number }) {
        if (stopped) throw new Error('this n8n was stopped');
        return runPhase(clients, timing, spawned.pid!, probe);
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          if (spawned.exitCode === null && spawned.signalCode === null) {
            const exited = new Promise<number | string | null>((resolve) =>
              spawned.once('exit', (code, signal) => resolve(code ?? signal)),
            );
            process.kill(-spawned.pid!, 'SIGTERM');
            const timer = setTimeout(killGroup, STOP_TIMEOUT_MS);
            info.exit = await exited;
            clearTimeout(timer);
          } else {
            info.exit = spawned.exitCode ?? spawned.signalCode;
          }
          if (info.exit !== 0) info.logTail = logTail(logFile);
          info.database = {
            kind: info.database,
            ...(await databaseFacts(install.dir, path.join(userFolder, '.n8n/database.sqlite')).catch(
              (error: unknown) => ({ error: String(error) }),
            )),
          };
        } finally {
          release();
          rmSync(userFolder, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    killGroup();
    release();
    rmSync(userFolder, { recursive: true, force: true });
    throw error;
  }
}

/**
 * `clients` closed-loop clients: each POSTs the webhook and waits for the Respond node's answer, then
 * sends the next. Runs counted and timed are those answered in the measured window; CPU is n8n's
 * process tree (main process and task runner; SQLite runs inside the main process) over that window.
 */
async function runPhase(
  clients: number,
  timing: { warmupMs: number; measuredMs: number },
  pid: number,
  probe: (topic: string) => Promise<Answer>,
) {
  const runs: { sent: number; done: number }[] = [];
  const errors: { at: number; kind: string; message: string }[] = [];
  let stopping = false;
  const fail = (kind: string, message: string) => errors.push({ at: performance.now(), kind, message });

  const client = async (n: number) => {
    const topic = `tea ${n}`;
    while (!stopping) {
      const sent = performance.now();
      let res: Answer;
      try {
        res = await probe(topic);
      } catch (error) {
        fail('request', error instanceof Error ? error.message : String(error));
        await sleep(ERROR_PAUSE_MS);
        continue;
      }
      if (answerMatches(res, topic)) {
        runs.push({ sent, done: performance.now() });
      } else {
        fail(`http ${res.status}`, JSON.stringify(res.body).slice(0, 300));
        await sleep(ERROR_PAUSE_MS);
      }
    }
  };
  const snapshot = () => {
    const bench = process.cpuUsage();
    return {
      n8n: treeTicks(pid, childrenByParent()),
      benchMicros: bench.user + bench.system,
      machine: machineTicks(),
    };
  };

  const loadAtStart = round(os.loadavg()[0]);
  const started = performance.now();
  const loops = Array.from({ length: clients }, (_, n) => client(n + 1));
  try {
    await sleep(timing.warmupMs);
    const windowStart = performance.now();
    const before = snapshot();
    await sleep(timing.measuredMs);
    const after = snapshot();
    const windowEnd = performance.now();
    stopping = true;
    await Promise.all(loops);

    const inWindow = (at: number) => at >= windowStart && at <= windowEnd;
    const measured = runs.filter((r) => inWindow(r.done));
    const measuredErrors = errors.filter((e) => inWindow(e.at));
    const seconds = (windowEnd - windowStart) / 1000;
    const perSecond = Array.from({ length: Math.max(1, Math.floor(seconds)) }, () => 0);
    for (const r of measured)
      perSecond[Math.min(perSecond.length - 1, Math.floor((r.done - windowStart) / 1000))]++;
    const byKind: Record<string, number> = {};
    for (const e of measuredErrors) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
    const n8nMs = ticksToMs(after.n8n.ticks - before.n8n.ticks);
    const benchMs = (after.benchMicros - before.benchMicros) / 1000;
    const machineBusyMs = ticksToMs(after.machine.busy - before.machine.busy);
    const perRun = (ms: number) => (measured.length > 0 ? round(ms / measured.length) : null);
    const cores = (ms: number) => round(ms / 1000 / seconds);
    return {
      clients,
      runsPerSecond: round(measured.length / seconds),
      completed: measured.length,
      measuredSeconds: round(seconds),
      latencyMs: latencyStats(measured.map((r) => r.done - r.sent)),
      errors: measuredErrors.length,
      errorsByKind: byKind,
      errorsWholePhase: errors.length,
      firstError: errors[0] ? `${errors[0].kind}: ${errors[0].message}` : null,
      completedWholePhase: runs.length,
      phaseSeconds: round((performance.now() - started) / 1000),
      completedEachSecond: perSecond,
      loadAverage1mAtStart: loadAtStart,
      cpu: {
        serverMsPerRun: perRun(n8nMs),
        benchProcessMsPerRun: perRun(benchMs),
        cores: {
          n8n: cores(n8nMs),
          benchProcess: cores(benchMs),
          machineBusy: cores(machineBusyMs),
          other: cores(Math.max(0, machineBusyMs - n8nMs - benchMs)),
        },
        n8nProcesses: after.n8n.processes,
      },
    };
  } finally {
    stopping = true;
    await Promise.allSettled(loops);
  }
}
