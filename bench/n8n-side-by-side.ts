// Crewline and n8n 2.8.4 side by side in one session, alternating, on the same machine (issue 43).
// n8n is installed from the npm registry into a scratch folder outside the repository (bench/n8n/
// install.ts: BENCH_N8N_DIR, default /tmp/crewline-bench-n8n, reused when complete at that version) and
// runs as it ships on its default SQLite with executions saved, the 4-node workflow webhook → Set → Code
// → Respond to Webhook (bench/n8n/workflow.json, bench/n8n/server.ts). Crewline runs as `npm start` runs
// it, with its embedded PostgreSQL, fsync on (startShippedCrewline in execution-throughput.ts), a
// one-agent workflow on an instant model.
//
// Both are started once; then for each round and client count, a Crewline phase and an n8n phase with
// the same warm-up and measured window, the order swapped every round so neither always runs on the
// warmer machine. One unit of work each: Crewline, POST /execute until the run's completed event on the
// client's websocket (its result durable by then); n8n, POST to the webhook until the Respond node's
// answer (sent when that last node runs, before n8n writes the execution). The medians over the rounds
// and their ratios are the result.
//
// BENCH_ROUNDS (default 3), BENCH_CLIENTS (default 10,50), BENCH_WARMUP_MS (3000) and BENCH_MEASURED_MS
// (15000) shorten a session to try it. `npm run bench -- n8n-side-by-side`, or directly `node --import
// tsx bench/n8n-side-by-side.ts`, writes bench/results/n8n-side-by-side.json (BENCH_RESULTS_DIR: another
// folder, for a trial).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calibrate, describeCalibration, type Calibration } from './calibration';
import { startShippedCrewline, type PhaseResult } from './execution-throughput';
import { ensureN8n } from './n8n/install';
import { startN8n, type N8nPhaseResult } from './n8n/server';

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const ROUNDS = envNumber('BENCH_ROUNDS', 3);
const CLIENT_COUNTS = process.env.BENCH_CLIENTS?.split(',').map(Number) ?? [10, 50];
const TIMING = {
  warmupMs: envNumber('BENCH_WARMUP_MS', 3_000),
  measuredMs: envNumber('BENCH_MEASURED_MS', 15_000),
};
const N8N_DIR = path.resolve(process.env.BENCH_N8N_DIR || path.join(os.tmpdir(), 'crewline-bench-n8n'));
/** Issue 43's figures: runs/s ≥ 5× n8n's at 10 and at 50 clients, p99 at 50 clients ≤ 0.2× n8n's. */
const TARGET = { runsPerSecondRatio: 5, p99RatioAt50Clients: 0.2 };

const round = (n: number) => Math.round(n * 100) / 100;

function median(values: (number | null | undefined)[]) {
  const known = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  if (known.length === 0) return null;
  const mid = Math.floor(known.length / 2);
  return round(known.length % 2 ? known[mid] : (known[mid - 1] + known[mid]) / 2);
}

const ratio = (a: number | null, b: number | null) =>
  a === null || b === null || b === 0 ? null : round(a / b);

type Headline = {
  runsPerSecond: number;
  p50Ms: number | null;
  p99Ms: number | null;
  serverCpuMsPerRun: number | null;
  errors: number;
};

function crewlineHeadline(p: PhaseResult): Headline {
  const { nodeMsPerRun, postgresMsPerRun } = p.cpu;
  return {
    runsPerSecond: p.runsPerSecond,
    p50Ms: p.latencyMs?.p50 ?? null,
    p99Ms: p.latencyMs?.p99 ?? null,
    serverCpuMsPerRun:
      nodeMsPerRun === null || postgresMsPerRun === null ? null : round(nodeMsPerRun + postgresMsPerRun),
    errors: p.errors,
  };
}

function n8nHeadline(p: N8nPhaseResult): Headline {
  return {
    runsPerSecond: p.runsPerSecond,
    p50Ms: p.latencyMs?.p50 ?? null,
    p99Ms: p.latencyMs?.p99 ?? null,
    serverCpuMsPerRun: p.cpu.serverMsPerRun,
    errors: p.errors,
  };
}

function medianOf(rows: Headline[]) {
  return {
    runsPerSecond: median(rows.map((r) => r.runsPerSecond)),
    p50Ms: median(rows.map((r) => r.p50Ms)),
    p99Ms: median(rows.map((r) => r.p99Ms)),
    serverCpuMsPerRun: median(rows.map((r) => r.serverCpuMsPerRun)),
    errors: rows.reduce((sum, r) => sum + r.errors, 0),
  };
}

type Summary = Record<
  string,
  {
    crewline: ReturnType<typeof medianOf>;
    n8n: ReturnType<typeof medianOf>;
    ratio: { runsPerSecond: number | null; p99: number | null; serverCpuPerRun: number | null };
  }
>;

function printTable(summary: Summary) {
  const fmt = (n: number | null, unit = '') => (n === null ? '–' : `${n.toLocaleString('en')}${unit}`);
  const rows = [['', 'Crewline', 'n8n', 'Crewline/n8n']];
  for (const [key, s] of Object.entries(summary)) {
    const clients = key.replace('clients_', '');
    rows.push(
      [
        `runs/s, ${clients} clients`,
        fmt(s.crewline.runsPerSecond),
        fmt(s.n8n.runsPerSecond),
        fmt(s.ratio.runsPerSecond, '×'),
      ],
      [
        `p99, ${clients} clients`,
        fmt(s.crewline.p99Ms, ' ms'),
        fmt(s.n8n.p99Ms, ' ms'),
        fmt(s.ratio.p99, '×'),
      ],
      [
        `server CPU per run, ${clients} clients`,
        fmt(s.crewline.serverCpuMsPerRun, ' ms'),
        fmt(s.n8n.serverCpuMsPerRun, ' ms'),
        fmt(s.ratio.serverCpuPerRun, '×'),
      ],
      [`errors, ${clients} clients`, String(s.crewline.errors), String(s.n8n.errors), ''],
    );
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log('');
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  '));
}

/** `calibration`: the machine's speed measured just before (bench/run.ts gives it), else measured here. */
export async function runN8nSideBySide(context: { calibration?: Calibration } = {}) {
  const calibrationAtStart = context.calibration ?? calibrate();
  const install = await ensureN8n(N8N_DIR);
  console.log(
    install.reused
      ? `n8n ${install.version} in ${install.dir} (installed ${install.installedAt}), ${install.diskMiB} MiB`
      : `n8n ${install.version} installed in ${install.installSeconds} s, ${install.diskMiB} MiB`,
  );

  const n8n = await startN8n(install);
  console.log(`n8n answering its webhook ${n8n.info.startSeconds} s after start`);
  let crewline: Awaited<ReturnType<typeof startShippedCrewline>> | undefined;
  try {
    crewline = await startShippedCrewline({ maxClients: Math.max(...CLIENT_COUNTS) });
    const products = {
      crewline: (clients: number) => crewline!.phase(clients, TIMING),
      n8n: (clients: number) => n8n.phase(clients, TIMING),
    };
    const rounds: {
      round: number;
      order: ('crewline' | 'n8n')[];
      phases: Record<string, { crewline?: PhaseResult; n8n?: N8nPhaseResult }>;
    }[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const order: ('crewline' | 'n8n')[] = r % 2 === 1 ? ['crewline', 'n8n'] : ['n8n', 'crewline'];
      const phases: (typeof rounds)[number]['phases'] = {};
      for (const clients of CLIENT_COUNTS) {
        const pair: (typeof phases)[string] = {};
        for (const product of order) {
          if (product === 'crewline') {
            const p = await products.crewline(clients);
            pair.crewline = p;
            console.log(
              `round ${r}, ${clients} clients, Crewline: ${p.runsPerSecond} runs/s, p99 ${p.latencyMs?.p99 ?? '–'} ms, ` +
                `CPU/run Node ${p.cpu.nodeMsPerRun} + Postgres ${p.cpu.postgresMsPerRun} ms, errors ${p.errors}`,
            );
          } else {
            const p = await products.n8n(clients);
            pair.n8n = p;
            console.log(
              `round ${r}, ${clients} clients, n8n: ${p.runsPerSecond} runs/s, p99 ${p.latencyMs?.p99 ?? '–'} ms, ` +
                `CPU/run ${p.cpu.serverMsPerRun} ms, errors ${p.errors}`,
            );
          }
        }
        phases[`clients_${clients}`] = pair;
      }
      rounds.push({ round: r, order, phases });
    }

    const summary: Summary = {};
    for (const clients of CLIENT_COUNTS) {
      const key = `clients_${clients}`;
      const c = medianOf(rounds.map((r) => crewlineHeadline(r.phases[key].crewline!)));
      const n = medianOf(rounds.map((r) => n8nHeadline(r.phases[key].n8n!)));
      summary[key] = {
        crewline: c,
        n8n: n,
        ratio: {
          runsPerSecond: ratio(c.runsPerSecond, n.runsPerSecond),
          p99: ratio(c.p99Ms, n.p99Ms),
          serverCpuPerRun: ratio(c.serverCpuMsPerRun, n.serverCpuMsPerRun),
        },
      };
    }
    printTable(summary);

    await crewline.stop();
    await n8n.stop();
    const at10 = summary.clients_10?.ratio;
    const at50 = summary.clients_50?.ratio;
    const meets = (value: number | null | undefined, ok: (v: number) => boolean) =>
      value === null || value === undefined ? null : ok(value);
    return {
      calibration: { atStart: calibrationAtStart, atEnd: calibrate() },
      method: {
        rounds: ROUNDS,
        clientCounts: CLIENT_COUNTS,
        warmupSeconds: TIMING.warmupMs / 1000,
        measuredSeconds: TIMING.measuredMs / 1000,
        alternation:
          'per round and client count a Crewline phase and an n8n phase, Crewline first in odd rounds and ' +
          'n8n first in even ones; both products started once for the session and idle while the other runs',
        crewline:
          'closed loop: POST /api/workflows/:id/execute, wait for the run’s workflow_execution_completed on ' +
          'the client’s own /ws socket (sent once the result is durable), then the next',
        n8n:
          'closed loop: POST /webhook/crewline-bench with {"topic"}, wait for the Respond to Webhook answer ' +
          '(checked: the Code node’s computed field), then the next. n8n answers when that last node runs, ' +
          'before it writes the execution',
        serverCpu:
          'CPU over the measured window from /proc per answered run: Crewline, its Node process plus its ' +
          'PostgreSQL; n8n, its process tree (main process with SQLite inside it, and its task runner)',
      },
      target: {
        ...TARGET,
        meetsRunsPerSecondAt10Clients: meets(at10?.runsPerSecond, (v) => v >= TARGET.runsPerSecondRatio),
        meetsRunsPerSecondAt50Clients: meets(at50?.runsPerSecond, (v) => v >= TARGET.runsPerSecondRatio),
        meetsP99At50Clients: meets(at50?.p99, (v) => v <= TARGET.p99RatioAt50Clients),
      },
      summary,
      install,
      crewline: crewline.info,
      n8n: n8n.info,
      rounds,
      note:
        'summary: medians over the rounds of each phase’s figures; ratio: Crewline’s median over n8n’s ' +
        '(runs/s: above 1 is Crewline ahead; p99 and CPU per run: below 1 is Crewline ahead). errors: ' +
        'refused or wrong answers and failed or timed-out runs in the measured windows, summed.',
    };
  } finally {
    await crewline?.stop().catch((error: unknown) => console.error('stopping Crewline failed:', error));
    await n8n.stop().catch((error: unknown) => console.error('stopping n8n failed:', error));
  }
}

// Run directly: the same summary bench/run.ts would write.
if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const loadAtStart = round(os.loadavg()[0]);
  const calibration = calibrate();
  console.log(describeCalibration(calibration));
  const result = await runN8nSideBySide({ calibration });
  const dir = path.resolve(process.env.BENCH_RESULTS_DIR || path.join(import.meta.dirname, 'results'));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'n8n-side-by-side.json');
  const summary = {
    name: 'n8n-side-by-side',
    at: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverage1m: { atStart: loadAtStart, atEnd: round(os.loadavg()[0]) },
      calibration,
    },
    ...result,
  };
  writeFileSync(file, JSON.stringify(summary, null, 2) + '\n');
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
  process.exit(0);
}
