import { parentPort } from 'node:worker_threads';

// A code sandbox thread stuck in one long native operation (platform/sandbox/code-sandbox.test.ts):
// it starts, then never answers a call nor yields, so only its termination stops it.
parentPort!.postMessage({ type: 'ready' });
parentPort!.on('message', () => {
  const started = Date.now();
  while (Date.now() - started < 60_000) {
    // Busy, as a thread caught in native code is: no interrupt handler runs here.
  }
});
