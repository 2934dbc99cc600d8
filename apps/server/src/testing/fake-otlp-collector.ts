import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

/*
 * A fake OpenTelemetry collector: OTLP/HTTP traces (POST /v1/traces) as a real collector takes
 * them. The content type must be application/x-protobuf (decoded with the OTLP schema in
 * testing/otlp-proto, copied from the protocol's repository) or application/json (OTLP's JSON
 * mapping: ids in hex, enums as numbers); gzip is undone; a body that does not decode is a 400, a
 * wrong content type a 415. It keeps every span, flattened, and every raw body, so a test can look
 * through the whole export for what must never be there.
 */

export type CollectedSpan = {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind number: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, unknown>;
};

const protoDir = fileURLToPath(new URL('./otlp-proto/', import.meta.url));
let requestType: protobuf.Type | undefined;
/** ExportTraceServiceRequest, from the copied schema (parsed once per process). */
function exportRequestType() {
  if (requestType) return requestType;
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(protoDir, target));
  root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto');
  return (requestType = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'));
}

type KeyValue = { key: string; value?: AnyValue };
type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
};

/** An attribute's value as plain JSON (OTLP's int64 comes as a string from both decodings). */
function valueOf(value: AnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue) return attributesOf(value.kvlistValue.values);
  return value.bytesValue;
}
const attributesOf = (list: KeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

type OtlpSpan = {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  kind?: number;
  attributes?: KeyValue[];
  events?: { name?: string; attributes?: KeyValue[] }[];
  status?: { code?: number };
};
type OtlpExport = {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
};

const HEX = (length: number) => new RegExp(`^[0-9a-f]{${length}}$`);

/** The export's spans, flattened; throws on a span without valid ids or name (a collector drops the batch). */
function spansOf(body: OtlpExport): CollectedSpan[] {
  if (!Array.isArray(body.resourceSpans)) throw new Error('resourceSpans is not a list');
  return body.resourceSpans.flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => {
        const parentSpanId = span.parentSpanId ?? '';
        if (!HEX(32).test(span.traceId ?? '') || !HEX(16).test(span.spanId ?? ''))
          throw new Error('a span has no valid trace or span id');
        if (parentSpanId && !HEX(16).test(parentSpanId)) throw new Error('a span has an invalid parent id');
        if (!span.name) throw new Error('a span has no name');
        return {
          traceId: span.traceId!,
          spanId: span.spanId!,
          parentSpanId,
          name: span.name,
          kind: span.kind ?? 0,
          attributes: attributesOf(span.attributes),
          events: (span.events ?? []).map((e) => ({
            name: e.name ?? '',
            attributes: attributesOf(e.attributes),
          })),
          statusCode: span.status?.code ?? 0,
          resource,
        };
      }),
    );
  });
}

/** A protobuf body decoded with the schema, as OTLP's JSON mapping would read (ids in hex). */
function decodeProtobuf(bytes: Buffer): OtlpExport {
  const type = exportRequestType();
  const message = type.decode(bytes);
  const plain = type.toObject(message, { longs: String, enums: Number, bytes: Buffer, defaults: false });
  const hexIds = (value: unknown): unknown => {
    if (Buffer.isBuffer(value)) return value.toString('hex');
    if (Array.isArray(value)) return value.map(hexIds);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hexIds(v)]));
    return value;
  };
  return hexIds(plain) as OtlpExport;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

export async function startFakeOtlpCollector() {
  const spans: CollectedSpan[] = [];
  /** Every accepted body as text (protobuf's strings are UTF-8 in it, readable as such). */
  const bodies: string[] = [];
  const contentTypes: string[] = [];
  let rejected = 0;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
    if (type !== 'application/x-protobuf' && type !== 'application/json') {
      rejected++;
      response.writeHead(415, { 'content-type': 'text/plain' }).end('unsupported content type');
      return;
    }
    const body = await bodyOf(request);
    let received: CollectedSpan[];
    try {
      const decoded =
        type === 'application/json'
          ? (JSON.parse(body.toString('utf8')) as OtlpExport)
          : decodeProtobuf(body);
      received = spansOf(decoded);
    } catch (error) {
      rejected++;
      response.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
      return;
    }
    spans.push(...received);
    bodies.push(body.toString('utf8'));
    contentTypes.push(type);
    // An ExportTraceServiceResponse with no partial failure: empty in either encoding.
    if (type === 'application/json')
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to (the exporter appends /v1/traces). */
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    contentTypes,
    rejected: () => rejected,
    /** Forgets what was received so far. */
    clear() {
      spans.length = 0;
      bodies.length = 0;
      contentTypes.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type FakeOtlpCollector = Awaited<ReturnType<typeof startFakeOtlpCollector>>;
