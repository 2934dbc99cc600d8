// The machine's speed when a bench ran, so CPU figures taken on two days (or two machines) can be
// compared: a fixed, deterministic CPU-bound workload on this process's own thread, of the kind a
// server does for a request (a SHA-256 of a 64 KiB body, a JSON document written and read back).
// bench/run.ts runs it before each bench and records it as `machine.calibration`; bench/README.md
// ("Calibration") says how to compare two results with it.
import { createHash } from 'node:crypto';
import os from 'node:os';

/** The same bytes every time: a fixed pattern, not random, so every machine hashes the same input. */
const BODY = Buffer.alloc(64 * 1024, 'crewline calibration ');
/** A run's history as a server would write and read it. */
const DOCUMENT = {
  id: '00000000-0000-4000-8000-000000000000',
  status: 'completed',
  steps: Array.from({ length: 20 }, (_, i) => ({
    index: i,
    node: `agent-${i}`,
    input: { topic: 'tea', attempt: i, tags: ['a', 'b', 'c'] },
    output: 'The quick brown fox jumps over the lazy dog. '.repeat(4),
    tokens: { prompt: 120 + i, completion: 80 + i },
  })),
};

/** One unit of work; what it returns is checked so the engine cannot skip it. */
function unit() {
  const digest = createHash('sha256').update(BODY).digest();
  const copy = JSON.parse(JSON.stringify(DOCUMENT)) as typeof DOCUMENT;
  return digest[0] + copy.steps.length;
}

/** This thread's CPU time in ms (the whole process's where Node cannot tell a thread's). */
function cpuMs() {
  const usage = process.threadCpuUsage?.() ?? process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Units done in about `ms` of wall time, and the CPU time this thread spent on them. */
function round(ms: number) {
  let units = 0;
  let check = 0;
  const started = performance.now();
  const cpuAtStart = cpuMs();
  let elapsed = 0;
  while (elapsed < ms) {
    // Ten units between clock reads: the clock costs little next to them, and the round stops close to `ms`.
    for (let i = 0; i < 10; i++) check += unit();
    units += 10;
    elapsed = performance.now() - started;
  }
  if (check <= 0) throw new Error('calibration: the workload returned nothing');
  return { units, ms: elapsed, cpuMs: cpuMs() - cpuAtStart };
}

export type Calibration = {
  /**
   * Units per second of CPU time of this thread in the fastest round (one unit: SHA-256 of 64 KiB plus
   * a JSON round trip). CPU time rather than wall time: other work on the machine takes turns on the
   * cores, which stretches wall time but not the CPU a unit needs, the way CPU per run is measured.
   */
  unitsPerSecond: number;
  /** Milliseconds of CPU per unit (1000 / unitsPerSecond): the figure to scale CPU per run by. */
  msPerUnit: number;
  /** Units per second of wall time in the fastest round: lower than unitsPerSecond on a busy machine. */
  wallUnitsPerSecond: number;
  rounds: number;
  roundMs: number;
  /** How busy the machine was (1-minute load average) when it ran. */
  loadAverage1m: number;
  /**
   * Millions of float32 multiply-adds per second of CPU time scanning 12 MiB of vectors (the exact
   * knowledge search's loop), best of `rounds`. It moves apart from unitsPerSecond: SHA-256 runs on
   * its own instructions and a unit fits in the cache, while a scan streams memory.
   */
  vectorMegaMacsPerSecond: number;
};

/** 2,000 vectors of 1,536 dimensions (12 MiB, past a core's own cache) and one query, fixed values. */
const VECTORS = Float32Array.from({ length: 2000 * 1536 }, (_, i) => ((i * 7919) % 1000) / 1000 - 0.5);
const QUERY = VECTORS.subarray(0, 1536);

/** Scans every vector against the query as the exact search does; the best score is returned so the scan is kept. */
function scan() {
  let best = -Infinity;
  for (let offset = 0; offset < VECTORS.length; offset += 1536) {
    let dot = 0;
    for (let i = 0; i < 1536; i++) dot += VECTORS[offset + i] * QUERY[i];
    if (dot > best) best = dot;
  }
  return best;
}

function vectorRound(ms: number) {
  let scans = 0;
  let check = 0;
  const started = performance.now();
  const cpuAtStart = cpuMs();
  while (performance.now() - started < ms) {
    check += scan();
    scans++;
  }
  if (!Number.isFinite(check)) throw new Error('calibration: the scan returned nothing');
  return (scans * VECTORS.length) / 1e6 / (Math.max(cpuMs() - cpuAtStart, 1) / 1000);
}

/**
 * `rounds` rounds of about `roundMs` each (about 1 s in all by default), after a short warm-up so
 * the JIT has compiled the loop; the fastest round counts, so a moment of a slower core (a frequency
 * dip, a neighbour on the same physical core) does not.
 */
export function calibrate(rounds = 3, roundMs = 330): Calibration {
  round(50);
  let best = 0;
  let bestWall = 0;
  for (let i = 0; i < rounds; i++) {
    const r = round(roundMs);
    best = Math.max(best, r.units / (Math.max(r.cpuMs, 1) / 1000));
    bestWall = Math.max(bestWall, r.units / (r.ms / 1000));
  }
  vectorRound(50);
  let bestVectorRound = 0;
  for (let i = 0; i < rounds; i++) bestVectorRound = Math.max(bestVectorRound, vectorRound(roundMs / 2));
  return {
    unitsPerSecond: Math.round(best),
    msPerUnit: Math.round((1000 / best) * 10_000) / 10_000,
    wallUnitsPerSecond: Math.round(bestWall),
    rounds,
    roundMs,
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
    vectorMegaMacsPerSecond: Math.round(bestVectorRound),
  };
}

export function describeCalibration(c: Calibration) {
  return `calibration ${c.unitsPerSecond} units/s (${c.msPerUnit} ms/unit), vector scan ${c.vectorMegaMacsPerSecond} M multiply-adds/s, load average ${c.loadAverage1m}`;
}
