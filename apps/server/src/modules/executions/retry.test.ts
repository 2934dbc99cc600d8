import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executionMessages, type AuthResponse, type Execution } from '@crewline/contracts';
import { createAgent, configureModel, waitForRunEnd } from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { testConfig } from '../../testing/test-config';
import { chainOf, fanOf } from '../../testing/workflow-shapes';

// POST /api/executions/:id/retry: a failed or cancelled run again, on its version, reusing its finished steps.
let t: TestApp;
let fake: FakeLlmServer;
let ada: AuthResponse;
let bob: AuthResponse;
const names = ['Researcher', 'Writer', 'Editor'];
let chain: { workflowId: string; agentIds: string[] };

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({ worker: true, config: { runs: { ...testConfig().runs, concurrency: 1 } } });
  ada = await t.signup();
  bob = await t.signup();
  await configureModel(t, ada.token, fake.url, { defaultModel: 'gpt-4o' });
  const agentIds: string[] = [];
  for (const name of names) agentIds.push((await createAgent(t, ada.token, { name })).id);
  const created = await t.request({
    method: 'POST',
    url: '/api/workflows',
    token: ada.token,
    payload: { name: 'Chain', status: 'active', ...chainOf(agentIds) },
  });
  chain = { workflowId: created.json().id as string, agentIds };
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token = ada.token) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });

const waitForEnd = (id: string) => waitForRunEnd(t, ada.token, id, 20_000);

/** The agents (by the name in their system prompt) the fake model was asked, in order. */
const askedAgents = () =>
  fake.requests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => {
      const system = (r.body.messages as { role: string; content: string }[]).find(
        (m) => m.role === 'system',
      );
      return names.find((name) => system?.content.includes(name)) ?? 'other';
    });

const chatRequests = () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length;

const badRequest = { error: { status: 400, message: 'The model rejected the request' } };

/** A run of Researcher → Writer → Editor that fails at Writer (the model refuses it). */
async function failedAtWriter(input: Record<string, unknown> = { topic: 'tides' }): Promise<Execution> {
  fake.script([{ content: 'Research notes' }, badRequest]);
  const run = await call('POST', `/api/workflows/${chain.workflowId}/execute`, {
    input,
    dynamicInstructions: 'Be brief',
    parameters: { tone: 'dry' },
  });
  const failed = await waitForEnd(run.json().id);
  expect(failed.status).toBe('failed');
  expect(Object.keys(failed.output)).toEqual(['n1']);
  fake.reset();
  return failed;
}

const metadataOf = (execution: Execution, nodeId: string) =>
  (execution.output[nodeId] as { metadata: Record<string, unknown> }).metadata;

describe('retrying a run', () => {
  it('reuses the steps the failed run completed and runs the rest on the same input', async () => {
    const failed = await failedAtWriter();

    const researcherSteps = async () =>
      (
        (await call('GET', `/api/organizations/${ada.organization.id}/analytics`)).json().agents as {
          name: string;
          executions: number;
        }[]
      ).find((agent) => agent.name === 'Researcher')?.executions;
    const stepsBefore = await researcherSteps();
    expect(stepsBefore).toBeGreaterThan(0);

    fake.script([{ content: 'Draft' }, { content: 'Final text' }]);
    const retried = await call('POST', `/api/executions/${failed.id}/retry`);
    expect(retried.statusCode).toBe(202);
    expect(retried.json()).toMatchObject({
      workflowId: chain.workflowId,
      workflowVersion: failed.workflowVersion,
      input: { topic: 'tides' },
      dynamicInstructions: 'Be brief',
      parameters: { tone: 'dry' },
      triggeredBy: ada.user.id,
    });
    expect(retried.json().id).not.toBe(failed.id);
    // The reused step is in the new run's output map from the start, marked reused.
    expect(metadataOf(retried.json(), 'n1')).toMatchObject({ reused: true, reusedFrom: failed.id });

    const done = await waitForEnd(retried.json().id);
    expect(done.status).toBe('completed');
    expect(done.result).toBe('Final text');
    // Researcher was not asked again: its stored answer fed the Writer.
    expect(askedAgents()).toEqual(['Writer', 'Editor']);
    const writerPrompt = fake.requests[0].body.messages as { role: string; content: string }[];
    expect(writerPrompt.map((m) => m.content).join('\n')).toContain('Research notes');
    expect(Object.keys(done.output).sort()).toEqual(['n1', 'n2', 'n3']);
    expect(done.output.n1).toMatchObject({ content: 'Research notes', metadata: { reused: true } });
    expect(metadataOf(done, 'n2').reused).toBeUndefined();
    // Its tokens are those of its own model calls; the reused step's stay with the run that made them.
    const tokensOf = (nodeId: string) => (done.output[nodeId] as { usage: { totalTokens: number } }).usage;
    expect(tokensOf('n1').totalTokens).toBeGreaterThan(0);
    expect(done.metrics).toMatchObject({
      reusedSteps: 1,
      totalTokens: tokensOf('n2').totalTokens + tokensOf('n3').totalTokens,
    });
    expect(done.logs).toContainEqual(
      expect.objectContaining({ message: `Retry of run ${failed.id}: 1 completed step(s) reused` }),
    );

    // The per-agent figures count the reused step once, in the run that made it.
    expect(await researcherSteps()).toBe(stepsBefore);

    // The retried run itself is left as it was.
    expect((await call('GET', `/api/executions/${failed.id}`)).json().status).toBe('failed');
  });

  it('fromNodeId re-runs from that step onward: from the first step nothing is reused', async () => {
    const failed = await failedAtWriter();
    fake.script([{ content: 'New notes' }, { content: 'Draft' }, { content: 'Final text' }]);
    const retried = await call('POST', `/api/executions/${failed.id}/retry`, { fromNodeId: 'n1' });
    expect(retried.statusCode).toBe(202);
    const done = await waitForEnd(retried.json().id);
    expect(done.status).toBe('completed');
    expect(askedAgents()).toEqual(['Researcher', 'Writer', 'Editor']);
    expect(done.output.n1).toMatchObject({ content: 'New notes' });
    expect(metadataOf(done, 'n1').reused).toBeUndefined();
  });

  it('fromNodeId reuses only the steps before it', async () => {
    // A run that completed Researcher and Writer and failed at Editor, retried from Writer.
    fake.script([{ content: 'Research notes' }, { content: 'Draft' }, badRequest]);
    const failed = await waitForEnd(
      (await call('POST', `/api/workflows/${chain.workflowId}/execute`)).json().id,
    );
    expect(failed.status).toBe('failed');
    fake.reset();
    fake.script([{ content: 'Better draft' }, { content: 'Final text' }]);
    const retried = await call('POST', `/api/executions/${failed.id}/retry`, { fromNodeId: 'n2' });
    const done = await waitForEnd(retried.json().id);
    expect(done.status).toBe('completed');
    expect(askedAgents()).toEqual(['Writer', 'Editor']);
    expect(done.output.n2).toMatchObject({ content: 'Better draft' });
    expect(metadataOf(done, 'n1').reused).toBe(true);
  });

  it('a cancelled run can be retried', async () => {
    fake.script([{ content: 'slow notes', delayMs: 1500 }]);
    const run = await call('POST', `/api/workflows/${chain.workflowId}/execute`);
    await expect.poll(chatRequests, { timeout: 10_000 }).toBe(1);
    expect((await call('POST', `/api/executions/${run.json().id}/cancel`)).statusCode).toBe(200);
    expect((await waitForEnd(run.json().id)).status).toBe('cancelled');
    fake.reset();
    fake.script([{ content: 'Notes' }, { content: 'Draft' }, { content: 'Final text' }]);
    const done = await waitForEnd((await call('POST', `/api/executions/${run.json().id}/retry`)).json().id);
    expect(done.status).toBe('completed');
    expect(done.result).toBe('Final text');
  });

  it('refuses pending, running and completed runs (409), other organizations (404), unknown steps (400)', async () => {
    fake.script([{ content: 'slow notes', delayMs: 1500 }, { content: 'Draft' }, { content: 'Final' }]);
    const running = await call('POST', `/api/workflows/${chain.workflowId}/execute`);
    const pending = await call('POST', `/api/workflows/${chain.workflowId}/execute`);
    await expect.poll(chatRequests, { timeout: 10_000 }).toBe(1);
    for (const [id, status] of [
      [running.json().id, 'running'],
      [pending.json().id, 'pending'],
    ]) {
      const refused = await call('POST', `/api/executions/${id}/retry`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(executionMessages.notRetryable(status));
    }
    await call('POST', `/api/executions/${pending.json().id}/cancel`);
    const completed = await waitForEnd(running.json().id);
    expect(completed.status).toBe('completed');
    const again = await call('POST', `/api/executions/${completed.id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(executionMessages.notRetryable('completed'));

    const failed = await failedAtWriter();
    const foreign = await call('POST', `/api/executions/${failed.id}/retry`, {}, bob.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe(executionMessages.notFound);
    for (const fromNodeId of ['nope', 'start']) {
      const unknown = await call('POST', `/api/executions/${failed.id}/retry`, { fromNodeId });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe(executionMessages.unknownRetryNode(fromNodeId));
    }
    expect(chatRequests()).toBe(0);
  });

  it('refuses fromNodeId for a parallel run (400) but retries it reusing its completed steps', async () => {
    const fan = await call('POST', '/api/workflows', {
      name: 'Fan',
      status: 'active',
      processType: 'parallel',
      ...fanOf(chain.agentIds.slice(0, 2)),
    });
    // Both agents ask at once; whichever gets the refusal gets it late, after the other's answer is stored.
    fake.script([{ content: 'one' }, { ...badRequest, delayMs: 500 }]);
    const failed = await waitForEnd(
      (await call('POST', `/api/workflows/${fan.json().id}/execute`)).json().id,
    );
    expect(Object.keys(failed.output)).toHaveLength(1);
    expect(failed.status).toBe('failed');
    fake.reset();
    const refused = await call('POST', `/api/executions/${failed.id}/retry`, { fromNodeId: 'n1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(executionMessages.retryFromNotSequential('parallel'));

    fake.script([{ content: 'two' }]);
    const done = await waitForEnd((await call('POST', `/api/executions/${failed.id}/retry`)).json().id);
    expect(done.status).toBe('completed');
    expect(chatRequests()).toBe(1);
    expect(Object.values(done.result as Record<string, string>).sort()).toEqual(['one', 'two']);
    const reused = Object.keys(done.output).filter((nodeId) => metadataOf(done, nodeId).reused === true);
    expect(reused).toEqual(Object.keys(failed.output));
    expect(done.output[reused[0]]).toMatchObject({ content: 'one' });
  });

  it('keeps the version of the retried run after the workflow was edited and re-activated', async () => {
    const created = await call('POST', '/api/workflows', {
      name: 'Edited later',
      status: 'active',
      ...chainOf(chain.agentIds.slice(0, 2)),
    });
    const workflowId = created.json().id as string;
    fake.script([{ content: 'Research notes' }, badRequest]);
    const failed = await waitForEnd((await call('POST', `/api/workflows/${workflowId}/execute`)).json().id);
    expect(failed).toMatchObject({ status: 'failed', workflowVersion: 1 });
    fake.reset();

    // Now Editor only: paused, edited, active again.
    await call('PUT', `/api/workflows/${workflowId}`, { status: 'paused' });
    await call('PUT', `/api/workflows/${workflowId}`, { ...chainOf([chain.agentIds[2]]) });
    expect((await call('PUT', `/api/workflows/${workflowId}`, { status: 'active' })).statusCode).toBe(200);
    const newest = (await call('GET', `/api/workflows/${workflowId}/versions`)).json()[0].version as number;
    expect(newest).toBeGreaterThan(1);

    fake.script([{ content: 'Draft' }]);
    const retried = await call('POST', `/api/executions/${failed.id}/retry`);
    expect(retried.json().workflowVersion).toBe(1);
    const done = await waitForEnd(retried.json().id);
    expect(done).toMatchObject({ status: 'completed', workflowVersion: 1, result: 'Draft' });
    expect(askedAgents()).toEqual(['Writer']);
    expect(Object.keys(done.output).sort()).toEqual(['n1', 'n2']);

    // A new run takes the newest version.
    fake.script([{ content: 'Edited' }]);
    const next = await waitForEnd((await call('POST', `/api/workflows/${workflowId}/execute`)).json().id);
    expect(next.workflowVersion).toBe(newest);
    expect(askedAgents()).toEqual(['Writer', 'Editor']);
  });
});
