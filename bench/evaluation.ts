// An evaluation of ITEMS items at CONCURRENCY (issue 39, docs/product-rules.md, Evaluations): how many
// items a second an eval run gets through with an instant model, and what each item costs the server
// and its database in CPU.
//
// The real server (main.ts, ROLE=all) in a child process with the flags `npm start` gives it and its
// own embedded PostgreSQL in DATA_DIR (fsync on, as `npm start` has it). The model is the instant fake
// OpenAI-compatible server in this process, which answers `Fake reply to: <the step's message>`. One
// account, through the API: an agent, an active one-agent workflow whose step asks `{{ input.question }}`,
// a dataset whose items expect the fake's answer to their question, and an evaluation with an `exact`
// grader (the item's expected) and a `contains` grader, so every item should pass.
//
// A warm-up eval run of WARMUP_ITEMS (its own dataset and evaluation, not measured), then the measured
// one: from POST /api/evaluations/:id/runs to GET /api/eval-runs/:id answering `completed` (polled every
// POLL_MS, as the result page does), with the CPU of the server's Node process and of Postgres from /proc.
//
// EVAL_BENCH_ITEMS, EVAL_BENCH_CONCURRENCY and EVAL_BENCH_POLL_MS make a smaller or other run; the figures issue 39 asks
// for are those of the defaults.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { startFakeLlmServer } from '../apps/server/src/testing/fake-llm-server';
import { chainOf } from '../apps/server/src/testing/workflow-shapes';
import {
  childrenByParent,
  expectStatus,
  machineTicks,
  prepareAccount,
  request,
  startServer,
  stopServer,
  ticksToMs,
  treeTicks,
  type Account,
  type Server,
} from './execution-throughput';
import { latencyStats } from './figures';
import { connectToServerDatabase, logTail } from './server-database';

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const ITEMS = envNumber('EVAL_BENCH_ITEMS', 500);
const CONCURRENCY = envNumber('EVAL_BENCH_CONCURRENCY', 10);
const WARMUP_ITEMS = 50;
/** As the result page polls; EVAL_BENCH_POLL_MS shows what the polls themselves cost the server. */
const POLL_MS = envNumber('EVAL_BENCH_POLL_MS', 200);
/** No item graded for this long: the eval run is stuck, the bench stops. */
const STALL_MS = 60_000;

const round = (n: number) => Math.round(n * 100) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** start → one agent asked the item's question → end. */
function questionShape(agentId: string) {
  const { nodes, edges } = chainOf([agentId]);
  return {
    nodes: nodes.map((node) =>
      node.type === 'agent' ? { ...node, data: { label: 'Answer', prompt: '{{ input.question }}' } } : node,
    ),
    edges,
  };
}

const question = (i: number) => `Question ${i + 1}: what is ${i} + ${i}?`;

// ---------------------------------------------------------------------------------------------------
// CPU of the server's Node process and of Postgres (as bench/approvals.ts reads them).

/**
 * CPU ticks of the server's Node process and of Postgres (the postmaster and its backends); the
 * embedded Postgres is the server's child, so its ticks are taken out of the server's tree.
 */
function cpuNow(serverPid: number, postmasterPid: number) {
  const byParent = childrenByParent();
  const postgres = treeTicks(postmasterPid, byParent).ticks;
  const bench = process.cpuUsage();
  return {
    node: treeTicks(serverPid, byParent).ticks - postgres,
    postgres,
    benchMicros: bench.user + bench.system,
    machineBusy: machineTicks().busy,
    at: performance.now(),
  };
}
type Cpu = ReturnType<typeof cpuNow>;

/** CPU between two readings, per item graded, and in cores kept busy. */
function cpuPerItem(a: Cpu, b: Cpu, items: number) {
  const seconds = (b.at - a.at) / 1000;
  const nodeMs = ticksToMs(b.node - a.node);
  const postgresMs = ticksToMs(b.postgres - a.postgres);
  const benchMs = (b.benchMicros - a.benchMicros) / 1000;
  const machineMs = ticksToMs(b.machineBusy - a.machineBusy);
  return {
    nodeMsPerItem: round(nodeMs / items),
    postgresMsPerItem: round(postgresMs / items),
    benchProcessMsPerItem: round(benchMs / items),
    cores: {
      node: round(nodeMs / 1000 / seconds),
      postgres: round(postgresMs / 1000 / seconds),
      benchProcess: round(benchMs / 1000 / seconds),
      machineBusy: round(machineMs / 1000 / seconds),
      other: round(Math.max(0, machineMs - nodeMs - postgresMs - benchMs) / 1000 / seconds),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The evaluation.

/** A dataset of `count` questions, each expecting the fake's answer, and its evaluation. */
async function prepareEvaluation(base: string, account: Account, name: string, count: number) {
  const dataset = await expectStatus(
    request(base, 'POST', '/api/datasets', { name }, account.token),
    201,
    'dataset',
  );
  // At most 1,000 items a request.
  for (let from = 0; from < count; from += 1000) {
    const items = Array.from({ length: Math.min(1000, count - from) }, (_, k) => ({
      input: { question: question(from + k) },
      expected: `Fake reply to: ${question(from + k)}`,
    }));
    await expectStatus(
      request(base, 'POST', `/api/datasets/${dataset.id as string}/items`, { items }, account.token),
      201,
      'dataset items',
    );
  }
  const evaluation = await expectStatus(
    request(
      base,
      'POST',
      '/api/evaluations',
      {
        name,
        workflowId: account.workflowId,
        datasetId: dataset.id,
        graders: [
          { type: 'exact', name: 'Answer' },
          // Case-insensitive by default.
          { type: 'contains', name: 'Replied', expected: 'fake reply to:' },
        ],
      },
      account.token,
    ),
    201,
    'evaluation',
  );
  return evaluation.id as string;
}

type EvalRunAnswer = {
  status: string;
  progress: { done: number; total: number };
  passRate: number | null;
  latencyMs: { p50: number | null; p95: number | null };
  scores: { name: string; mean: number; passRate: number }[];
  costUsd: number;
  error: string | null;
  createdAt: string;
  completedAt: string | null;
  items: { passed: boolean | null; output: unknown; error: string | null; grades: { reason: string }[] }[];
};

/**
 * Starts an eval run of the evaluation and polls it every POLL_MS until it ends: the wall time from the
 * POST to the GET that saw it completed, the progress each poll saw, and how long the polls took. The
 * polls do not wait for the POST's answer: until it comes, the eval run is found in the evaluation's
 * list of runs (its only one: the warm-up has its own evaluation), so a POST that answers late still
 * shows the progress meanwhile.
 */
async function runEvaluation(base: string, account: Account, evaluationId: string, onStart?: () => void) {
  onStart?.();
  const started = performance.now();
  let postMs: number | undefined;
  let id: string | undefined;
  let postError: unknown;
  const posting = expectStatus(
    request(
      base,
      'POST',
      `/api/evaluations/${evaluationId}/runs`,
      { version: 'active', concurrency: CONCURRENCY },
      account.token,
    ),
    202,
    'eval run',
  ).then(
    (answer) => {
      postMs = performance.now() - started;
      id = answer.id as string;
    },
    (error: unknown) => {
      postError = error;
    },
  );
  const progress: { ms: number; done: number }[] = [];
  const pollMs: number[] = [];
  let lastDone = 0;
  let lastProgress = performance.now();
  try {
    for (;;) {
      await sleep(POLL_MS);
      if (postError) throw postError as Error;
      const asked = performance.now();
      if (id === undefined) {
        const list = await request(
          base,
          'GET',
          `/api/evaluations/${evaluationId}/runs`,
          undefined,
          account.token,
        );
        const runs = list.body as unknown as { id: string }[];
        if (list.status === 200 && Array.isArray(runs) && runs.length > 0) id = runs[0].id;
        if (id === undefined) continue;
      }
      const res = await request(base, 'GET', `/api/eval-runs/${id}`, undefined, account.token);
      const now = performance.now();
      pollMs.push(now - asked);
      if (res.status !== 200) throw new Error(`GET eval run: ${res.status} ${JSON.stringify(res.body)}`);
      const run = res.body as unknown as EvalRunAnswer;
      progress.push({ ms: Math.round(now - started), done: run.progress.done });
      if (run.status !== 'running') {
        await posting;
        return { id, run, wallMs: now - started, postMs: postMs ?? null, progress, pollMs };
      }
      if (run.progress.done > lastDone) {
        lastDone = run.progress.done;
        lastProgress = now;
      } else if (now - lastProgress > STALL_MS) {
        throw new Error(`no item graded for ${STALL_MS / 1000} s: ${JSON.stringify(run.progress)}`);
      }
    }
  } finally {
    await posting;
  }
}

/** Items graded in each second of the run: a stall (a driver waiting for its sweep) shows here. */
function gradedEachSecond(progress: { ms: number; done: number }[]) {
  const doneBy = (ms: number) => progress.findLast((p) => p.ms <= ms)?.done ?? 0;
  const seconds = Math.ceil((progress.at(-1)?.ms ?? 0) / 1000);
  return Array.from({ length: seconds }, (_, s) => doneBy((s + 1) * 1000) - doneBy(s * 1000));
}

// ---------------------------------------------------------------------------------------------------

/**
 * Where an item's time went, from the items' and their runs' timestamps (read after the eval run, so
 * not in the CPU figures): its run (started → completed), and the wait from its run's end to its
 * grade, which is the driver's. meanInFlight: items between start and grade, on average over the
 * eval run: near the concurrency when the driver keeps up.
 */
async function itemTimings(db: pg.Client, evalRunId: string) {
  const { rows } = await db.query<Record<string, number | null>>(
    `with t as (
       select extract(epoch from e.completed_at - e.started_at) * 1000 as run_ms,
              extract(epoch from i.graded_at - e.completed_at) * 1000 as end_to_grade_ms,
              extract(epoch from i.graded_at - i.started_at) * 1000 as start_to_grade_ms,
              i.started_at, i.graded_at
         from eval_run_items i join workflow_executions e on e.id = i.execution_id
        where i.eval_run_id = $1)
     select percentile_cont(0.5) within group (order by run_ms) as "runP50",
            percentile_cont(0.95) within group (order by run_ms) as "runP95",
            percentile_cont(0.5) within group (order by end_to_grade_ms) as "endToGradeP50",
            percentile_cont(0.95) within group (order by end_to_grade_ms) as "endToGradeP95",
            max(end_to_grade_ms) as "endToGradeMax",
            percentile_cont(0.5) within group (order by start_to_grade_ms) as "startToGradeP50",
            sum(start_to_grade_ms) / nullif(extract(epoch from max(graded_at) - min(started_at)) * 1000, 0)
              as "meanInFlight"
       from t`,
    [evalRunId],
  );
  return Object.fromEntries(
    Object.entries(rows[0]).map(([key, value]) => [key, value === null ? null : round(Number(value))]),
  );
}

export async function runEvaluationBench() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-bench-evaluation-'));
  // When run as root the embedded Postgres runs as the "postgres" user, which must enter the folder.
  chmodSync(dataDir, 0o755);
  const fake = await startFakeLlmServer();
  let server: Server | undefined;
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
    const { db, postmasterPid, settings } = await connectToServerDatabase(path.join(dataDir, 'all-0'));
    // Signing up starts the Professional trial: 10,000 runs a month, the warm-up and ITEMS included.
    const account = await prepareAccount(base, fake, 1, questionShape);
    console.log(`server ${serverPid}, Postgres ${postmasterPid}, fsync ${settings.fsync}`);

    const warmupId = await prepareEvaluation(base, account, 'Warm-up', WARMUP_ITEMS);
    const warmup = await runEvaluation(base, account, warmupId);
    console.log(
      `warm-up: ${WARMUP_ITEMS} items in ${round(warmup.wallMs / 1000)} s, ${warmup.run.status}, pass rate ${warmup.run.passRate}`,
    );

    const evaluationId = await prepareEvaluation(base, account, 'Bench', ITEMS);
    fake.reset();
    const loadAverage1mAtStart = round(os.loadavg()[0]);
    let before: Cpu | undefined;
    const measured = await runEvaluation(base, account, evaluationId, () => {
      before = cpuNow(serverPid, postmasterPid);
    });
    const cpu = cpuPerItem(before!, cpuNow(serverPid, postmasterPid), ITEMS);
    const loadAverage1mAtEnd = round(os.loadavg()[0]);
    const { run } = measured;
    const failed = run.items.find((item) => item.passed !== true);
    const seconds = measured.wallMs / 1000;
    const eachSecond = gradedEachSecond(measured.progress);
    const timings = await itemTimings(db, measured.id);
    await db.end();

    const summary = {
      items: ITEMS,
      concurrency: CONCURRENCY,
      status: run.status,
      error: run.error,
      passRate: run.passRate,
      scores: run.scores.map((s) => ({ name: s.name, mean: s.mean, passRate: s.passRate })),
      firstFailure: failed
        ? { output: failed.output, error: failed.error, reasons: failed.grades.map((g) => g.reason) }
        : null,
      wallSeconds: round(seconds),
      itemsPerSecond: round(ITEMS / seconds),
      serverSeconds: run.completedAt
        ? round((Date.parse(run.completedAt) - Date.parse(run.createdAt)) / 1000)
        : null,
      itemLatencyMs: run.latencyMs,
      itemTimingsMs: timings,
      // How long POST …/runs took to answer 202 (it should not wait for the items).
      postRunsMs: measured.postMs === null ? null : round(measured.postMs),
      pollMs: latencyStats(measured.pollMs),
      polls: measured.pollMs.length,
      gradedEachSecond: eachSecond,
      cpu,
      loadAverage1m: { atStart: loadAverage1mAtStart, atEnd: loadAverage1mAtEnd },
      costUsd: run.costUsd,
    };
    const table = [
      [
        'items',
        'conc.',
        'wall s',
        'items/s',
        'Node ms/item',
        'PG ms/item',
        'p50 ms',
        'p95 ms',
        'pass',
        'load',
      ],
      [
        String(ITEMS),
        String(CONCURRENCY),
        String(summary.wallSeconds),
        String(summary.itemsPerSecond),
        String(cpu.nodeMsPerItem),
        String(cpu.postgresMsPerItem),
        String(run.latencyMs.p50 ?? '–'),
        String(run.latencyMs.p95 ?? '–'),
        String(run.passRate ?? '–'),
        `${loadAverage1mAtStart}→${loadAverage1mAtEnd}`,
      ],
    ];
    const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
    console.log('');
    for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
    console.log(`graded each second: ${eachSecond.join(' ')}`);
    console.log('item timings (ms):', timings);
    if (failed) console.log('first failed item:', summary.firstFailure);

    const exit = await stopServer(server);
    return {
      serverCommand: `node --max-semi-space-size=8 --import tsx apps/server/src/main.ts (ROLE=all, LOG_LEVEL default), DATA_DIR in ${os.tmpdir()}`,
      database: {
        ...settings,
        what: 'the embedded PostgreSQL the server starts in its DATA_DIR, as `npm start` has it',
      },
      settings: {
        items: ITEMS,
        concurrency: CONCURRENCY,
        warmupItems: WARMUP_ITEMS,
        pollMs: POLL_MS,
        workflow: 'start → agent (asked {{ input.question }}) → end, active version, instant fake model',
        graders: 'exact (the item’s expected: the fake’s answer) and contains (“fake reply to:”)',
      },
      warmup: {
        items: WARMUP_ITEMS,
        status: warmup.run.status,
        wallSeconds: round(warmup.wallMs / 1000),
        passRate: warmup.run.passRate,
      },
      evaluation: summary,
      serverExit: exit,
      note:
        'wallSeconds: POST /api/evaluations/:id/runs sent to the GET /api/eval-runs/:id (polled every ' +
        `${POLL_MS} ms, every item in each answer) that saw it completed; serverSeconds: the eval run’s own ` +
        'createdAt to completedAt. itemLatencyMs: the eval run’s p50/p95 of its item runs’ durations; ' +
        'itemTimingsMs from the tables: runP50/95 a run’s start to end, endToGrade its end to its grade (the ' +
        'driver’s wait), startToGrade an item’s start to its grade, meanInFlight items between the two on average. ' +
        'gradedEachSecond: items graded in each second, as the polls saw them. cpu: CPU time from /proc ' +
        '(utime+stime, reaped children included) over the wall time, per item: nodeMsPerItem the server’s ' +
        'Node process (the polls’ answers included), postgresMsPerItem the postmaster and its backends, ' +
        'benchProcessMsPerItem this process (the fake model, the polls), not the product; cores: CPU seconds ' +
        'per second, other the rest of the machine. loadAverage1m: the machine’s, around the measured run.',
    };
  } catch (error) {
    if (server) console.error(`--- server output ---\n${logTail(server.logFile)}`);
    throw error;
  } finally {
    if (server) await stopServer(server);
    process.off('exit', killServer);
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
