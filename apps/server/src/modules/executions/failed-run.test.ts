import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { executionMessages, type AuthResponse, type Execution } from '@crewline/contracts';
import { loggerOptions } from '../../platform/logger';
import { createAgent, configureModel, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder } from '../../testing/fake-model-suite';
import { jsonLogLines } from '../../testing/json-log-lines';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testConfig } from '../../testing/test-config';
import { chainOf } from '../../testing/workflow-shapes';

// A failed run shows what happened (docs/product-rules.md, Run review): the step that failed, what
// its completed steps used, the retry it got, and one server log line per failed model call.
let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let workflowId: string;
const API_KEY = 'sk-failedrun-canary-4f9d2b7e';
const { lines: logLines, stream: logStream } = jsonLogLines();

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({
    worker: true,
    config: { runs: { ...testConfig().runs, concurrency: 1 } },
    loggerInstance: pino(loggerOptions('info'), logStream),
  });
  ada = await t.signup();
  await configureModel(t, ada.token, fake.url, { apiKey: API_KEY, defaultModel: 'gpt-4o' });
  const agentIds = [
    (await createAgent(t, ada.token, { name: 'Researcher' })).id,
    (await createAgent(t, ada.token, { name: 'Writer', llmModel: 'gpt-4o-mini' })).id,
  ];
  const { nodes, edges } = chainOf(agentIds);
  const labelled = nodes.map((node) =>
    node.id === 'n1'
      ? { ...node, data: { label: 'Research' } }
      : node.id === 'n2'
        ? { ...node, data: { label: 'Summarize' } }
        : node,
  );
  const created = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: { name: 'Two steps', status: 'active', nodes: labelled, edges },
  });
  workflowId = created.json().id as string;
});
afterAll(() => closeInOrder(t, fake));
beforeEach(() => {
  fake.reset();
  logLines.length = 0;
});

const call = (method: 'GET' | 'POST', url: string) => t.request({ method, url, token: ada.token });
const waitForEnd = (id: string) => waitForRunEnd(t, ada.token, id, 20_000);

/** A run whose first step answers and whose second the model refuses with `status`. */
async function failedAtSummarize(status: number): Promise<Execution> {
  const refusal = {
    error: { status, message: status === 401 ? 'Incorrect API key provided' : 'The server had an error' },
    headers: { 'retry-after-ms': '0' },
  };
  // A 500 is retried by the gateway (twice): each attempt gets the same refusal.
  fake.reset();
  fake.script([{ content: 'Research notes' }, refusal, refusal, refusal]);
  const failed = await waitForEnd((await call('POST', `/api/workflows/${workflowId}/execute`)).json().id);
  expect(failed.status).toBe('failed');
  return failed;
}

const modelFailureLines = () => logLines.filter((line) => line.msg === 'model call failed');

describe('a failed run', () => {
  it('names its failing step in the list and the details, and counts what its completed step used', async () => {
    const failed = await failedAtSummarize(401);
    expect(failed.error).toBe('OpenAI answered 401: Incorrect API key provided');
    expect(failed.failedStep).toBe('Summarize');

    const list = await call('GET', `/api/executions?workflowId=${workflowId}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toMatchObject({
      id: failed.id,
      status: 'failed',
      failedStep: 'Summarize',
      error: 'OpenAI answered 401: Incorrect API key provided',
      retryOf: null,
      retriedBy: null,
    });

    // Step 1 completed, step 2 failed: the details count step 1's tokens and one step.
    const researchTokens = failed.output.n1.usage.totalTokens;
    expect(researchTokens).toBeGreaterThan(0);
    expect(failed.metrics).toMatchObject({ totalTokens: researchTokens, steps: 1, reusedSteps: 0 });
    expect(failed.metrics.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('logs each failed model call once at warn, with where and which model, never the key', async () => {
    for (const status of [401, 500]) {
      logLines.length = 0;
      const failed = await failedAtSummarize(status);
      const lines = modelFailureLines();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 40,
        executionId: failed.id,
        nodeId: 'n2',
        step: 'Summarize',
        provider: 'openai',
        model: 'gpt-4o-mini',
        status,
        attempts: status === 500 ? 3 : 1,
      });
      const everything = JSON.stringify(logLines);
      expect(everything).not.toContain(API_KEY);
      expect(everything).not.toContain('Research notes');
    }
  });

  it('links a retried run and its retry both ways, and retries it only once', async () => {
    const failed = await failedAtSummarize(401);
    fake.reset();
    fake.script([{ content: 'Summary' }]);
    const retry = await call('POST', `/api/executions/${failed.id}/retry`);
    expect(retry.statusCode).toBe(202);
    expect(retry.json()).toMatchObject({ retryOf: failed.id, retriedBy: null });
    const done = await waitForEnd(retry.json().id);
    expect(done).toMatchObject({ status: 'completed', retryOf: failed.id, failedStep: null });

    const original = (await call('GET', `/api/executions/${failed.id}`)).json() as Execution;
    expect(original).toMatchObject({ retriedBy: done.id, retryOf: null, failedStep: 'Summarize' });
    const list = (await call('GET', `/api/executions?workflowId=${workflowId}`)).json() as Execution[];
    expect(list.find((run) => run.id === failed.id)).toMatchObject({ retriedBy: done.id });
    expect(list.find((run) => run.id === done.id)).toMatchObject({ retryOf: failed.id, retriedBy: null });

    const again = await call('POST', `/api/executions/${failed.id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(executionMessages.alreadyRetried(done.id));
    expect(again.json().message).toBe(
      `This execution was already retried as run ${done.id.slice(0, 8)}. Retry that run instead.`,
    );
  });

  it('a failed retry can be retried in turn; two retries at once start one run', async () => {
    const failed = await failedAtSummarize(401);
    fake.reset();
    fake.script([{ error: { status: 401, message: 'Still wrong' } }]);
    const retry = await waitForEnd((await call('POST', `/api/executions/${failed.id}/retry`)).json().id);
    expect(retry).toMatchObject({ status: 'failed', retryOf: failed.id, failedStep: 'Summarize' });

    fake.reset();
    fake.script([{ content: 'Summary', delayMs: 200 }]);
    const both = await Promise.all([
      call('POST', `/api/executions/${retry.id}/retry`),
      call('POST', `/api/executions/${retry.id}/retry`),
    ]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([202, 409]);
    const started = both.find((answer) => answer.statusCode === 202)!.json() as Execution;
    const refused = both.find((answer) => answer.statusCode === 409)!.json() as { message: string };
    expect(refused.message).toBe(executionMessages.alreadyRetried(started.id));
    expect((await waitForEnd(started.id)).status).toBe('completed');
  });
});
