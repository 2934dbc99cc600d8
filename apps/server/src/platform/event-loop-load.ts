import { performance } from 'node:perf_hooks';

/** How often the load is read. */
const SAMPLE_MS = 50;
/** Busy: the event loop worked (rather than waited for I/O) this share of the last sample or more. */
const BUSY_ABOVE = 0.9;

export type EventLoopLoad = {
  /** Whether this process's event loop was busy nearly all of the last moments. */
  busy(): boolean;
  stop(): void;
};

/**
 * This process's event-loop utilisation, sampled: the share of time its one JavaScript thread spent
 * working rather than waiting for I/O (Node's `eventLoopUtilization`). A loop at work all the time
 * has no time left for what comes next: a request waits behind the runs already in progress.
 */
export function watchEventLoopLoad(): EventLoopLoad {
  let last = performance.eventLoopUtilization();
  let busy = false;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    busy = performance.eventLoopUtilization(now, last).utilization >= BUSY_ABOVE;
    last = now;
  }, SAMPLE_MS);
  timer.unref();
  return { busy: () => busy, stop: () => clearInterval(timer) };
}
