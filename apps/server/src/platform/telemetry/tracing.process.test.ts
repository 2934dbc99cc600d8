import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOtlpCollector, type FakeOtlpCollector } from '../../testing/fake-otlp-collector';
import { processApi, signUpWithChain } from '../../testing/process-api';
import { startProcessCluster, type ProcessCluster } from '../../testing/process-cluster';
import { stopServerProcess } from '../../testing/server-process';

/*
 * Traces across the queue with real processes (docs/architecture.md, Operating: traces): an API
 * process and a worker process, both started by the real entry point with OTEL_EXPORTER_OTLP_ENDPOINT
 * pointing at the fake collector. The run the API queues is worked by the worker, and its span is a
 * child of the API's request span, in the same trace; a graceful stop sends the spans still batched.
 */
let collector: FakeOtlpCollector;
let cluster: ProcessCluster;

beforeAll(async () => {
  collector = await startFakeOtlpCollector();
  cluster = await startProcessCluster('traces', () => ({
    EGRESS_ALLOW_LIST: '127.0.0.1',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_SERVICE_NAME: 'crewline-process-test',
  }));
}, 60_000);

afterAll(async () => {
  await cluster?.close();
  await collector?.close();
});

describe('a run queued by an API process and worked by a worker process', () => {
  it(
    'is one trace: the request span on the API, its child run span on the worker',
    { timeout: 120_000 },
    async () => {
      const api = cluster.start('api');
      const worker = cluster.start('worker');
      await worker.ready;
      const call = processApi(() => base);
      const base = await api.url;
      const { token, workflowId } = await signUpWithChain(call, cluster.fake, ['Tracer']);
      const started = await call('POST', `/api/workflows/${workflowId}/execute`, { input: {} }, token);
      expect(started.status).toBe(202);
      const runId = started.body.id as string;
      const deadline = Date.now() + 30_000;
      let status = '';
      while (Date.now() < deadline) {
        status = (await call('GET', `/api/executions/${runId}`, undefined, token)).body.status as string;
        if (status === 'completed' || status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(status).toBe('completed');

      // A graceful stop sends what the batch still holds: nothing is waited for beyond it.
      expect(await stopServerProcess(worker)).toBe(0);
      expect(await stopServerProcess(api)).toBe(0);

      const runSpan = collector.spans.find((span) => span.attributes['crewline.execution.id'] === runId);
      expect(runSpan, 'the run span').toBeDefined();
      expect(runSpan!.resource).toMatchObject({
        'service.name': 'crewline-process-test',
        'crewline.role': 'worker',
      });
      const request = collector.spans.find((span) => span.spanId === runSpan!.parentSpanId);
      expect(request).toMatchObject({
        name: 'POST /api/workflows/:id/execute',
        traceId: runSpan!.traceId,
        resource: { 'crewline.role': 'api' },
      });
      const step = collector.spans.find((span) => span.parentSpanId === runSpan!.spanId);
      expect(step?.name).toBe('step agent');
      const model = collector.spans.find((span) => span.parentSpanId === step!.spanId);
      expect(model).toMatchObject({ name: 'chat gpt-4o', attributes: { 'gen_ai.system': 'openai' } });
      expect(model!.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
      // Neither process wrote an error about the export.
      expect(api.output() + worker.output()).not.toMatch(/OTLP|export.*fail/i);
    },
  );
});
