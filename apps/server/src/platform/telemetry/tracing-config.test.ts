import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../env';

/** The configuration as start.ts reads it, with the secrets given so nothing is written to disk. */
const configOf = (env: Record<string, string>) =>
  loadConfig({ JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: '0'.repeat(64), ...env });

describe('the OTEL_* variables', () => {
  it('leave traces off without an endpoint, an empty one included', () => {
    expect(configOf({}).tracing).toBeUndefined();
    expect(configOf({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }).tracing).toBeUndefined();
  });

  it('send to <endpoint>/v1/traces over http/protobuf by default, as the specification says', () => {
    expect(
      configOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://cloud.langfuse.com/api/public/otel/' }).tracing,
    ).toEqual({
      url: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
      protocol: 'http/protobuf',
      headers: {},
      serviceName: 'crewline',
      resourceAttributes: {},
      captureContent: false,
    });
  });

  it('take the traces endpoint as it is, the headers and resource attributes URL-decoded, the service name over service.name', () => {
    const tracing = configOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://api.smith.langchain.com/otel/v1/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=lsv2_abc,Langsmith-Project=my%20project',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=ignored,deployment.environment=prod',
      OTEL_SERVICE_NAME: 'crewline-eu',
      OTEL_CAPTURE_CONTENT: 'true',
    }).tracing;
    expect(tracing).toMatchObject({
      url: 'https://api.smith.langchain.com/otel/v1/traces',
      protocol: 'http/json',
      headers: { 'x-api-key': 'lsv2_abc', 'Langsmith-Project': 'my project' },
      serviceName: 'crewline-eu',
      resourceAttributes: { 'deployment.environment': 'prod' },
      captureContent: true,
    });
  });

  it('stop the start with a message naming the variable, never quoting a header value', () => {
    expect(() => configOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json \(gRPC is not supported\)/,
    );
    expect(() => configOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://collector' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    let error: unknown;
    try {
      configOf({ OTEL_EXPORTER_OTLP_HEADERS: 'Bearer-sk-secret-value' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      /OTEL_EXPORTER_OTLP_HEADERS: expected comma-separated key=value pairs/,
    );
    expect((error as Error).message).not.toContain('sk-secret-value');
  });
});
