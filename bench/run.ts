// `npm run bench`: runs every benchmark and writes its summary to bench/results/<name>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runApiLatency } from './api-latency';
import { runBuilder200 } from './builder-200-nodes';

const benches = { 'api-latency': runApiLatency, 'builder-200-nodes': runBuilder200 };
const outDir = path.join(import.meta.dirname, 'results');
mkdirSync(outDir, { recursive: true });

for (const [name, run] of Object.entries(benches)) {
  console.log(`\n== ${name}`);
  const result = await run();
  const summary = {
    name,
    at: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    },
    ...result,
  };
  writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(summary, null, 2) + '\n');
  console.log(`wrote bench/results/${name}.json`);
}
process.exit(0);
