// Execution throughput of the product as users get it: the real server (main.ts, ROLE=all) in a child
// process with the flags `npm start` gives it (`node --max-semi-space-size=8 --import tsx`) and its own
// embedded PostgreSQL in DATA_DIR, no DATABASE_URL: the database as shipped, fsync, synchronous_commit
// and full_page_writes on (read back from Postgres and recorded). Closed-loop clients each POST
// /api/workflows/:id/execute for a one-agent workflow on an instant fake OpenAI-compatible model
// (history saved, as always), wait until the run's `workflow_execution_completed` event arrives on their
// own websocket (/ws), then send the next.
//
// Clients come in groups of CLIENTS_PER_ORGANIZATION sharing one account and organization, as a
// customer's callers would, each with its own socket (a user may hold WS_MAX_PER_USER, 20, per API
// process): every run's end reaches every socket of its organization, and each client keeps only its
// own (run-socket.ts). The organizations are on the Enterprise plan (signed up from its pricing page,
// then an active yearly subscription paid by invoice, written in the server's database as an operator's
// agreement would be): a customer with this load needs it, Professional's 10,000 runs a month last two
// minutes here.
//
// `--best-case` (or BENCH_BEST_CASE=1) measures the setup this bench used before issue 43 instead: one
// ephemeral cluster started by the bench with fsync, synchronous_commit and full_page_writes off, the
// server pointed at it with DATABASE_URL, and also a split layout (one ROLE=api process with two
// ROLE=worker processes). Its result goes to execution-throughput-best-case.json and says so.
//
// CPU is read from /proc over the measured window, per completed run, for the server's Node processes
// and for all of Postgres's processes separately (the embedded Postgres is the server's child: its
// processes are taken out of the server's figure), so the figures can be compared across machines; this
// process's own CPU (the clients and the fake model) is reported apart, as it is not the product's.
//
// startShippedCrewline starts one such server that another script (bench/n8n-side-by-side.ts) can run
// phases against, in any order, before stopping it.
//
// BENCH_CLIENTS (for example `10,100`) narrows the client counts, BENCH_WARMUP_MS and BENCH_MEASURED_MS
// shorten a phase to try the bench, BENCH_LAYOUTS (`all`) narrows the best case's layouts.
// BENCH_SERVER_ROOT names the checkout whose server is spawned (default: this repository), so an older
// checkout can be measured by the same bench. BENCH_SERVER_LOG_LEVEL overrides LOG_LEVEL (default: the
// server's own default, info).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { startEmbeddedPostgres } from '@crewline/db';
import { startFakeLlmServer, type FakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { chainOf } from '../apps/server/src/testing/workflow-shapes';
import { describeCalibration, type Calibration } from './calibration';
import { latencyStats } from './figures';
import { openRunSocket, type RunSocket } from './run-socket';
import { connectToServerDatabase } from './server-database';

const benchRoot = path.join(import.meta.dirname, '..');
const serverRoot = path.resolve(process.env.BENCH_SERVER_ROOT || benchRoot);
const serverLogLevel = process.env.BENCH_SERVER_LOG_LEVEL || undefined;
/** BENCH_SERVER_ENV sets more of the servers' configuration while investigating, e.g. `DATABASE_POOL_SIZE=40 WORKER_CONCURRENCY=8`. */
const serverEnv = Object.fromEntries(
  (process.env.BENCH_SERVER_ENV?.split(' ').filter(Boolean) ?? []).map((pair) => [
    pair.slice(0, pair.indexOf('=')),
    pair.slice(pair.indexOf('=') + 1),
  ]),
) as Record<string, string>;
/** BENCH_SERVER_NODE_FLAGS adds Node flags to the servers, for example `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const serverNodeFlags = process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
/** Where bench/run.ts writes the result: the previous one there is kept beside the new one. */
const resultsDir = path.resolve(process.env.BENCH_RESULTS_DIR || path.join(import.meta.dirname, 'results'));

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const CLIENT_COUNTS = (process.env.BENCH_CLIENTS?.split(',').map(Number) ?? [
  10, 50, 100,
]) as readonly number[];
const WARMUP_MS = envNumber('BENCH_WARMUP_MS', 3_000);
const MEASURED_MS = envNumber('BENCH_MEASURED_MS', 15_000);
/** Clients sharing one account and organization (100 clients: 10 organizations). */
const CLIENTS_PER_ORGANIZATION = 10;
/** A run not finished by then counts as an error; the instant model makes a run take milliseconds. */
const RUN_TIMEOUT_MS = 30_000;
const START_TIMEOUT_MS = 90_000;
/** A graceful stop lets running steps finish; past this the process is killed. */
const STOP_TIMEOUT_MS = 25_000;
/** After a refused request a client waits this long, so a failing server is not hammered in a loop. */
const ERROR_PAUSE_MS = 100;
/** Sign-ups (password hashing) at once while preparing the accounts. */
const SETUP_PARALLEL = 5;
/**
 * Issue 43's figures this bench can judge alone, so each result says whether it meets them: POST →
 * 202 p99 at 100 clients, and p99 at 50 clients under 0.2× n8n's 1,238 ms measured there. Throughput
 * against n8n is bench/n8n-side-by-side.ts's, measured in the same session.
 */
const TARGET = { acceptP99MsAt100Clients: 100, p99MsAt50Clients: 248 };

const LAYOUTS = {
  all: ['all'],
  'api+2workers': ['api', 'worker', 'worker'],
} as const satisfies Record<string, readonly ('all' | 'api' | 'worker')[]>;
type LayoutName = keyof typeof LAYOUTS;
type Role = 'all' | 'api' | 'worker';

const round = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------
// Cleanup: every child, database and folder this bench makes is registered here, so that a failure,
// Ctrl-C or SIGTERM leaves nothing running or on disk.

const cleanups: (() => Promise<unknown>)[] = [];
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
/** Postgres started by a server as its own (as shipped): it would outlive a server killed hard. */
const postmasters = new Set<number>();

/** Takes a cleanup off the list (it ran, or is about to run, in the normal course). */
function unregister(cleanup: () => Promise<unknown>) {
  const at = cleanups.indexOf(cleanup);
  if (at >= 0) cleanups.splice(at, 1);
  return at >= 0;
}

async function runCleanups() {
  while (cleanups.length > 0) {
    const cleanup = cleanups.pop()!;
    await cleanup().catch((error: unknown) => console.error('cleanup failed:', error));
  }
}

/** Last resort when the process ends without the cleanups having run: only synchronous work here. */
function killLeftovers() {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of postmasters) {
    try {
      // Postgres's immediate shutdown: its backends end with it.
      process.kill(pid, 'SIGQUIT');
    } catch {
      // Gone with its server already.
    }
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

/** Set by a signal: the clients stop, so the servers' shutdown is not reported as failed runs. */
let interrupted = false;

function onSignal(signal: NodeJS.Signals) {
  interrupted = true;
  console.error(`\n${signal}: stopping the servers and the database`);
  void runCleanups().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
}

/**
 * While anything of this bench runs (a whole bench, or a Crewline started for another script), a signal
 * or an exit without the cleanups having run still stops every child and removes every folder.
 */
let guardsHeld = 0;
function holdGuards() {
  if (guardsHeld++ === 0) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    process.on('exit', killLeftovers);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--guardsHeld === 0) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('exit', killLeftovers);
    }
  };
}

function makeTempDir(prefix: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  // When run as root the embedded Postgres runs as the "postgres" user, which must enter the folder.
  chmodSync(dir, 0o755);
  tempDirs.add(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------------
// CPU from /proc, in clock ticks (USER_HZ).

let ticksPerSecond: number | undefined;
export function ticksToMs(ticks: number) {
  // Read when first needed rather than on import: bench/run.ts imports every bench.
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return (ticks * 1000) / ticksPerSecond;
}

/** ppid, own CPU (utime+stime) and reaped children's CPU (cutime+cstime) of a process, or undefined if gone. */
function readStat(pid: number) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      own: Number(fields[11]) + Number(fields[12]),
      reaped: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/** Every live process's parent, read once per snapshot. */
export function childrenByParent() {
  const byParent = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    byParent.set(stat.ppid, [...(byParent.get(stat.ppid) ?? []), Number(entry)]);
  }
  return byParent;
}

/**
 * CPU ticks of a process tree: each live process's own and reaped children's CPU. A child that exits
 * between two snapshots moves its whole CPU into its parent's reaped figure, so the difference of two
 * snapshots still counts exactly what the tree used in between (Postgres's short-lived backends and
 * autovacuum workers included).
 */
export function treeTicks(root: number, byParent: Map<number, number[]>, exclude?: number) {
  let ticks = 0;
  let processes = 0;
  for (const queue = [root]; queue.length > 0;) {
    const pid = queue.shift()!;
    // A subtree counted apart (the server's embedded Postgres).
    if (pid === exclude) continue;
    const stat = readStat(pid);
    if (!stat) continue;
    ticks += stat.own + stat.reaped;
    processes++;
    queue.push(...(byParent.get(pid) ?? []));
  }
  return { ticks, processes };
}

/** Busy and total CPU ticks of the whole machine (all CPUs), from the first line of /proc/stat. */
export function machineTicks() {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

type CpuSnapshot = {
  servers: { role: Role; ticks: number }[];
  postgres: { ticks: number; processes: number };
  benchMicros: number;
  machine: { busy: number; total: number };
};

function cpuSnapshot(servers: Server[], postmasterPid: number): CpuSnapshot {
  const byParent = childrenByParent();
  const bench = process.cpuUsage();
  return {
    // The embedded Postgres of a server run as `npm start` runs it is that server's child: its CPU is
    // Postgres's, not Node's.
    servers: servers.map((s) => ({
      role: s.role,
      ticks: treeTicks(s.child.pid!, byParent, postmasterPid).ticks,
    })),
    postgres: treeTicks(postmasterPid, byParent),
    benchMicros: bench.user + bench.system,
    machine: machineTicks(),
  };
}

function cpuBetween(a: CpuSnapshot, b: CpuSnapshot, completed: number, seconds: number) {
  const serverMs = b.servers.map((s, i) => ({ role: s.role, ms: ticksToMs(s.ticks - a.servers[i].ticks) }));
  const nodeMs = serverMs.reduce((sum, s) => sum + s.ms, 0);
  const postgresMs = ticksToMs(b.postgres.ticks - a.postgres.ticks);
  const benchMs = (b.benchMicros - a.benchMicros) / 1000;
  const machineBusyMs = ticksToMs(b.machine.busy - a.machine.busy);
  const perRun = (ms: number) => (completed > 0 ? round(ms / completed) : null);
  const cores = (ms: number) => round(ms / 1000 / seconds);
  return {
    nodeMsPerRun: perRun(nodeMs),
    postgresMsPerRun: perRun(postgresMs),
    benchProcessMsPerRun: perRun(benchMs),
    nodeMsPerRunByProcess: serverMs.map((s) => ({ role: s.role, msPerRun: perRun(s.ms) })),
    // CPU-seconds per second: how many of the machine's cores each part kept busy.
    cores: {
      node: cores(nodeMs),
      postgres: cores(postgresMs),
      benchProcess: cores(benchMs),
      machineBusy: cores(machineBusyMs),
      // Everything else on the machine (other users' work, the kernel's own threads).
      other: cores(Math.max(0, machineBusyMs - nodeMs - postgresMs - benchMs)),
    },
    postgresProcesses: b.postgres.processes,
  };
}

// ---------------------------------------------------------------------------------------------------
// HTTP: node:http with a keep-alive agent (lighter than fetch, so the clients take less of the CPU
// the server also needs on a small machine).

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

export type Answer = { status: number; body: Record<string, unknown> };

export function request(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  token?: string,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      base + url,
      {
        method,
        agent,
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        timeout: RUN_TIMEOUT_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = { text };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

export async function expectStatus(answer: Promise<Answer>, status: number, what: string) {
  const res = await answer;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---------------------------------------------------------------------------------------------------
// Server processes.

export type Server = {
  role: Role;
  child: ChildProcess;
  logFile: string;
  /** The API's base URL (ROLE=all and api). */
  url?: string;
};

function logTail(file: string, lines = 40) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no output)';
  }
}

/**
 * The real entry point in a child process, with its output in a file rather than a pipe, so reading
 * its info-level request log costs this process nothing while the clients are timed.
 */
export async function startServer(
  role: Role,
  env: NodeJS.ProcessEnv,
  dataDir: string,
  index: number,
): Promise<Server> {
  const logFile = path.join(dataDir, `${role}-${index}.log`);
  const fd = openSync(logFile, 'a');
  // `--import tsx` is resolved from the working directory: the measured checkout's own tsx.
  const child = spawn(
    process.execPath,
    [
      '--max-semi-space-size=8',
      ...serverNodeFlags,
      '--import',
      'tsx',
      path.join(serverRoot, 'apps/server/src/main.ts'),
    ],
    {
      cwd: serverRoot,
      env: { ...env, ROLE: role, DATA_DIR: path.join(dataDir, `${role}-${index}`) },
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  children.add(child);
  child.on('exit', () => children.delete(child));
  const server: Server = { role, child, logFile };
  // A worker prints no address; ROLE=all prints the address after its worker started.
  const ready = role === 'worker' ? /worker started/ : /Crewline is running at (http:\/\/[^"\s]+)/;
  const deadline = performance.now() + START_TIMEOUT_MS;
  for (;;) {
    const match = ready.exec(existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
    if (match) {
      if (match[1]) server.url = match[1].replace('localhost', '127.0.0.1');
      return server;
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the ${role} process exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${logTail(logFile)}`,
      );
    }
    if (performance.now() > deadline || interrupted) {
      // Not handed back to the caller, so it is stopped here.
      child.kill('SIGKILL');
      throw new Error(
        `the ${role} process was not ready within ${START_TIMEOUT_MS} ms:\n${logTail(logFile)}`,
      );
    }
    await sleep(50);
  }
}

/** SIGTERM (graceful: steps finish, runs handed back), SIGKILL past STOP_TIMEOUT_MS; the exit code. */
export async function stopServer(server: Server) {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? child.signalCode;
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------
// Accounts and clients.

export type Account = { token: string; organizationId: string; workflowId: string };

/**
 * An account (its own organization) set up through the API as a user would: sign up (on `plan`'s
 * trial, as a visitor from that plan on the pricing page; the product's default without one), point
 * the OpenAI connection at the fake model, one agent, one active one-agent sequential workflow (or the
 * `shape` given around that agent).
 */
export async function prepareAccount(
  base: string,
  fake: FakeLlmServer,
  n: number,
  /** The workflow's nodes and edges around the account's agent (another bench runs another shape). */
  shape: (agentId: string) => { nodes: unknown[]; edges: unknown[] } = (agentId) => chainOf([agentId]),
  plan?: 'starter' | 'professional' | 'enterprise',
): Promise<Account> {
  const password = 'bench-password';
  const signup = await expectStatus(
    request(base, 'POST', '/api/auth/signup', {
      username: `bench${n}`,
      email: `bench${n}@example.com`,
      password,
      confirmPassword: password,
      ...(plan ? { plan } : {}),
    }),
    201,
    'sign-up',
  );
  const token = signup.token as string;
  const organizationId = (signup.organization as { id: string }).id;
  await expectStatus(
    request(
      base,
      'PUT',
      '/api/tools/configurations/openai_config',
      { config: { apiKey: 'sk-bench', baseUrl: fake.url, defaultModel: 'gpt-4o' } },
      token,
    ),
    200,
    'OpenAI connection',
  );
  const agent = await expectStatus(
    request(
      base,
      'POST',
      '/api/agents',
      { name: `Bench ${n}`, role: 'Writer', goal: 'Write', llmModel: 'gpt-4o' },
      token,
    ),
    201,
    'agent',
  );
  const workflow = await expectStatus(
    request(
      base,
      'POST',
      '/api/workflows',
      { name: `Bench ${n}`, processType: 'sequential', status: 'active', ...shape(agent.id as string) },
      token,
    ),
    201,
    'workflow',
  );
  return { token, organizationId, workflowId: workflow.id as string };
}

/**
 * The organizations' Enterprise trial (from signing up on its pricing page) made an active yearly
 * subscription paid by invoice, as the operator records an agreement with a customer (no payment
 * provider here): no monthly run limit, 50 runs in progress at once. Written in the server's database,
 * as other benches seed data, then read back through the API as the product applies it.
 */
async function makeEnterprise(db: pg.Client, base: string, accounts: Account[]) {
  const { rowCount } = await db.query(
    `UPDATE subscriptions SET plan = 'enterprise', subscription_status = 'active', trial_ends_at = NULL,
       current_period_end = now() + interval '1 year', billing_interval = 'year', payment_method = 'invoice',
       cancel_at_period_end = false, pending_plan = NULL
     WHERE organization_id = ANY($1::uuid[])`,
    [accounts.map((a) => a.organizationId)],
  );
  if (rowCount !== accounts.length) {
    throw new Error(`Enterprise: ${rowCount} of ${accounts.length} subscriptions updated`);
  }
  const status = await expectStatus(
    request(base, 'GET', '/api/subscription-status', undefined, accounts[0].token),
    200,
    'subscription status',
  );
  if (status.plan !== 'enterprise' || status.status !== 'active') {
    throw new Error(`Enterprise: the server reads ${JSON.stringify(status)}`);
  }
  return { plan: status.plan, status: status.status, limits: status.limits };
}

type RunSample = { sent: number; done: number };
type AcceptSample = { sent: number; answered: number };
type ErrorSample = { at: number; kind: string; message: string };

/**
 * One closed-loop client per account given (accounts repeat: clients of one organization share its
 * account): `warmupMs` not counted, then `measuredMs` timed, then they finish.
 */
async function runPhase(
  base: string,
  accounts: Account[],
  servers: Server[],
  postmasterPid: number,
  timing: { warmupMs: number; measuredMs: number },
) {
  const opened = await Promise.allSettled(
    accounts.map((account) => openRunSocket(base, account, RUN_TIMEOUT_MS)),
  );
  const failed = opened.find((o) => o.status === 'rejected');
  if (failed) {
    for (const o of opened) if (o.status === 'fulfilled') o.value.close();
    throw failed.reason;
  }
  const sockets = opened.map((o) => (o as PromiseFulfilledResult<RunSocket>).value);
  const runs: RunSample[] = [];
  const accepts: AcceptSample[] = [];
  const errors: ErrorSample[] = [];
  let stopping = false;
  const fail = (kind: string, message: string) => errors.push({ at: performance.now(), kind, message });

  const client = async (account: Account, socket: RunSocket) => {
    while (!stopping && !interrupted) {
      if (socket.closed) return fail('socket', socket.closed);
      const start = socket.starting();
      const sent = performance.now();
      let res: Answer;
      try {
        res = await request(
          base,
          'POST',
          `/api/workflows/${account.workflowId}/execute`,
          { input: { topic: 'tea' } },
          account.token,
        );
      } catch (error) {
        start.refused();
        fail('request', error instanceof Error ? error.message : String(error));
        await sleep(ERROR_PAUSE_MS);
        continue;
      }
      if (res.status !== 202) {
        start.refused();
        fail(`http ${res.status}`, JSON.stringify(res.body).slice(0, 300));
        await sleep(ERROR_PAUSE_MS);
        continue;
      }
      accepts.push({ sent, answered: performance.now() });
      const outcome = await start.answered(res.body.id as string);
      if (outcome.ok) runs.push({ sent, done: outcome.at });
      else fail(outcome.error === 'timeout' ? 'timeout' : 'run', outcome.error ?? 'failed');
    }
  };

  const loadAtStart = round(os.loadavg()[0]);
  try {
    const started = performance.now();
    const loops = accounts.map((account, i) => client(account, sockets[i]));
    await sleep(timing.warmupMs);
    const windowStart = performance.now();
    const before = cpuSnapshot(servers, postmasterPid);
    await sleep(timing.measuredMs);
    const after = cpuSnapshot(servers, postmasterPid);
    const windowEnd = performance.now();
    // Ends kept on the sockets for later: bounded by the requests in flight, however long the phase.
    const unclaimedEnds = sockets.reduce((sum, socket) => sum + socket.unclaimed, 0);
    stopping = true;
    await Promise.all(loops);

    const inWindow = (at: number) => at >= windowStart && at <= windowEnd;
    const measured = runs.filter((r) => inWindow(r.done));
    const measuredAccepts = accepts.filter((a) => inWindow(a.answered));
    const measuredErrors = errors.filter((e) => inWindow(e.at));
    const seconds = (windowEnd - windowStart) / 1000;
    // Completions second by second: a stall (a pause in the server, or the machine taken by other work)
    // shows here where an average would hide it.
    // The window overruns by a few milliseconds; those land in the last second.
    const perSecond = Array.from({ length: Math.max(1, Math.floor(seconds)) }, () => 0);
    for (const r of measured)
      perSecond[Math.min(perSecond.length - 1, Math.floor((r.done - windowStart) / 1000))]++;
    const byKind: Record<string, number> = {};
    for (const e of measuredErrors) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
    return {
      clients: accounts.length,
      organizations: new Set(accounts.map((a) => a.organizationId)).size,
      runsPerSecond: round(measured.length / seconds),
      completed: measured.length,
      measuredSeconds: round(seconds),
      latencyMs: latencyStats(measured.map((r) => r.done - r.sent)),
      /** POST sent → its 202 read, for the answers read in the window. */
      acceptMs: latencyStats(measuredAccepts.map((a) => a.answered - a.sent)),
      errors: measuredErrors.length,
      errorsByKind: byKind,
      // Outside the window too (warm-up, the last runs), with a sample of what went wrong.
      errorsWholePhase: errors.length,
      firstError: errors[0] ? `${errors[0].kind}: ${errors[0].message}` : null,
      completedWholePhase: runs.length,
      phaseSeconds: round((performance.now() - started) / 1000),
      completedEachSecond: perSecond,
      unclaimedEndsAtWindowEnd: unclaimedEnds,
      loadAverage1mAtStart: loadAtStart,
      cpu: cpuBetween(before, after, measured.length, seconds),
    };
  } finally {
    stopping = true;
    for (const socket of sockets) socket.close();
  }
}

export type PhaseResult = Awaited<ReturnType<typeof runPhase>>;

// ---------------------------------------------------------------------------------------------------
// A Crewline to measure.

const SHIPPED =
  'as shipped: the server as `npm start` runs it (ROLE=all) with its own embedded PostgreSQL in DATA_DIR, ' +
  'fsync, synchronous_commit and full_page_writes on';
const BEST_CASE =
  'best case: one ephemeral PostgreSQL cluster started by the bench with fsync, synchronous_commit and ' +
  'full_page_writes off, the server pointed at it with DATABASE_URL; not what users get';

async function executionStatuses(db: pg.Client) {
  const { rows } = await db.query<{ status: string; count: number }>(
    'SELECT status::text AS status, count(*)::int AS count FROM workflow_executions GROUP BY status ORDER BY status',
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.count]));
}

/**
 * Crewline started for up to `maxClients` clients (one Enterprise organization per
 * CLIENTS_PER_ORGANIZATION, made through the API): as `npm start` runs it, or with `bestCase` the
 * bench's own fsync-off cluster (which alone allows the split `layout`). `phase` runs closed-loop
 * clients for a warm-up and a measured window, in any order and as often as wanted; `stop` stops the
 * servers (and Postgres) and removes their folder, and completes `info`. The fake model is `fake`, or
 * one of its own.
 */
export async function startShippedCrewline(
  options: { bestCase?: boolean; maxClients?: number; fake?: FakeLlmServer; layout?: LayoutName } = {},
) {
  const bestCase = options.bestCase ?? false;
  const layout = options.layout ?? 'all';
  if (!bestCase && layout !== 'all') {
    throw new Error(`the ${layout} layout shares a database the bench starts: only with bestCase`);
  }
  const maxClients = options.maxClients ?? Math.max(...CLIENT_COUNTS);
  const organizations = Math.ceil(maxClients / CLIENTS_PER_ORGANIZATION);
  const release = holdGuards();
  // This Crewline's cleanups, also on the bench's list for a signal; run in reverse order by `stop`.
  const own: (() => Promise<unknown>)[] = [];
  const register = (cleanup: () => Promise<unknown>) => {
    cleanups.push(cleanup);
    own.push(cleanup);
  };
  const cleanUp = async () => {
    while (own.length > 0) {
      const cleanup = own.pop()!;
      if (unregister(cleanup))
        await cleanup().catch((error: unknown) => console.error('cleanup failed:', error));
    }
  };
  const servers: Server[] = [];
  let exits: { role: Role; exit: number | string | null }[] = [];
  let ownPostmaster: number | undefined;
  try {
    const dataDir = makeTempDir('crewline-bench-throughput-');
    register(async () => {
      rmSync(dataDir, { recursive: true, force: true });
      tempDirs.delete(dataDir);
    });
    const fake = options.fake ?? (await startFakeLlmServer());
    if (!options.fake) register(() => fake.close());

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      HOST: '127.0.0.1',
      PORT: '0',
      // The fake model listens on loopback, which egress refuses unless allowed; only its port is.
      EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
      ...(serverLogLevel ? { LOG_LEVEL: serverLogLevel } : {}),
      ...serverEnv,
    };
    const clusterDir = path.join(dataDir, 'cluster');
    if (bestCase) {
      const cluster = await startEmbeddedPostgres({ dataDir: clusterDir, ephemeral: true });
      register(() => cluster.stop());
      env.DATABASE_URL = cluster.url;
      // Every process of a layout signs and reads the same tokens and stored credentials.
      env.JWT_SECRET = randomBytes(32).toString('hex');
      env.ENCRYPTION_KEY = randomBytes(32).toString('hex');
    }

    const stopServers = async () => {
      const codes = await Promise.all(servers.map((s) => stopServer(s)));
      exits = servers.map((s, i) => ({ role: s.role, exit: codes[i] }));
    };
    register(stopServers);
    const started = performance.now();
    // Started together, as a deployment would: migrations are advisory-locked, so one runs them.
    const roles = LAYOUTS[layout];
    const results = await Promise.allSettled(roles.map((role, i) => startServer(role, env, dataDir, i)));
    for (const r of results) if (r.status === 'fulfilled') servers.push(r.value);
    for (const r of results) if (r.status === 'rejected') throw r.reason;
    const startSeconds = round((performance.now() - started) / 1000);
    const base = servers.find((s) => s.url)!.url!;

    // As shipped, the database is the one the server started in its DATA_DIR (`${role}-${index}`).
    const connected = await connectToServerDatabase(bestCase ? clusterDir : path.join(dataDir, 'all-0'));
    const { db, postmasterPid, settings } = connected;
    ownPostmaster = postmasterPid;
    postmasters.add(postmasterPid);
    register(() => db.end());

    const accounts: Account[] = [];
    for (let n = 0; n < organizations; n += SETUP_PARALLEL) {
      const batch = Array.from({ length: Math.min(SETUP_PARALLEL, organizations - n) }, (_, i) => n + i + 1);
      accounts.push(
        ...(await Promise.all(batch.map((i) => prepareAccount(base, fake, i, undefined, 'enterprise')))),
      );
    }
    const plan = await makeEnterprise(db, base, accounts);

    const info: Record<string, unknown> = {
      variant: bestCase ? BEST_CASE : SHIPPED,
      layout,
      processes: roles,
      startSeconds,
      database: { settings },
      organizations,
      clientsPerOrganization: CLIENTS_PER_ORGANIZATION,
      subscription: plan,
    };
    let stopped = false;
    return {
      info,
      async phase(clients: number, timing: { warmupMs?: number; measuredMs?: number } = {}) {
        if (stopped) throw new Error('this Crewline was stopped');
        if (clients > organizations * CLIENTS_PER_ORGANIZATION) {
          throw new Error(`${clients} clients: this Crewline was started for ${maxClients}`);
        }
        const clientAccounts = Array.from(
          { length: clients },
          (_, i) => accounts[Math.floor(i / CLIENTS_PER_ORGANIZATION)],
        );
        try {
          return await runPhase(base, clientAccounts, servers, postmasterPid, {
            warmupMs: timing.warmupMs ?? WARMUP_MS,
            measuredMs: timing.measuredMs ?? MEASURED_MS,
          });
        } finally {
          // The fake model's record of requests would otherwise grow with every run.
          fake.reset();
        }
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          info.executionStatuses = await executionStatuses(db).catch((error: unknown) => String(error));
          await cleanUp();
        } finally {
          release();
          postmasters.delete(postmasterPid);
          agent.destroy();
        }
        // A graceful stop exits 0; anything else is worth a look at the log.
        info.exits = exits;
        if (exits.some((e) => e.exit !== 0)) {
          info.logTails = Object.fromEntries(
            servers.map((s, i) => [`${s.role}-${i}`, logTail(s.logFile, 20)]),
          );
        }
      },
    };
  } catch (error) {
    // Make the failure readable: what each server printed last.
    if (!interrupted)
      for (const [i, s] of servers.entries())
        console.error(`--- ${layout} ${s.role}-${i} output ---\n${logTail(s.logFile)}`);
    await cleanUp();
    release();
    if (ownPostmaster) postmasters.delete(ownPostmaster);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// The previous result, kept beside the new one.

type PhaseSummary = {
  runsPerSecond: number;
  p99Ms: number | null;
  acceptP99Ms: number | null;
  nodeCpuMsPerRun: number | null;
  postgresCpuMsPerRun: number | null;
  errors: number;
};
type Previous = {
  at?: string;
  serverRoot?: string;
  serverCommit?: string;
  loadAverage1m?: unknown;
  /** What it measured: a variant's label, or the database it ran on (results from before issue 43). */
  variant?: string | null;
  databaseSettings?: unknown;
  /** The machine's speed then (bench/calibration.ts), to compare CPU figures (bench/README.md). */
  calibrationMsPerUnit?: number | null;
  layouts?: Record<string, Record<string, PhaseSummary>>;
  /** A result from before this bench measured separate server processes: its headline figures. */
  inProcess?: Record<string, unknown>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- result files of older benches have other shapes
type Loose = any;

function readPrevious(resultFile: string): Previous | null {
  if (!existsSync(resultFile)) return null;
  let old: Loose;
  try {
    old = JSON.parse(readFileSync(resultFile, 'utf8'));
  } catch {
    return null;
  }
  const summary: Previous = {
    at: old.at,
    serverRoot: old.serverRoot,
    serverCommit: old.serverCommit,
    loadAverage1m: old.machine?.loadAverage1m,
    variant: old.variant ?? (typeof old.database === 'string' ? old.database : null),
    databaseSettings: old.database?.settings ?? null,
    calibrationMsPerUnit: old.machine?.calibration?.msPerUnit ?? null,
  };
  if (old.layouts && typeof old.layouts === 'object') {
    summary.layouts = {};
    for (const [layout, phases] of Object.entries(old.layouts as Record<string, Record<string, Loose>>)) {
      summary.layouts[layout] = {};
      for (const [key, phase] of Object.entries(phases)) {
        // Either a full result or an already summarised one.
        summary.layouts[layout][key] = {
          runsPerSecond: phase.runsPerSecond,
          p99Ms: phase.latencyMs?.p99 ?? phase.p99Ms ?? null,
          acceptP99Ms: phase.acceptMs?.p99 ?? phase.acceptP99Ms ?? null,
          nodeCpuMsPerRun: phase.cpu?.nodeMsPerRun ?? phase.nodeCpuMsPerRun ?? null,
          postgresCpuMsPerRun: phase.cpu?.postgresMsPerRun ?? phase.postgresCpuMsPerRun ?? null,
          errors: phase.errors ?? 0,
        };
      }
    }
  } else if (old.throughput || old.latency) {
    // The earlier bench ran the server inside the bench process and submitted a fixed batch of runs.
    summary.inProcess = {
      oneAgentPostToCompletedMs: old.latency?.one_agent?.postToCompleted ?? null,
      throughput: Object.fromEntries(
        Object.entries((old.throughput ?? {}) as Record<string, Loose>).map(([key, t]) => [
          key,
          { workerConcurrency: t.workerConcurrency, runs: t.runs, completedPerSecond: t.completedPerSecond },
        ]),
      ),
    };
  }
  return summary;
}

function printTable(
  variant: string,
  layouts: Record<string, Record<string, PhaseResult>>,
  previous: Previous | null,
  calibration: Calibration | undefined,
) {
  const prior = (layout: string, key: string) => previous?.layouts?.[layout]?.[key];
  const header = [
    'layout',
    'clients',
    'runs/s',
    'p50 ms',
    'p99 ms',
    '202 p50',
    '202 p99',
    'Node ms/run',
    'PG ms/run',
    'bench ms/run',
    'cores busy',
    'errors',
  ];
  const withPrevious = Boolean(previous?.layouts);
  if (withPrevious) header.push('prev runs/s', 'prev p99', 'prev 202 p99', 'prev Node', 'prev PG');
  const rows = [header];
  for (const [layout, phases] of Object.entries(layouts)) {
    for (const [key, p] of Object.entries(phases)) {
      const row = [
        layout,
        String(p.clients),
        String(p.runsPerSecond),
        String(p.latencyMs?.p50 ?? '–'),
        String(p.latencyMs?.p99 ?? '–'),
        String(p.acceptMs?.p50 ?? '–'),
        String(p.acceptMs?.p99 ?? '–'),
        String(p.cpu.nodeMsPerRun ?? '–'),
        String(p.cpu.postgresMsPerRun ?? '–'),
        String(p.cpu.benchProcessMsPerRun ?? '–'),
        String(p.cpu.cores.machineBusy),
        String(p.errors),
      ];
      if (withPrevious) {
        const q = prior(layout, key);
        row.push(
          String(q?.runsPerSecond ?? '–'),
          String(q?.p99Ms ?? '–'),
          String(q?.acceptP99Ms ?? '–'),
          String(q?.nodeCpuMsPerRun ?? '–'),
          String(q?.postgresCpuMsPerRun ?? '–'),
        );
      }
      rows.push(row);
    }
  }
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log('');
  console.log(variant);
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
  if (calibration) console.log(`machine: ${describeCalibration(calibration)}`);
  if (previous) {
    const from = [
      previous.at,
      previous.serverCommit && `commit ${previous.serverCommit}`,
      previous.calibrationMsPerUnit && `calibration ${previous.calibrationMsPerUnit} ms/unit`,
    ]
      .filter(Boolean)
      .join(', ');
    console.log(`previous: ${from || 'unknown date'}${previous.variant ? `; ${previous.variant}` : ''}`);
    if (previous.inProcess) console.log('previous (in-process bench):', JSON.stringify(previous.inProcess));
  }
}

// ---------------------------------------------------------------------------------------------------

function git(args: string[]) {
  try {
    return execFileSync('git', ['-C', serverRoot, '--no-optional-locks', ...args], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return null;
  }
}

/**
 * WORKER_CONCURRENCY and DATABASE_POOL_SIZE of a process running everything, as the measured
 * checkout's own configuration parses them with nothing set (null: it has no such setting).
 */
async function defaultConfiguration(dataDir: string) {
  try {
    const { loadConfig } = (await import(
      pathToFileURL(path.join(serverRoot, 'apps/server/src/platform/env.ts')).href
    )) as {
      loadConfig(env: NodeJS.ProcessEnv): { runs?: { concurrency?: number }; databasePoolSize?: number };
    };
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'x'.repeat(32),
      ENCRYPTION_KEY: '0'.repeat(64),
    });
    return {
      workerConcurrency: config.runs?.concurrency ?? null,
      databasePoolSize: config.databasePoolSize ?? null,
    };
  } catch {
    return { workerConcurrency: null, databasePoolSize: null };
  }
}

/**
 * `npm run bench -- execution-throughput [--best-case]`: the product as shipped at each client count
 * (or the best case, in its own result file), beside the previous result of the same file.
 */
export async function runExecutionThroughput(
  context: { flags?: readonly string[]; calibration?: Calibration } = {},
) {
  const bestCase = Boolean(context.flags?.includes('--best-case')) || process.env.BENCH_BEST_CASE === '1';
  const resultName = bestCase ? 'execution-throughput-best-case' : 'execution-throughput';
  if (!existsSync(path.join(serverRoot, 'apps/server/src/main.ts'))) {
    throw new Error(`BENCH_SERVER_ROOT ${serverRoot} has no apps/server/src/main.ts`);
  }
  if (!existsSync(path.join(serverRoot, 'node_modules/tsx'))) {
    throw new Error(`BENCH_SERVER_ROOT ${serverRoot} has no node_modules/tsx: run npm ci there first`);
  }
  const previous = readPrevious(path.join(resultsDir, `${resultName}.json`));
  const changedFiles =
    git(['status', '--porcelain', '--untracked-files=no'])?.split('\n').filter(Boolean) ?? [];
  const serverNode = execFileSync(process.execPath, ['--version'], { encoding: 'utf8' }).trim();
  const variant = bestCase ? BEST_CASE : SHIPPED;
  console.log(variant);

  const release = holdGuards();
  try {
    const configDir = makeTempDir('crewline-bench-config-');
    cleanups.push(async () => {
      rmSync(configDir, { recursive: true, force: true });
      tempDirs.delete(configDir);
    });
    const { workerConcurrency, databasePoolSize } = await defaultConfiguration(configDir);
    const fake = await startFakeLlmServer();
    cleanups.push(() => fake.close());

    const layouts: Record<string, Record<string, PhaseResult>> = {};
    const layoutInfo: Record<string, Record<string, unknown>> = {};
    // As shipped the server is one process; the split layout needs a database the bench starts.
    const layoutNames = (
      bestCase ? (process.env.BENCH_LAYOUTS?.split(',') ?? Object.keys(LAYOUTS)) : ['all']
    ) as LayoutName[];
    for (const layout of layoutNames) {
      if (interrupted) throw new Error('interrupted');
      console.log(`layout ${layout}: starting ${LAYOUTS[layout].join(', ')}`);
      const crewline = await startShippedCrewline({
        bestCase,
        layout,
        fake,
        maxClients: Math.max(...CLIENT_COUNTS),
      });
      const phases: Record<string, PhaseResult> = {};
      try {
        const { settings } = crewline.info.database as { settings: Record<string, string> };
        console.log(
          `database: fsync ${settings.fsync}, synchronous_commit ${settings.synchronousCommit}, ` +
            `full_page_writes ${settings.fullPageWrites}; organizations on Enterprise: ${String(crewline.info.organizations)}`,
        );
        for (const clients of CLIENT_COUNTS) {
          if (interrupted) throw new Error('interrupted');
          const result = await crewline.phase(clients);
          phases[`clients_${clients}`] = result;
          console.log(
            `${layout}, ${clients} clients: ${result.runsPerSecond} runs/s, p99 ${result.latencyMs?.p99 ?? '–'} ms, ` +
              `POST → 202 p99 ${result.acceptMs?.p99 ?? '–'} ms, errors ${result.errors}, ` +
              `CPU/run Node ${result.cpu.nodeMsPerRun} ms, Postgres ${result.cpu.postgresMsPerRun} ms, ` +
              `bench ${result.cpu.benchProcessMsPerRun} ms; cores busy: machine ${result.cpu.cores.machineBusy}, other ${result.cpu.cores.other}`,
          );
        }
      } finally {
        await crewline.stop();
      }
      layouts[layout] = phases;
      layoutInfo[layout] = crewline.info;
    }
    printTable(variant, layouts, previous, context.calibration);

    const at50 = layouts.all?.clients_50;
    const at100 = layouts.all?.clients_100;
    const first = layoutInfo[layoutNames[0]] as { database: { settings: unknown }; subscription: unknown };
    return {
      resultName,
      variant,
      serverRoot,
      serverCommit: git(['rev-parse', '--short', 'HEAD']),
      // The measured tree's uncommitted changes to tracked files, if any: the commit alone does not say
      // what ran then.
      serverChangedFiles: changedFiles,
      serverNode,
      serverCommand: `node --max-semi-space-size=8 --import tsx ${path.join(serverRoot, 'apps/server/src/main.ts')}`,
      serverLogLevel: serverLogLevel ?? 'server default (info)',
      workerConcurrency,
      databasePoolSize,
      database: {
        settings: first.database.settings,
        what: bestCase
          ? 'one ephemeral embedded PostgreSQL cluster started by the bench for each layout (fsync, ' +
            'synchronous_commit and full_page_writes off), the servers pointed at it with DATABASE_URL'
          : 'the embedded PostgreSQL the server starts in its DATA_DIR, as `npm start` has it (no DATABASE_URL)',
      },
      fakeModel: 'fake OpenAI-compatible server over HTTP on 127.0.0.1 in the bench process, instant replies',
      method: {
        clientCounts: CLIENT_COUNTS,
        clientsPerOrganization: CLIENTS_PER_ORGANIZATION,
        warmupSeconds: WARMUP_MS / 1000,
        measuredSeconds: MEASURED_MS / 1000,
        runTimeoutSeconds: RUN_TIMEOUT_MS / 1000,
        clients:
          'closed loop: POST /api/workflows/:id/execute, wait for the run’s workflow_execution_completed ' +
          `on the client’s own /ws socket, then the next. Clients in groups of ${CLIENTS_PER_ORGANIZATION} share ` +
          'one account and organization (OpenAI connection, agent and active one-agent sequential workflow, all ' +
          'made through the API), each with its own socket, which hears every run of the organization and keeps ' +
          'only its own.',
        plan:
          'each organization signed up on the Enterprise trial (POST /api/auth/signup with plan enterprise), ' +
          'then made an active yearly Enterprise subscription paid by invoice by an UPDATE of its subscriptions ' +
          'row in the server’s database (an operator’s agreement; no payment provider here), read back through ' +
          'GET /api/subscription-status: no monthly run limit (Professional’s 10,000 runs a month last about ' +
          'two minutes at this load), 50 runs in progress at once per organization.',
        subscription: first.subscription,
      },
      target: {
        ...TARGET,
        meetsAcceptP99At100Clients: at100?.acceptMs
          ? at100.acceptMs.p99 <= TARGET.acceptP99MsAt100Clients
          : null,
        meetsP99At50Clients: at50?.latencyMs ? at50.latencyMs.p99 <= TARGET.p99MsAt50Clients : null,
      },
      layouts,
      layoutInfo,
      previous,
      note:
        'runsPerSecond: runs whose completed event arrived in the measured window, per second; latencyMs: ' +
        'POST sent to completed event seen, for those runs; acceptMs: POST sent to its 202 read, for the answers ' +
        'read in the window; errors: refused POSTs, failed or timed-out runs in the window. cpu: CPU time over ' +
        'the window from /proc (utime+stime, plus reaped children) per completed run: nodeMsPerRun sums the ' +
        'server processes (without their embedded Postgres), postgresMsPerRun the postmaster and all its ' +
        'children, benchProcessMsPerRun is this process (clients, websockets, fake model), not the product. ' +
        'cores: CPU seconds per second of each; other is the rest of the machine (other users), which competes ' +
        'for the same cores. machine.calibration: the machine’s speed at the time (bench/calibration.ts); to ' +
        'compare CPU per run with another result, scale by the ratio of their msPerUnit (bench/README.md).',
    };
  } finally {
    await runCleanups();
    release();
    agent.destroy();
  }
}
