import { registerHooks } from 'node:module';

/*
 * Run by platform/telemetry/tracing.test.ts in a process of its own: loads the server's modules as start.ts does (the
 * configuration, the app and the worker, and the traces when configured) and prints which
 * OpenTelemetry packages were loaded. With OTEL_EXPORTER_OTLP_ENDPOINT unset, none may be.
 */
const loaded = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const match = /node_modules\/(@opentelemetry\/[^/]+)\//.exec(resolved.url);
    if (match) loaded.add(match[1]!);
    return resolved;
  },
});

const { loadConfig } = await import('../platform/env');
// As start.ts does: the probe's environment is the configuration under test.
const config = loadConfig({
  ...process.env,
  JWT_SECRET: 'probe-jwt-secret-that-is-long-enough-0123456789',
  ENCRYPTION_KEY: '07'.repeat(32),
});
await Promise.all([import('../app'), import('../worker'), import('../platform/telemetry/tracing')]);
if (config.tracing) {
  const { startTracing } = await import('../platform/telemetry/start-tracing');
  await (await startTracing(config.tracing, { role: config.role })).stop();
}
console.log(JSON.stringify({ loaded: [...loaded].sort() }));
process.exit(0);
