// `npm run bench`: runs every benchmark and writes its summary to bench/results/<name>.json.
// `npm run bench -- engine-overhead execution-throughput` runs only the named ones; `--flags` among
// them go to the benches (`npm run bench -- execution-throughput --best-case`).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runApiLatency } from './api-latency';
import { runApprovals } from './approvals';
import { runBuilder200 } from './builder-200-nodes';
import { runBundleSize } from './bundle-size';
import { calibrate, describeCalibration, type Calibration } from './calibration';
import { runChatBench } from './chat';
import { runCodeStep } from './code-step';
import { runEngineDecisions } from './engine-decisions';
import { runEngineOverhead } from './engine-overhead';
import { runEvaluationBench } from './evaluation';
import { runExecutionThroughput } from './execution-throughput';
import { runKnowledge } from './knowledge';
import { runN8nSideBySide } from './n8n-side-by-side';
import { runServerStart } from './server-start';

/** What every bench is given: the flags of the command line and the machine's speed just before it. */
type Context = { flags: readonly string[]; calibration: Calibration };
/** A bench's summary; `resultName` (a variant's own file, without .json) is not written into it. */
type Result = { resultName?: string } & object;

const benches: Record<string, (context: Context) => Promise<Result>> = {
  'engine-overhead': runEngineOverhead,
  'engine-decisions': runEngineDecisions,
  'api-latency': runApiLatency,
  'execution-throughput': runExecutionThroughput,
  // Builds the web app, so the builder bench after it runs on the current code too.
  'bundle-size': runBundleSize,
  'builder-200-nodes': runBuilder200,
  'server-start': runServerStart,
  knowledge: runKnowledge,
  approvals: runApprovals,
  evaluation: runEvaluationBench,
  'code-step': runCodeStep,
  chat: runChatBench,
  // Installs n8n 2.8.4 into a scratch folder on first use (minutes), then runs it beside Crewline.
  'n8n-side-by-side': runN8nSideBySide,
};
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const unknown = only.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')} (choose from ${Object.keys(benches).join(', ')})`);
  process.exit(1);
}
// BENCH_RESULTS_DIR writes a trial's results elsewhere, leaving the committed ones as they are.
const outDir = path.resolve(process.env.BENCH_RESULTS_DIR || path.join(import.meta.dirname, 'results'));
mkdirSync(outDir, { recursive: true });

for (const [name, run] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n== ${name}`);
  // Other work on the machine skews every figure; the 1-minute load average says how busy it was.
  const loadAtStart = Math.round(os.loadavg()[0] * 100) / 100;
  // The machine's speed, on this process's thread before the bench starts anything: figures taken on
  // two days compare once scaled by it (bench/README.md, Calibration).
  const calibration = calibrate();
  console.log(describeCalibration(calibration));
  const { resultName = name, ...result } = await run({ flags, calibration });
  const summary = {
    name,
    at: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverage1m: { atStart: loadAtStart, atEnd: Math.round(os.loadavg()[0] * 100) / 100 },
      calibration,
    },
    ...result,
  };
  writeFileSync(path.join(outDir, `${resultName}.json`), JSON.stringify(summary, null, 2) + '\n');
  console.log(`wrote ${path.relative(process.cwd(), path.join(outDir, `${resultName}.json`))}`);
}
process.exit(0);
