import { setTracingState } from './tracing';
import type { TracingConfig } from './tracing-config';

/** What a process that exports traces keeps: a flush (tests) and the shutdown that sends the rest. */
export type Tracing = {
  /** Sends the spans ended so far and waits for the collector's answer (a refusal is a warning). */
  flush(): Promise<void>;
  /** Sends what is left and stops exporting; the facade makes no more spans. */
  stop(): Promise<void>;
};

/**
 * Turns traces on: loads the OpenTelemetry API, SDK and the OTLP/HTTP exporter of the configured
 * protocol (dynamic imports, so a process with traces off never loads them), registers the
 * AsyncLocalStorage context manager (a span started in a request or a run is the parent of those
 * started under it) and the W3C trace-context propagator, and hands the tracer to the facade
 * (tracing.ts). Called once, at start-up, before the app and the worker are built.
 */
export async function startTracing(
  config: TracingConfig,
  process: {
    role: string;
    version?: string;
    /** Where the SDK's own warnings go (an export the collector refused or could not be reached). */
    logger?: { warn(fields: object, message: string): void };
  },
): Promise<Tracing> {
  const [api, { TracerProvider, BatchSpanProcessor }, { AsyncLocalStorageContextManager }, core, resources] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
    ]);
  const { OTLPTraceExporter } =
    config.protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');

  const exporter = new OTLPTraceExporter({ url: config.url, headers: { ...config.headers } });
  const provider = new TracerProvider({
    resource: resources.resourceFromAttributes({
      ...config.resourceAttributes,
      'service.name': config.serviceName,
      ...(process.version ? { 'service.version': process.version } : {}),
      'crewline.role': process.role,
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const { logger } = process;
  // A failed export is a warning line, never the process's failure: one per batch, the collector's
  // answer in it (never the export's headers, which the SDK does not log).
  const warn = (message: string, ...args: unknown[]) =>
    logger?.warn({ component: 'opentelemetry' }, [message, ...args.map(String)].join(' '));
  if (logger) {
    // Exports in the background report through the SDK's diagnostics logger.
    api.diag.setLogger(
      { error: warn, warn, info: () => undefined, debug: () => undefined, verbose: () => undefined },
      api.DiagLogLevel.WARN,
    );
  }
  const contextManager = new AsyncLocalStorageContextManager().enable();
  api.context.setGlobalContextManager(contextManager);
  api.propagation.setGlobalPropagator(new core.W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  setTracingState({ api, tracer: provider.getTracer('crewline'), captureContent: config.captureContent });

  let stopped = false;
  return {
    flush: () => provider.forceFlush().catch((error: unknown) => warn('Trace export failed:', error)),
    async stop() {
      if (stopped) return;
      stopped = true;
      setTracingState(undefined);
      await provider.shutdown().catch((error: unknown) => warn('Trace export failed:', error));
      // Tests start traces more than once in one process: the API's globals are set anew each time.
      api.trace.disable();
      api.context.disable();
      api.propagation.disable();
      api.diag.disable();
    },
  };
}
