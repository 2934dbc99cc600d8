// `npm run bench`: runs every benchmark and writes its summary to bench/results/<name>.json.
// `npm run bench -- engine-overhead execution-throughput` runs only the named ones.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runApiLatency } from './api-latency';
import { runApprovals } from './approvals';
import { runBuilder200 } from './builder-200-nodes';
import { runBundleSize } from './bundle-size';
import { runChatBench } from './chat';
import { runCodeStep } from './code-step';
import { runEngineDecisions } from './engine-decisions';
import { runEngineOverhead } from './engine-overhead';
import { runEvaluationBench } from './evaluation';
import { runExecutionThroughput } from './execution-throughput';
import { runKnowledge } from './knowledge';
import { runServerStart } from './server-start';

const benches: Record<string, () => Promise<object>> = {
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
};
const only = process.argv.slice(2);
const unknown = only.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`unknown bench: ${unknown.join(', ')} (choose from ${Object.keys(benches).join(', ')})`);
  process.exit(1);
}
const outDir = path.join(import.meta.dirname, 'results');
mkdirSync(outDir, { recursive: true });

for (const [name, run] of Object.entries(benches)) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n== ${name}`);
  // Other work on the machine skews every figure; the 1-minute load average says how busy it was.
  const loadAtStart = Math.round(os.loadavg()[0] * 100) / 100;
  const result = await run();
  const summary = {
    name,
    at: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverage1m: { atStart: loadAtStart, atEnd: Math.round(os.loadavg()[0] * 100) / 100 },
    },
    ...result,
  };
  writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(summary, null, 2) + '\n');
  console.log(`wrote bench/results/${name}.json`);
}
process.exit(0);
