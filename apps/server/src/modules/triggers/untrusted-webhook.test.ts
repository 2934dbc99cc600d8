import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse, Execution } from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAgent, createChainWorkflow } from '../../testing/app-fixtures';
import { signWebhookCall } from './webhook-signature';

// Untrusted starts by webhook (docs/product-rules.md, People in the loop): a call proved by the
// secret alone starts an untrusted run, a signed call a trusted one; a retry keeps its run's mark.
// No worker: the runs stay queued, which is all these checks need.

let t: TestApp;
let ada: AuthResponse;
let agentId: string;
beforeAll(async () => {
  t = await createTestApp({ config: { webhookMaxPerMinute: 1000 } });
  ada = await t.signup();
  agentId = (await createAgent(t, ada.token, { name: 'Hook' })).id;
});
afterAll(() => t?.close());

let n = 0;
async function hookWorkflow(signed: boolean) {
  const id = await createChainWorkflow(t, ada.token, `Hook flow ${++n}`, [agentId], {
    triggerType: 'webhook',
    triggerConfig: signed ? { signed: true } : {},
  });
  const res = await t.request({
    method: 'GET',
    url: `/api/workflows/${id}/webhook-secret`,
    token: ada.token,
  });
  return { id, secret: (res.json() as { secret: string }).secret };
}

async function call(workflowId: string, headers: Record<string, string>, payload = '{"order":7}') {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/webhooks/${workflowId}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload,
  });
  expect(res.statusCode).toBe(202);
  return (res.json() as { executionId: string }).executionId;
}

const run = async (id: string) =>
  (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: ada.token })).json() as Execution;

describe('webhook runs', () => {
  it('are untrusted when the call is proved by the secret alone', async () => {
    const { id, secret } = await hookWorkflow(false);
    const executionId = await call(id, { 'x-webhook-secret': secret });
    expect((await run(executionId)).untrusted).toBe(true);
  });

  it('are trusted when the call is signed, and so are runs a person starts', async () => {
    const { id, secret } = await hookWorkflow(true);
    const body = '{"order":8}';
    const timestamp = Math.floor(Date.now() / 1000);
    const executionId = await call(
      id,
      {
        'x-crewline-timestamp': String(timestamp),
        'x-crewline-signature': `v1=${signWebhookCall(secret, timestamp, body)}`,
      },
      body,
    );
    expect((await run(executionId)).untrusted).toBe(false);

    const manual = await t.request({
      method: 'POST',
      url: `/api/workflows/${id}/execute`,
      token: ada.token,
      payload: { input: {} },
    });
    expect(manual.statusCode).toBe(202);
    expect((await run(manual.json().id)).untrusted).toBe(false);
  });

  it('keep their mark when retried, though a person starts the retry', async () => {
    const { id, secret } = await hookWorkflow(false);
    const executionId = await call(id, { 'x-webhook-secret': secret });
    const cancelled = await t.request({
      method: 'POST',
      url: `/api/executions/${executionId}/cancel`,
      token: ada.token,
    });
    expect(cancelled.statusCode).toBeLessThan(300);
    const retried = await t.request({
      method: 'POST',
      url: `/api/executions/${executionId}/retry`,
      token: ada.token,
      payload: {},
    });
    expect(retried.statusCode).toBe(202);
    const retry = await run(retried.json().id);
    expect(retry.trigger).toBe('manual');
    expect(retry.untrusted).toBe(true);
  });
});
