import type { ExecutionTrigger, LlmProvider, NodeKind } from '@crewline/contracts';
import type { Counter, Gauge, Histogram } from 'prom-client';
import type { LlmGateway } from '../llm';

/*
 * What the code paths report to the Prometheus metrics (docs/architecture.md, Operating: metrics). The
 * places where a run starts, ends, is claimed, where a step ends, a model answers or a websocket opens
 * call these functions, one line each. Until a process turns metrics on (METRICS_PORT or
 * METRICS_TOKEN, registry.ts), they do nothing and prom-client is not even loaded; once on, each is an
 * in-memory increment or bucket update: no SQL, no I/O, no per-organization label (a label per
 * organization would make a series per tenant; per-organization figures are the product's analytics).
 */

/** The metric objects, set once by registry.ts. */
type RecordedMetrics = {
  runsStarted: Counter<'trigger'>;
  runsCompleted: Counter<'trigger'>;
  runsFailed: Counter<'trigger'>;
  claimLatency: Histogram;
  stepDuration: Histogram<'kind' | 'status'>;
  modelCallDuration: Histogram<'provider' | 'model_family' | 'outcome'>;
  tokens: Counter<'provider' | 'direction'>;
  cost: Counter<'provider'>;
  websockets: Gauge;
};

let recorded: RecordedMetrics | undefined;

/** Called by registry.ts once the metrics exist; the functions below record from then on. */
export function startRecording(metrics: RecordedMetrics) {
  recorded = metrics;
}

/** Model names are free text (any local or custom model): families beyond this many read `other`. */
const MAX_MODEL_FAMILIES = 30;
/** The families labelled so far (at most MAX_MODEL_FAMILIES), and each model name's, cached. */
const families = new Set<string>();
const familyOf = new Map<string, string>();

/**
 * A model's family for a label: the name without a vendor path or a version date, up to its first
 * number (`gpt-4o-mini` → `gpt-4`, `claude-sonnet-4-5-20250929` → `claude-sonnet-4`, `llama3.1:8b` →
 * `llama3`). Bounded: once MAX_MODEL_FAMILIES were seen by this process, new ones are `other`.
 */
export function modelFamily(model: string): string {
  const known = familyOf.get(model);
  if (known) return known;
  const name = (model.toLowerCase().split('/').pop() ?? '').trim();
  let family = /^[a-z]+(?:[-.][a-z]+)*(?:[-.]?\d+)?/.exec(name)?.[0] ?? 'other';
  if (!families.has(family)) {
    if (families.size >= MAX_MODEL_FAMILIES) family = 'other';
    else families.add(family);
  }
  // Cached by exact name, for the names a process meets; past that many, worked out each time.
  if (familyOf.size < 1000) familyOf.set(model, family);
  return family;
}

export const metrics = {
  /** A run was queued (run-start.service.ts), whatever started it. */
  runStarted(trigger: ExecutionTrigger) {
    recorded?.runsStarted.inc({ trigger });
  },
  /** A run ended completed or failed (run-end.ts, run-attempt.ts's worn-out runs). */
  runEnded(trigger: ExecutionTrigger, status: 'completed' | 'failed') {
    (status === 'completed' ? recorded?.runsCompleted : recorded?.runsFailed)?.inc({ trigger });
  },
  /**
   * A worker claimed a run (execution-runner.ts): the wait from its queueing to its first claim.
   * Later claims (a resume after a crash, after a wait) are not queueing latency and are not observed.
   */
  runClaimed(run: { attempt: number; createdAt: Date }) {
    if (!recorded || run.attempt !== 1) return;
    recorded.claimLatency.observe(Math.max(0, Date.now() - run.createdAt.getTime()) / 1000);
  },
  /** A step ended (step-recorder.ts), timed by the engine's clock. */
  stepEnded(kind: NodeKind | undefined, status: 'completed' | 'failed', startedAt: number, endedAt: number) {
    recorded?.stepDuration.observe(
      { kind: kind ?? 'agent', status },
      Math.max(0, endedAt - startedAt) / 1000,
    );
  },
  /** A model call ended (platform/llm/gateway.ts), its tool loop included. */
  modelCalled(provider: LlmProvider, model: string, ok: boolean, seconds: number) {
    recorded?.modelCallDuration.observe(
      { provider, model_family: modelFamily(model), outcome: ok ? 'ok' : 'error' },
      seconds,
    );
  },
  /**
   * Model use as the spend ledger records it (a run's step, a metered call outside runs): tokens, and
   * the cost when the model has a price.
   */
  modelSpend(
    usage:
      | {
          provider: LlmProvider | (string & {});
          inputTokens: number;
          outputTokens: number;
          costMicros: number | null;
        }
      | undefined,
  ) {
    if (!recorded || !usage) return;
    const { provider } = usage;
    if (usage.inputTokens > 0) recorded.tokens.inc({ provider, direction: 'input' }, usage.inputTokens);
    if (usage.outputTokens > 0) recorded.tokens.inc({ provider, direction: 'output' }, usage.outputTokens);
    if (usage.costMicros) recorded.cost.inc({ provider }, usage.costMicros / 1_000_000);
  },
  /** A realtime websocket was accepted (modules/realtime). */
  websocketOpened() {
    recorded?.websockets.inc();
  },
  /** An accepted realtime websocket is gone. */
  websocketClosed() {
    recorded?.websockets.dec();
  },
};

/**
 * The gateway with each model call timed (app.ts wraps the one gateway every module calls models
 * through): `crewline_model_call_duration_seconds` by provider, model family and outcome.
 */
export function withModelCallMetrics(gateway: LlmGateway): LlmGateway {
  return {
    ...gateway,
    async generate(request) {
      if (!recorded) return gateway.generate(request);
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const result = await gateway.generate(request);
        metrics.modelCalled(request.connection.provider, result.model || request.model, true, seconds());
        return result;
      } catch (error) {
        metrics.modelCalled(request.connection.provider, request.model, false, seconds());
        throw error;
      }
    },
  };
}
