import { executionTriggerValues, llmProviderValues } from '@crewline/contracts';
import type { Registry } from 'prom-client';
import { startRecording } from './metrics';

/*
 * The process's Prometheus registry (docs/decisions/0052-prometheus-metrics.md): built once, on the
 * first call of enableMetrics, by a process configured to be scraped (METRICS_PORT or METRICS_TOKEN);
 * prom-client is loaded then and never otherwise. Every name starts with `crewline_`.
 */

/** What the scrape-time gauges read: this process's pool and the queue (one statement). */
export type MetricsSources = {
  /** The runs free to run (`queued`), in progress (`running`) and waiting for people or a time. */
  queueDepth(): Promise<{ queued: number; running: number; waiting: number }>;
  /** The process's database pool (node-postgres). */
  pool: { totalCount: number; idleCount: number; waitingCount: number; options: { max?: number } };
};

export type MetricsRegistry = {
  /** The exposition text of every metric (Prometheus text format 0.0.4). */
  text(): Promise<string>;
  contentType: string;
};

/** Seconds, from a few milliseconds (an idle worker's claim) to the long tail of a backlog. */
const CLAIM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800];
/** Seconds: steps that call no model take milliseconds, agent steps seconds to minutes. */
const STEP_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900];
const MODEL_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120, 300];

let built: Promise<{ registry: Registry }> | undefined;
/** The gauges' current sources: the newest enableMetrics call's (one app per process, tests aside). */
let sources: MetricsSources | undefined;

type Depth = Awaited<ReturnType<MetricsSources['queueDepth']>>;
/**
 * The queue statement in flight: the three queue gauges of one scrape (collected at once) share one
 * statement; a scrape after it has settled asks again.
 */
let depth: Promise<Depth | undefined> | undefined;
function queueDepth(): Promise<Depth | undefined> {
  if (!sources) return Promise.resolve(undefined);
  // A failed read (the database away) leaves those gauges at their last value rather than failing
  // the whole scrape: the event loop and pool figures matter most then.
  depth ??= sources
    .queueDepth()
    .catch(() => undefined)
    .finally(() => (depth = undefined));
  return depth;
}

async function build() {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  const registers = [registry];
  prom.collectDefaultMetrics({ register: registry, prefix: 'crewline_' });

  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new prom.Counter<L>({ name, help, labelNames, registers });
  const runsStarted = counter('crewline_runs_started_total', 'Runs queued, by trigger', ['trigger']);
  const runsCompleted = counter('crewline_runs_completed_total', 'Runs that completed, by trigger', [
    'trigger',
  ]);
  const runsFailed = counter('crewline_runs_failed_total', 'Runs that failed, by trigger', ['trigger']);
  // Every trigger from zero, so rate() sees a run's first increment.
  for (const trigger of executionTriggerValues)
    for (const runs of [runsStarted, runsCompleted, runsFailed]) runs.inc({ trigger }, 0);
  const tokens = counter('crewline_model_tokens_total', 'Model tokens, by provider and direction', [
    'provider',
    'direction',
  ]);
  const cost = counter('crewline_model_cost_usd_total', 'Model cost in USD of priced calls, by provider', [
    'provider',
  ]);
  for (const provider of llmProviderValues) cost.inc({ provider }, 0);

  const gauge = (name: string, help: string, collect: (g: { set(v: number): void }) => unknown) =>
    new prom.Gauge({
      name,
      help,
      registers,
      async collect() {
        await collect(this);
      },
    });
  gauge(
    'crewline_runs_queued',
    'Runs free to run and not claimed: pending, or running under a lapsed lease',
    async (g) => {
      const found = await queueDepth();
      if (found) g.set(found.queued);
    },
  );
  gauge('crewline_runs_running', 'Runs a worker is working on (under a live lease)', async (g) => {
    const found = await queueDepth();
    if (found) g.set(found.running);
  });
  gauge('crewline_runs_waiting', 'Runs waiting for a person or a time (approvals, delays)', async (g) => {
    const found = await queueDepth();
    if (found) g.set(found.waiting);
  });
  const pool = (name: string, help: string, read: (p: MetricsSources['pool']) => number | undefined) =>
    gauge(name, help, (g) => {
      const value = sources && read(sources.pool);
      if (value !== undefined) g.set(value);
    });
  pool('crewline_db_pool_connections', 'Open database connections of this process', (p) => p.totalCount);
  pool('crewline_db_pool_idle', 'Open database connections not in use', (p) => p.idleCount);
  pool('crewline_db_pool_waiting', 'Queries waiting for a database connection', (p) => p.waitingCount);
  pool('crewline_db_pool_max', 'The most database connections this process opens', (p) => p.options.max);

  startRecording({
    runsStarted,
    runsCompleted,
    runsFailed,
    claimLatency: new prom.Histogram({
      name: 'crewline_run_claim_latency_seconds',
      help: 'From a run being queued to a worker claiming it (first claims only)',
      buckets: CLAIM_BUCKETS,
      registers,
    }),
    stepDuration: new prom.Histogram({
      name: 'crewline_step_duration_seconds',
      help: 'Step durations, by node kind and outcome',
      labelNames: ['kind', 'status'],
      buckets: STEP_BUCKETS,
      registers,
    }),
    modelCallDuration: new prom.Histogram({
      name: 'crewline_model_call_duration_seconds',
      help: 'Model calls (a tool loop included), by provider, model family and outcome',
      labelNames: ['provider', 'model_family', 'outcome'],
      buckets: MODEL_BUCKETS,
      registers,
    }),
    tokens,
    cost,
    websockets: new prom.Gauge({
      name: 'crewline_websocket_connections',
      help: 'Realtime websockets open on this process',
      registers,
    }),
  });
  return { registry };
}

/**
 * Turns the process's metrics on (the recording functions of metrics.ts start counting) and answers
 * its registry; `sources` are what the scrape-time gauges read.
 */
export async function enableMetrics(from: MetricsSources): Promise<MetricsRegistry> {
  sources = from;
  depth = undefined;
  const { registry } = await (built ??= build());
  return { text: () => registry.metrics(), contentType: registry.contentType };
}
