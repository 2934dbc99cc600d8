import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import {
  startFakeOtlpCollector,
  type CollectedSpan,
  type FakeOtlpCollector,
} from '../../testing/fake-otlp-collector';
import { startFakeOrdersApi, type FakeOrdersApi } from '../../testing/fake-orders-api';
import {
  attachNewTool,
  configureModel,
  createAgent,
  createChainWorkflow,
  runToEnd,
} from '../../testing/app-fixtures';
import { modelToolName } from '../../modules/tools/runtime/tool-runtime';
import { startTracing, type Tracing } from './start-tracing';
import { inStep } from './tracing';
import { tracingConfigOf, tracingEnvSchema } from './tracing-config';

/*
 * Traces end to end: the real app and worker on a test database, the fake model server, and the
 * fake OTLP collector receiving the export as Langfuse or a collector would. Then what an operator
 * sees: one trace from the request that started the run down to the model call, with the GenAI
 * attributes and tokens, and nothing secret in it.
 */

const MODEL_KEY = 'sk-trace-model-key-5f1c2a9e';
const ORDERS_KEY = 'orders-trace-key-77b3d1';
const COLLECTOR_SECRET = 'sk-lf-collector-secret-0d9e';
const PASSWORD = 'Trace-Passw0rd-91xq';
const INPUT_TEXT = 'Summarise the quarterly figures for Northwind';
const ANSWER_TEXT = 'Northwind grew by nine percent this quarter.';

let t: TestApp;
let fake: FakeLlmServer;
let collector: FakeOtlpCollector;
let orders: FakeOrdersApi;
let ada: AuthResponse;
let tracing: Tracing | undefined;

/** Tracing on against the fake collector, as OTEL_* variables would set it (tracing-config.ts). */
async function traceTo(env: Record<string, string>) {
  const parsed = tracingEnvSchema.parse({
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Basic%20${COLLECTOR_SECRET}`,
    OTEL_SERVICE_NAME: 'crewline-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test',
    ...env,
  });
  tracing = await startTracing(tracingConfigOf(parsed)!, { role: 'all' });
}

beforeAll(async () => {
  [fake, collector, orders] = await Promise.all([
    startFakeLlmServer({ requireKey: MODEL_KEY }),
    startFakeOtlpCollector(),
    startFakeOrdersApi(),
  ]);
  // Built with traces on, as start.ts builds it; each test then turns them on (or not) as it needs.
  await traceTo({});
  t = await createTestApp({ worker: true });
  await tracing!.stop();
  tracing = undefined;
  ada = await t.signup({ password: PASSWORD, confirmPassword: PASSWORD });
  await configureModel(t, ada.token, fake.url, { apiKey: MODEL_KEY });
});
afterEach(async () => {
  await tracing?.stop();
  tracing = undefined;
  collector.clear();
});
afterAll(async () => {
  await t.close();
  await Promise.all([fake.close(), collector.close(), orders.close()]);
});

/** A one-agent workflow's run through the API, to its end, and the spans of its trace once sent. */
async function tracedRun(workflowId: string) {
  const run = await runToEnd(t, ada.token, workflowId, { text: INPUT_TEXT });
  await tracing!.flush();
  const runSpan = collector.spans.find(
    (span) => span.name === 'workflow run' && span.attributes['crewline.execution.id'] === run.id,
  );
  expect(runSpan, 'the run span').toBeDefined();
  const trace = collector.spans.filter((span) => span.traceId === runSpan!.traceId);
  const childrenOf = (parent: CollectedSpan) => trace.filter((span) => span.parentSpanId === parent.spanId);
  return { run, runSpan: runSpan!, trace, childrenOf };
}

/** Every value the export must never carry: keys, the password, the session, the server's secrets. */
function secretsOf(): string[] {
  return [
    MODEL_KEY,
    ORDERS_KEY,
    COLLECTOR_SECRET,
    PASSWORD,
    ada.token,
    t.config.jwtSecret,
    t.config.encryptionKey.toString('hex'),
  ];
}

describe('OpenTelemetry traces', () => {
  it('sends one trace from the starting request through the run and its step to the model call, with GenAI attributes and no secret', async () => {
    await traceTo({});
    const agent = await createAgent(t, ada.token, { name: 'Analyst', llmModel: 'gpt-4o' });
    const workflowId = await createChainWorkflow(t, ada.token, 'Quarterly summary', [agent.id]);
    fake.script([{ content: ANSWER_TEXT }]);
    const { run, runSpan, trace, childrenOf } = await tracedRun(workflowId);
    expect(run.status).toBe('completed');

    // request → run: the run's span, on the worker, continues the request that queued it.
    const request = trace.find((span) => span.spanId === runSpan.parentSpanId);
    expect(request).toMatchObject({
      name: 'POST /api/workflows/:id/execute',
      kind: 2,
      parentSpanId: '',
      attributes: {
        'http.request.method': 'POST',
        'http.route': '/api/workflows/:id/execute',
        'http.response.status_code': 202,
      },
    });
    expect(runSpan.attributes).toMatchObject({
      'crewline.workflow.id': workflowId,
      'crewline.run.attempt': 1,
      'crewline.run.trigger': 'manual',
    });
    // run → step → model call.
    const [step] = childrenOf(runSpan);
    expect(step).toMatchObject({ name: 'step agent', attributes: { 'crewline.agent.id': agent.id } });
    const [model] = childrenOf(step!);
    expect(model).toMatchObject({
      name: 'chat gpt-4o',
      kind: 3,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'openai',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.response.model': 'gpt-4o',
      },
    });
    // The tokens are the ones the fake model reported, as the run's step counted them.
    const usage = usageOf(run);
    expect(usage.promptTokens).toBeGreaterThan(0);
    expect(model!.attributes['gen_ai.usage.input_tokens']).toBe(usage.promptTokens);
    expect(model!.attributes['gen_ai.usage.output_tokens']).toBe(usage.completionTokens);
    // Priced as the run's step was (gpt-4o has a list price).
    expect(usage.costUsd).toBeGreaterThan(0);
    expect(model!.attributes['crewline.cost_usd']).toBe(usage.costUsd);
    expect(model!.resource).toMatchObject({
      'service.name': 'crewline-test',
      'deployment.environment': 'test',
      'crewline.role': 'all',
    });
    expect(collector.contentTypes.every((type) => type === 'application/x-protobuf')).toBe(true);

    // Content is off by default: neither the input, the prompt nor the answer is in the export.
    expect(model!.attributes).not.toHaveProperty('gen_ai.prompt');
    expect(model!.attributes).not.toHaveProperty('gen_ai.completion');
    const exported = collector.bodies.join('\n');
    expect(exported).not.toContain(INPUT_TEXT);
    expect(exported).not.toContain(ANSWER_TEXT);
    for (const secret of secretsOf()) expect(exported, secret).not.toContain(secret);
  });

  it("puts a model's tool call under its model call, and the prompt and answer only with OTEL_CAPTURE_CONTENT=true (over http/json)", async () => {
    await traceTo({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_CAPTURE_CONTENT: 'true' });
    const agent = await createAgent(t, ada.token, { name: 'Clerk', llmModel: 'gpt-4o' });
    const tool = await attachNewTool(t, ada.token, agent.id, orders.tool(ORDERS_KEY));
    const name = modelToolName(tool);
    const workflowId = await createChainWorkflow(t, ada.token, 'Order status', [agent.id]);
    fake.script([
      { toolCalls: [{ name, arguments: { method: 'GET', path: 'orders/42' } }] },
      { content: ANSWER_TEXT },
    ]);
    const { run, runSpan, childrenOf } = await tracedRun(workflowId);
    expect(run.status).toBe('completed');
    expect(orders.seen.length).toBeGreaterThan(0);

    const [step] = childrenOf(runSpan);
    const [model] = childrenOf(step!);
    const [toolSpan] = childrenOf(model!);
    expect(toolSpan).toMatchObject({
      name: `execute_tool ${name}`,
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name },
    });
    // With content on, the prompt (the run's input in it) and the answer are on the model call.
    expect(String(model!.attributes['gen_ai.prompt'])).toContain(INPUT_TEXT);
    expect(String(model!.attributes['gen_ai.completion'])).toContain(ANSWER_TEXT);
    expect(collector.contentTypes.every((type) => type === 'application/json')).toBe(true);
    // Never a key: not the model's, not the tool's (its calls carry it), not the collector's.
    const exported = collector.bodies.join('\n');
    for (const secret of secretsOf()) expect(exported, secret).not.toContain(secret);
  });

  it('sends nothing when traces are off, and the run still works', async () => {
    const agent = await createAgent(t, ada.token, { name: 'Quiet', llmModel: 'gpt-4o' });
    const workflowId = await createChainWorkflow(t, ada.token, 'Untraced', [agent.id]);
    fake.script([{ content: ANSWER_TEXT }]);
    const run = await runToEnd(t, ada.token, workflowId, { text: INPUT_TEXT });
    expect(run.status).toBe('completed');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(collector.spans).toEqual([]);
    expect(collector.bodies).toEqual([]);
  });
});

describe('an export the collector refuses', () => {
  it("is logged as a warning of the SDK's, with no header in it", async () => {
    const warnings: { fields: unknown; message: string }[] = [];
    const config = tracingConfigOf(
      tracingEnvSchema.parse({
        // The collector answers 404 off /v1/traces.
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.endpoint}/v1/nowhere`,
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=Basic%20${COLLECTOR_SECRET}`,
      }),
    )!;
    tracing = await startTracing(config, {
      role: 'api',
      logger: { warn: (fields, message) => void warnings.push({ fields, message }) },
    });
    await inStep({ nodeId: 'n1', baseNodeId: 'n1', agentId: null, kind: 'code' }, async () => undefined);
    await tracing.flush();
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]).toMatchObject({
      fields: { component: 'opentelemetry' },
      message: /Trace export failed/,
    });
    expect(JSON.stringify(warnings)).not.toContain(COLLECTOR_SECRET);
    expect(collector.spans).toEqual([]);
  });
});

describe('the fake collector checks what it is sent', () => {
  it('refuses a body that is not OTLP (400) and a content type it does not take (415)', async () => {
    const post = (body: string, type: string) =>
      fetch(`${collector.endpoint}/v1/traces`, { method: 'POST', headers: { 'content-type': type }, body });
    expect((await post('not protobuf at all \u0001\u0002', 'application/x-protobuf')).status).toBe(400);
    expect((await post('{"resourceSpans": 3}', 'application/json')).status).toBe(400);
    expect((await post('{}', 'text/plain')).status).toBe(415);
    expect(collector.spans).toEqual([]);
  });
});

describe('zero cost when off', () => {
  const script = fileURLToPath(new URL('../../testing/tracing-modules-probe.ts', import.meta.url));
  const probe = async (env: Record<string, string>) => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
    });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as { loaded: string[] };
  };

  it('loads no OpenTelemetry module at all without OTEL_EXPORTER_OTLP_ENDPOINT, and the SDK with it', async () => {
    const [off, on] = await Promise.all([
      probe({}),
      probe({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }),
    ]);
    expect(off.loaded).toEqual([]);
    // The probe does see them when traces are on: the SDK and the protobuf exporter.
    expect(on.loaded).toEqual(
      expect.arrayContaining(['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-proto']),
    );
  }, 60_000);
});

/** The run's one step's usage, as stored. */
function usageOf(run: Execution) {
  const step = Object.values(run.output)[0];
  if (!step) throw new Error('the run has no step');
  return step.usage;
}
