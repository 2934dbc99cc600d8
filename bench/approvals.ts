// Runs waiting for people (issue 36, docs/decisions/0042-durable-waits.md): 10,000 runs waiting at once
// should leave the server's idle CPU and memory where they were, and a decision should resume its run
// in under 100 ms p99 at 10 decisions a second.
//
// The real server (main.ts, ROLE=all) in a child process with the flags `npm start` gives it and its
// own embedded PostgreSQL in DATA_DIR (no DATABASE_URL): the database as `npm start` has it, fsync
// on. The model is the instant fake OpenAI-compatible server in this process. One account, through
// the API: start → draft (agent) → approve (Approval, first decision wins) → send (agent) → end.
//
// 1. Baseline: the server idle with no runs, IDLE_SECONDS: its CPU and RSS from /proc, Postgres's CPU.
// 2. RUNS runs started through POST /api/workflows/:id/execute, BATCH at once, the next batch when the
//    server has made all but one batch of those sent wait (counted with SQL through this bench's own
//    connection to the server's database, in DATA_DIR): how long until all wait.
// 3. The same idle window with them all waiting, to compare with the baseline.
// 4. DECISIONS approvals (chosen at random among the pending) decided at DECISIONS_PER_SECOND, on a
//    timer, each timed from sending POST /api/approvals/:id/decision to its answer, and to the run's
//    `workflow_execution_completed` on a websocket (/ws) subscribed to the organization.
//
// APPROVALS_BENCH_RUNS, APPROVALS_BENCH_DECISIONS and APPROVALS_BENCH_IDLE_SECONDS make a smaller run
// to try the bench; the figures issue 36 asks for are those of the defaults.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { startFakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import {
  childrenByParent,
  machineTicks,
  prepareAccount,
  request,
  startServer,
  stopServer,
  ticksToMs,
  treeTicks,
  type Account,
  type Answer,
  type Server,
} from './execution-throughput';
import { latencyStats, memoryMiB } from './figures';
import { connectToServerDatabase, logTail } from './server-database';
import { openRunSocket } from './run-socket';

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const RUNS = envNumber('APPROVALS_BENCH_RUNS', 10_000);
const DECISIONS = Math.min(RUNS, envNumber('APPROVALS_BENCH_DECISIONS', 300));
const IDLE_SECONDS = envNumber('APPROVALS_BENCH_IDLE_SECONDS', 20);
/** Runs started at once. */
const BATCH = 200;
const DECISIONS_PER_SECOND = 10;
/**
 * Before each idle window: the start's or the burst's after-effects (autovacuum, which looks every
 * 10 s, statistics, the last log lines, the collection of the burst's garbage) are not the idle
 * server's: 10 s left the server shrinking its heap through the window.
 */
const SETTLE_SECONDS = 30;
/** No new run waiting for this long while starting them: the server is stuck, the bench stops. */
const STALL_MS = 60_000;
/** A decided run not ended by then counts as an error. */
const RESUME_TIMEOUT_MS = 30_000;
const TARGET = { resumeP99Ms: 100 };

const round = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const at = { x: 0, y: 0 };

/** start → draft → approve → (approved) send → end, one agent for both steps. */
function waitingShape(agentId: string) {
  return {
    nodes: [
      { id: 'start', type: 'start', position: at, data: {} },
      { id: 'draft', type: 'agent', agentId, position: at, data: { label: 'Draft' } },
      {
        id: 'approve',
        type: 'approval',
        position: at,
        data: { label: 'Approve', title: 'Send the note on {{ input.topic }}?', policy: 'first' },
      },
      { id: 'send', type: 'agent', agentId, position: at, data: { label: 'Send' } },
      { id: 'end', type: 'end', position: at, data: {} },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'draft' },
      { id: 'e2', source: 'draft', target: 'approve' },
      { id: 'e3', source: 'approve', target: 'send', sourceHandle: 'approved' },
      { id: 'e4', source: 'send', target: 'end' },
    ],
  };
}

// ---------------------------------------------------------------------------------------------------
// CPU and memory of the server and of its Postgres.

/** Whether `pid` is among `root`'s descendants. */
function descendsFrom(pid: number, root: number, byParent: Map<number, number[]>) {
  for (const queue = [root]; queue.length > 0;) {
    const children = byParent.get(queue.shift()!) ?? [];
    if (children.includes(pid)) return true;
    queue.push(...children);
  }
  return false;
}

/**
 * CPU ticks of the server's Node process and of Postgres (the postmaster and its backends). The
 * embedded Postgres is the server's child, so its ticks are taken out of the server's tree.
 */
function cpuNow(serverPid: number, postmasterPid: number) {
  const byParent = childrenByParent();
  const server = treeTicks(serverPid, byParent).ticks;
  const postgres = treeTicks(postmasterPid, byParent);
  const inServerTree = descendsFrom(postmasterPid, serverPid, byParent);
  return {
    node: server - (inServerTree ? postgres.ticks : 0),
    postgres: postgres.ticks,
    postgresProcesses: postgres.processes,
    postgresInServerTree: inServerTree,
    machineBusy: machineTicks().busy,
    at: performance.now(),
  };
}
type Cpu = ReturnType<typeof cpuNow>;

/** CPU between two readings, in % of one core. */
function cpuBetween(a: Cpu, b: Cpu) {
  const ms = b.at - a.at;
  const percent = (ticks: number) => round((ticksToMs(ticks) / ms) * 100);
  return {
    seconds: round(ms / 1000),
    serverCpuPercent: percent(b.node - a.node),
    postgresCpuPercent: percent(b.postgres - a.postgres),
    // The whole machine, all cores (100 per core): other work on it skews every figure.
    machineBusyPercent: percent(b.machineBusy - a.machineBusy),
    postgresProcesses: b.postgresProcesses,
    postgresInServerTree: b.postgresInServerTree,
  };
}

/** The server left alone for IDLE_SECONDS after SETTLE_SECONDS: CPU, and RSS read every second. */
async function idleWindow(serverPid: number, postmasterPid: number) {
  await sleep(SETTLE_SECONDS * 1000);
  const rssAtStart = memoryMiB(serverPid).rss;
  const before = cpuNow(serverPid, postmasterPid);
  const rss: number[] = [];
  for (let second = 0; second < IDLE_SECONDS; second++) {
    await sleep(1000);
    rss.push(memoryMiB(serverPid).rss);
  }
  const cpu = cpuBetween(before, cpuNow(serverPid, postmasterPid));
  return {
    ...cpu,
    rssMiB: {
      atStart: rssAtStart,
      atEnd: rss[rss.length - 1],
      mean: round(rss.reduce((a, b) => a + b, 0) / rss.length),
      max: Math.max(...rss),
    },
    peakRssMiB: memoryMiB(serverPid).peak,
  };
}

// ---------------------------------------------------------------------------------------------------
// The runs.

async function statusCounts(db: pg.Client) {
  const { rows } = await db.query<{ status: string; count: number }>(
    'SELECT status::text AS status, count(*)::int AS count FROM workflow_executions GROUP BY status',
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.count])) as Record<string, number>;
}

/** RUNS runs started, BATCH at a time, until all wait: how long it took. */
async function makeRunsWait(base: string, account: Account, db: pg.Client) {
  const started = performance.now();
  let sent = 0;
  let waiting = 0;
  let lastProgress = performance.now();
  while (waiting < RUNS) {
    // One batch ahead of the server at most: the queue stays as long as a busy day's, not RUNS long.
    if (sent < RUNS && waiting >= sent - BATCH) {
      const batch = Math.min(BATCH, RUNS - sent);
      const answers = await Promise.all(
        Array.from({ length: batch }, () =>
          request(
            base,
            'POST',
            `/api/workflows/${account.workflowId}/execute`,
            { input: { topic: 'tea' } },
            account.token,
          ).catch((error: unknown): Answer => ({ status: 0, body: { error: String(error) } })),
        ),
      );
      const refused = answers.find((a) => a.status !== 202);
      if (refused) throw new Error(`execute answered ${refused.status}: ${JSON.stringify(refused.body)}`);
      sent += batch;
      continue;
    }
    await sleep(100);
    const counts = await statusCounts(db);
    if (counts.failed || counts.cancelled) {
      throw new Error(`runs ended before their approval: ${JSON.stringify(counts)}`);
    }
    if ((counts.waiting ?? 0) > waiting) lastProgress = performance.now();
    else if (performance.now() - lastProgress > STALL_MS) {
      throw new Error(`no run started waiting for ${STALL_MS / 1000} s: ${JSON.stringify(counts)}`);
    }
    waiting = counts.waiting ?? 0;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds: round(seconds),
    runsWaitingPerSecond: round(RUNS / seconds),
    statuses: await statusCounts(db),
  };
}

/**
 * DECISIONS approvals decided at DECISIONS_PER_SECOND, each sent at its time on a timer (not when the
 * one before ended): POST → 200, and POST → the run's completed event.
 */
async function decide(
  base: string,
  account: Account,
  db: pg.Client,
  serverPid: number,
  postmasterPid: number,
) {
  const { rows: picks } = await db.query<{ id: string; execution_id: string }>(
    "SELECT id, execution_id FROM approvals WHERE status = 'pending' ORDER BY random() LIMIT $1",
    [DECISIONS],
  );
  const socket = await openRunSocket(base, account, RESUME_TIMEOUT_MS);
  const postMs: number[] = [];
  const resumeMs: number[] = [];
  const lateMs: number[] = [];
  const errors: string[] = [];
  try {
    const interval = 1000 / DECISIONS_PER_SECOND;
    const first = performance.now() + interval;
    const before = cpuNow(serverPid, postmasterPid);
    await Promise.all(
      picks.map(async (pick, i) => {
        const due = first + i * interval;
        await sleep(due - performance.now());
        const sent = performance.now();
        // How late the timer fired: a busy bench process would send in bursts.
        lateMs.push(sent - due);
        let answer: Answer;
        try {
          answer = await request(
            base,
            'POST',
            `/api/approvals/${pick.id}/decision`,
            { decision: 'approve' },
            account.token,
          );
        } catch (error) {
          errors.push(`request: ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        if (answer.status !== 200) {
          errors.push(`http ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
          return;
        }
        postMs.push(performance.now() - sent);
        const outcome = await socket.end(pick.execution_id);
        if (outcome.ok) resumeMs.push(outcome.at - sent);
        else errors.push(`run: ${outcome.error ?? 'failed'}`);
      }),
    );
    const cpu = cpuBetween(before, cpuNow(serverPid, postmasterPid));
    return {
      decisions: picks.length,
      completed: resumeMs.length,
      errors: errors.length,
      firstError: errors[0] ?? null,
      postToAnswerMs: latencyStats(postMs),
      postToCompletedEventMs: latencyStats(resumeMs),
      timerLateMs: latencyStats(lateMs),
      cpu,
    };
  } finally {
    socket.close();
  }
}

// ---------------------------------------------------------------------------------------------------

export async function runApprovals() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-approvals-'));
  // When run as root the embedded Postgres runs as the "postgres" user, which must enter the folder.
  chmodSync(dataDir, 0o755);
  const fake = await startFakeLlmServer();
  let server: Server | undefined;
  let db: pg.Client | undefined;
  // A bench stopped by Ctrl-C or a failure leaves no server behind (its Postgres stops with it).
  const killServer = () => server?.child.kill('SIGKILL');
  process.on('exit', killServer);
  try {
    server = await startServer(
      'all',
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        HOST: '127.0.0.1',
        PORT: '0',
        // The fake model listens on loopback, which egress refuses unless allowed; only its port is.
        EGRESS_ALLOW_LIST: `127.0.0.1:${fake.port}`,
      },
      dataDir,
      0,
    );
    const base = server.url!;
    const serverPid = server.child.pid!;
    const connected = await connectToServerDatabase(path.join(dataDir, 'all-0'));
    db = connected.db;
    const { postmasterPid, settings: database } = connected;
    const account = await prepareAccount(base, fake, 1, waitingShape);
    console.log(`server ${serverPid}, Postgres ${postmasterPid}, fsync ${database.fsync}`);

    const baseline = await idleWindow(serverPid, postmasterPid);
    console.log('idle, no runs:', baseline);

    const making = await makeRunsWait(base, account, db);
    console.log(`${RUNS} runs waiting after ${making.seconds} s`, making.statuses);
    fake.reset();
    const rssAfterMaking = memoryMiB(serverPid);

    const withWaiting = await idleWindow(serverPid, postmasterPid);
    console.log(`idle, ${RUNS} waiting:`, withWaiting);

    // The inbox's first page with every run waiting: what a person opening it waits for.
    const listStarted = performance.now();
    const list = await request(base, 'GET', '/api/approvals?status=pending', undefined, account.token);
    const pendingList = {
      status: list.status,
      ms: round(performance.now() - listStarted),
      approvals: Array.isArray(list.body) ? list.body.length : null,
    };

    const decisions = await decide(base, account, db, serverPid, postmasterPid);
    console.log('decisions:', decisions);
    const statuses = await statusCounts(db);

    await db.end();
    db = undefined;
    const exit = await stopServer(server);
    return {
      serverCommand: `node --max-semi-space-size=8 --import tsx apps/server/src/main.ts (ROLE=all, LOG_LEVEL default), DATA_DIR in ${os.tmpdir()}`,
      database: {
        ...database,
        what: 'the embedded PostgreSQL the server starts in its DATA_DIR, as `npm start` has it',
      },
      settings: {
        runs: RUNS,
        batch: BATCH,
        decisions: DECISIONS,
        decisionsPerSecond: DECISIONS_PER_SECOND,
        idleSeconds: IDLE_SECONDS,
        settleSeconds: SETTLE_SECONDS,
        workflow: 'start → agent → approval (first decision wins) → agent → end, instant fake model',
      },
      target: {
        ...TARGET,
        meetsResumeP99: decisions.postToCompletedEventMs
          ? decisions.postToCompletedEventMs.p99 < TARGET.resumeP99Ms
          : null,
      },
      idle: {
        noRuns: baseline,
        runsWaiting: withWaiting,
        change: {
          serverCpuPercent: round(withWaiting.serverCpuPercent - baseline.serverCpuPercent),
          postgresCpuPercent: round(withWaiting.postgresCpuPercent - baseline.postgresCpuPercent),
          rssMiBAtEnd: round(withWaiting.rssMiB.atEnd - baseline.rssMiB.atEnd),
        },
      },
      makingRunsWait: { ...making, rssMiBAfter: rssAfterMaking },
      pendingList,
      decisions,
      statusesAtEnd: statuses,
      serverExit: exit,
      note:
        'CPU from /proc (utime+stime, reaped children included) in % of one core: server is the Node ' +
        'process (and its children but Postgres), postgres the postmaster and its backends (taken out of the ' +
        `server’s tree when postgresInServerTree). Idle windows: ${IDLE_SECONDS} s after ${SETTLE_SECONDS} s of settling, first with no runs, then ` +
        `with ${RUNS} runs waiting (rssMiB: VmRSS each second; peakRssMiB: VmHWM, which includes the burst ` +
        'of starting them). makingRunsWait: first POST to the last run counted waiting (SQL count through ' +
        'the bench’s own connection). decisions: POST /api/approvals/:id/decision on a timer at ' +
        `${DECISIONS_PER_SECOND}/s, to its 200 (postToAnswerMs) and to the run’s workflow_execution_completed ` +
        'on a /ws socket (postToCompletedEventMs); timerLateMs: how late each was sent. machineBusyPercent: ' +
        'the whole machine (100 per core), other work included. The server is main.ts with the flags ' +
        '`npm start` gives; `npm start` runs the same in one process after checking the web build.',
    };
  } catch (error) {
    if (server) console.error(`--- server output ---\n${logTail(server.logFile)}`);
    throw error;
  } finally {
    await db?.end().catch(() => {});
    if (server) await stopServer(server);
    process.off('exit', killServer);
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
