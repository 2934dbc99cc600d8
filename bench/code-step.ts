// The Code step's sandbox (issue 40, docs/decisions/0046): what a call costs beyond the code itself.
// Cold start: a new sandbox's first call (a thread started with tsx, QuickJS's WebAssembly module
// compiled and instantiated, then the call), COLD_SAMPLES times. Warm: a small script (the sum of
// 1,000 numbers from `input`) on a sandbox of the default size (2 threads), one call at a time (the
// time a call itself takes: a fresh QuickJS runtime and context, the globals in, the JSON out), then
// ROUNDS rounds of CONCURRENCY calls at once (what a step waits when runs share the pool: the calls
// queue behind the 2 threads).
import { createCodeSandbox, type CodeRequest } from '../apps/server/src/platform/sandbox/code-sandbox';
import { latencyStats } from './figures';

const COLD_SAMPLES = 5;
const WARMUP_CALLS = 100;
const SEQUENTIAL_CALLS = 500;
const CONCURRENCY = 20;
const ROUNDS = 50;

const numbers = Array.from({ length: 1000 }, (_, i) => i + 1);
const request: CodeRequest = {
  source: 'return input.numbers.reduce((sum, n) => sum + n, 0);',
  globals: { input: { numbers }, nodes: {}, vars: {} },
  timeoutMs: 2_000,
  memoryMb: 64,
};
const SUM = 500_500;

async function timedCall(sandbox: ReturnType<typeof createCodeSandbox>) {
  const started = performance.now();
  const { value } = await sandbox.run(request);
  const ms = performance.now() - started;
  if (value !== SUM) throw new Error(`the sandbox answered ${String(value)}, not ${SUM}`);
  return ms;
}

export async function runCodeStep() {
  const cold: number[] = [];
  for (let i = 0; i < COLD_SAMPLES; i++) {
    const sandbox = createCodeSandbox();
    try {
      cold.push(await timedCall(sandbox));
    } finally {
      await sandbox.close();
    }
  }
  console.log('cold start', latencyStats(cold));

  const sandbox = createCodeSandbox();
  try {
    // Both threads started and warm (V8 has compiled the glue's hot paths).
    for (let i = 0; i < WARMUP_CALLS / 2; i++) await Promise.all([timedCall(sandbox), timedCall(sandbox)]);

    const sequential: number[] = [];
    for (let i = 0; i < SEQUENTIAL_CALLS; i++) sequential.push(await timedCall(sandbox));
    console.log('one at a time', latencyStats(sequential));

    const concurrent: number[] = [];
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++)
      concurrent.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, () => timedCall(sandbox)))));
    const seconds = (performance.now() - started) / 1000;
    console.log(`${CONCURRENCY} at once`, latencyStats(concurrent));

    return {
      script: request.source,
      coldStartMs: latencyStats(cold),
      oneAtATimeMs: latencyStats(sequential),
      concurrent: {
        concurrency: CONCURRENCY,
        threads: 2,
        calls: concurrent.length,
        perCallMs: latencyStats(concurrent),
        callsPerSecond: Math.round(concurrent.length / seconds),
      },
      note:
        'Times from sandbox.run() to its answer, on the calling thread. Cold start: a new sandbox’s first ' +
        `call (${COLD_SAMPLES} samples, each a new sandbox). One at a time: ${SEQUENTIAL_CALLS} calls after ` +
        `${WARMUP_CALLS} warm-up calls. At once: ${ROUNDS} rounds of ${CONCURRENCY} calls started together on ` +
        'the default 2 threads, so most of each call’s time is its wait in the queue.',
    };
  } finally {
    await sandbox.close();
  }
}
