// Figures the benches compute the same way: latency percentiles, and a process's memory from /proc.
import { readFileSync } from 'node:fs';

const round = (n: number) => Math.round(n * 100) / 100;

function percentile(sorted: number[], p: number) {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** p50, p95, p99, max and mean of some durations (null when there are none). */
export function latencyStats(values: number[]) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1]),
    mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length),
  };
}

/** VmRSS and VmHWM (peak RSS) of a process, in MiB. */
export function memoryMiB(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { rss: round(kib('VmRSS') / 1024), peak: round(kib('VmHWM') / 1024) };
}
