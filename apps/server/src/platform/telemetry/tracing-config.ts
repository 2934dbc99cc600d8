import { z } from 'zod';

/**
 * The standard OTEL_* variables Crewline reads for its traces (docs/architecture.md, "Operating:
 * traces"). env.ts spreads these into its schema and calls `tracingConfigOf`: traces are off unless
 * OTEL_EXPORTER_OTLP_ENDPOINT (or the traces-only endpoint) is set.
 */
// An empty variable counts as unset, as the OpenTelemetry specification says.
const endpoint = z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^https?$/ }).optional());

/** `key=value` pairs, comma-separated, values URL-encoded (the specification's format); a bad pair names itself. */
const keyValuePairs = z
  .string()
  .optional()
  .transform((value, ctx) => {
    try {
      return parseKeyValues(value ?? '');
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

export const tracingEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
  /** The signal-specific endpoint, used as it is (no /v1/traces appended), as the specification says. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/protobuf', 'http/json'], {
      message: 'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (gRPC is not supported)',
    })
    .default('http/protobuf'),
  /** `key=value` pairs, comma-separated, values URL-encoded (the specification's format): auth headers. */
  OTEL_EXPORTER_OTLP_HEADERS: keyValuePairs,
  OTEL_SERVICE_NAME: z.string().trim().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: keyValuePairs,
  OTEL_CAPTURE_CONTENT: z
    .enum(['true', 'false'], { message: 'OTEL_CAPTURE_CONTENT must be true or false' })
    .default('false'),
};

export type TracingConfig = {
  /** Where spans are POSTed: the traces endpoint, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Sent with each export (a collector's or a vendor's auth); never put on a span. */
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  /** Prompt and completion text on model-call spans (OTEL_CAPTURE_CONTENT=true); off by default. */
  captureContent: boolean;
};

/** The variables alone (tests parse them as env.ts does). */
export const tracingEnvSchema = z.object(tracingEnv);
type TracingEnv = z.output<typeof tracingEnvSchema>;

/** The traces' settings, or undefined (off) when no endpoint is set. */
export function tracingConfigOf(e: TracingEnv): TracingConfig | undefined {
  const url =
    e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (e.OTEL_EXPORTER_OTLP_ENDPOINT && `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  if (!url) return undefined;
  return {
    url,
    protocol: e.OTEL_EXPORTER_OTLP_PROTOCOL,
    headers: e.OTEL_EXPORTER_OTLP_HEADERS,
    // OTEL_SERVICE_NAME wins over a service.name in OTEL_RESOURCE_ATTRIBUTES, as the specification says.
    serviceName: e.OTEL_SERVICE_NAME ?? e.OTEL_RESOURCE_ATTRIBUTES['service.name'] ?? 'crewline',
    resourceAttributes: e.OTEL_RESOURCE_ATTRIBUTES,
    captureContent: e.OTEL_CAPTURE_CONTENT === 'true',
  };
}

/** `a=1,b=x%20y` → { a: '1', b: 'x y' }; a pair without `=` or with an empty key is an error. */
function parseKeyValues(text: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const entry of text.split(',')) {
    if (!entry.trim()) continue;
    const at = entry.indexOf('=');
    const key = at > 0 ? entry.slice(0, at).trim() : '';
    // The value is not quoted in the message: it may be a credential (an Authorization header).
    if (!key) throw new Error('expected comma-separated key=value pairs');
    pairs[key] = decodeURIComponent(entry.slice(at + 1).trim());
  }
  return pairs;
}
