import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { workflowVersions, workflows } from '@crewline/db';
import { WEBHOOK_SECRET_MASK, type AuthResponse, type Execution } from '@crewline/contracts';
import { countRuns } from '../../testing/direct-rows';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { configureModel, createAgent, createChainWorkflow, waitForRunEnd } from '../../testing/app-fixtures';

const LIMIT = 4;

let t: TestApp;
let ada: AuthResponse;
let bob: AuthResponse;
let fake: FakeLlmServer;
let agentId: string;

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp({
    worker: true,
    config: { webhookMaxPerMinute: LIMIT, publicUrl: 'https://crew.example.com' },
  });
  ada = await t.signup({ firstName: 'Ada', lastName: 'Lovelace' });
  bob = await t.signup();
  await configureModel(t, ada.token, fake.url, { defaultModel: 'gpt-4o' });
  agentId = (await createAgent(t, ada.token, { name: 'Hook' })).id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

let n = 0;
/** An active webhook workflow (Start → Hook → End) and its revealed secret. */
async function webhookWorkflow(fields: Record<string, unknown> = {}) {
  const id = await createChainWorkflow(t, ada.token, `Hook flow ${++n}`, [agentId], {
    triggerType: 'webhook',
    ...fields,
  });
  const res = await t.request({
    method: 'GET',
    url: `/api/workflows/${id}/webhook-secret`,
    token: ada.token,
  });
  expect(res.statusCode).toBe(200);
  return { id, ...(res.json() as { secret: string; url: string }) };
}

const call = (
  workflowId: string,
  opts: { secret?: string; query?: string; payload?: string | object; contentType?: string } = {},
) =>
  t.request({
    method: 'POST',
    url: `/api/webhooks/${workflowId}${opts.query ? `?${opts.query}` : ''}`,
    headers: {
      ...(opts.secret !== undefined ? { 'x-webhook-secret': opts.secret } : {}),
      ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
    },
    payload: opts.payload,
  });

const runsOf = (workflowId: string) => countRuns(t, workflowId);

const run = async (executionId: string) =>
  (
    await t.request({ method: 'GET', url: `/api/executions/${executionId}`, token: ada.token })
  ).json() as Execution;

describe('POST /api/webhooks/:workflowId', () => {
  it('starts a run with the header secret: the JSON object is its input, the trigger webhook, nobody triggered it', async () => {
    const hook = await webhookWorkflow();
    expect(hook.secret.length).toBeGreaterThanOrEqual(32);
    expect(hook.secret).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(hook.url).toBe(`https://crew.example.com/api/webhooks/${hook.id}`);

    const body = { event: 'order.created', order: { id: 42, items: ['a', 'b'] } };
    const res = await call(hook.id, { secret: hook.secret, payload: body });
    expect(res.statusCode).toBe(202);
    const answer = res.json() as { executionId: string; status: string };
    // Queued, or claimed as it started by an idle worker loop (docs/decisions/0058).
    expect(answer).toEqual({
      executionId: expect.any(String),
      status: expect.stringMatching(/^(pending|running)$/),
    });
    expect(await run(answer.executionId)).toMatchObject({
      workflowId: hook.id,
      input: body,
      trigger: 'webhook',
      triggeredBy: null,
    });
    await waitForRunEnd(t, ada.token, answer.executionId);
  });

  it('accepts the secret as ?secret= too', async () => {
    const hook = await webhookWorkflow();
    const res = await call(hook.id, {
      query: `secret=${encodeURIComponent(hook.secret)}`,
      payload: { a: 1 },
    });
    expect(res.statusCode).toBe(202);
    expect((await run(res.json().executionId)).input).toEqual({ a: 1 });
    await waitForRunEnd(t, ada.token, res.json().executionId);
  });

  it('wraps non-object JSON, form and text bodies as { payload }, and takes no body as {}', async () => {
    const cases: { payload?: string; contentType?: string; input: unknown }[] = [
      { payload: '[1,2,3]', contentType: 'application/json', input: { payload: [1, 2, 3] } },
      { payload: '"hello"', contentType: 'application/json', input: { payload: 'hello' } },
      { payload: '42', contentType: 'application/json', input: { payload: 42 } },
      { payload: 'null', contentType: 'application/json', input: { payload: null } },
      {
        payload: 'name=Ada&tag=a&tag=b&empty=',
        contentType: 'application/x-www-form-urlencoded',
        input: { payload: { name: 'Ada', tag: ['a', 'b'], empty: '' } },
      },
      { payload: 'plain words', contentType: 'text/plain', input: { payload: 'plain words' } },
      { payload: '<a>1</a>', contentType: 'application/xml', input: { payload: '<a>1</a>' } },
      { input: {} },
    ];
    for (const c of cases) {
      // A workflow each: the test's limit is a few calls a minute per workflow.
      const hook = await webhookWorkflow();
      const res = await call(hook.id, {
        secret: hook.secret,
        payload: c.payload,
        contentType: c.contentType,
      });
      expect({ c, status: res.statusCode }).toEqual({ c, status: 202 });
      expect((await run(res.json().executionId)).input).toEqual(c.input);
      // Ended before the next test scripts the model: a run still going would take its answer.
      await waitForRunEnd(t, ada.token, res.json().executionId);
    }
  });

  it('?wait=true answers 200 with the output map of the finished run', async () => {
    const hook = await webhookWorkflow();
    fake.script([{ content: 'Webhook answer' }]);
    const res = await call(hook.id, { secret: hook.secret, query: 'wait=true', payload: { q: 'hi' } });
    expect(res.statusCode).toBe(200);
    const answer = res.json() as { executionId: string; status: string; output: Record<string, unknown> };
    expect(answer.status).toBe('completed');
    expect(answer.output.n1).toMatchObject({ content: 'Webhook answer' });
    expect(answer.output).toEqual((await run(answer.executionId)).output);
  });

  it('refuses a wrong or missing secret and an unknown or non-webhook workflow alike (401), a paused one (409), each without a run', async () => {
    const hook = await webhookWorkflow();
    const manual = await createChainWorkflow(t, ada.token, 'Manual flow', [agentId]);
    const paused = await webhookWorkflow();
    expect(
      (
        await t.request({
          method: 'PUT',
          url: `/api/workflows/${paused.id}`,
          token: ada.token,
          payload: { status: 'paused' },
        })
      ).statusCode,
    ).toBe(200);

    const refusals: [Awaited<ReturnType<typeof call>>, number, string][] = [
      [await call(hook.id, { secret: 'wrong', payload: {} }), 401, 'Missing or invalid webhook secret'],
      [await call(hook.id, { payload: {} }), 401, 'Missing or invalid webhook secret'],
      [await call(hook.id, { query: 'secret=', payload: {} }), 401, 'Missing or invalid webhook secret'],
      [
        await call(hook.id, { secret: `${hook.secret}x`, payload: {} }),
        401,
        'Missing or invalid webhook secret',
      ],
      // Which ids are webhook workflows cannot be probed: the same answer as a wrong secret.
      [
        await call('00000000-0000-4000-8000-000000000000', { secret: hook.secret, payload: {} }),
        401,
        'Missing or invalid webhook secret',
      ],
      [
        await call('not-a-uuid', { secret: hook.secret, payload: {} }),
        401,
        'Missing or invalid webhook secret',
      ],
      [await call(manual, { secret: hook.secret, payload: {} }), 401, 'Missing or invalid webhook secret'],
      [await call(paused.id, { secret: paused.secret, payload: {} }), 409, 'Workflow is not active'],
      // The secret of another workflow does not open this one.
      [await call(paused.id, { secret: hook.secret, payload: {} }), 401, 'Missing or invalid webhook secret'],
    ];
    for (const [res, status, message] of refusals) {
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { message } });
    }
    expect(await runsOf(hook.id)).toBe(0);
    expect(await runsOf(manual)).toBe(0);
    expect(await runsOf(paused.id)).toBe(0);
  });

  it('answers 413 as JSON to a body over 1 MiB, without a run', async () => {
    const hook = await webhookWorkflow();
    for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      const big =
        contentType === 'application/json'
          ? `{"a":"${'x'.repeat(1024 * 1024)}"}`
          : 'x'.repeat(1024 * 1024 + 1);
      const res = await call(hook.id, { secret: hook.secret, payload: big, contentType });
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toEqual(expect.any(String));
    }
    expect(await runsOf(hook.id)).toBe(0);
  });

  it(`answers 429 with Retry-After past ${LIMIT} calls a minute, per workflow`, async () => {
    const hook = await webhookWorkflow();
    const other = await webhookWorkflow();
    for (let i = 0; i < LIMIT; i++) {
      expect((await call(hook.id, { secret: hook.secret, payload: { i } })).statusCode).toBe(202);
    }
    const refused = await call(hook.id, { secret: hook.secret, payload: { i: LIMIT } });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json().message).toMatch(/Too many webhook calls/);
    expect(await runsOf(hook.id)).toBe(LIMIT);
    // Another workflow has its own minute.
    expect((await call(other.id, { secret: other.secret, payload: {} })).statusCode).toBe(202);
  });

  it('keeps the rest of the API on JSON: a form body elsewhere is still 415', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/agents',
      token: ada.token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=a',
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('the webhook secret', () => {
  it('rotation: the old secret stops working at once, the new one starts runs', async () => {
    const hook = await webhookWorkflow();
    const rotated = await t.request({
      method: 'POST',
      url: `/api/workflows/${hook.id}/webhook-secret`,
      token: ada.token,
    });
    expect(rotated.statusCode).toBe(200);
    const next = rotated.json() as { secret: string; url: string };
    expect(next.secret).not.toBe(hook.secret);
    expect(next.url).toBe(hook.url);
    expect((await call(hook.id, { secret: hook.secret, payload: {} })).statusCode).toBe(401);
    expect((await call(hook.id, { secret: next.secret, payload: {} })).statusCode).toBe(202);
    const revealed = await t.request({
      method: 'GET',
      url: `/api/workflows/${hook.id}/webhook-secret`,
      token: ada.token,
    });
    expect(revealed.json().secret).toBe(next.secret);
  });

  it('is sealed in its column, never in trigger_config, answers or versions, and kept by saves of the mask', async () => {
    const typed = 'my-typed-secret-0123456789-abcdefghij';
    const created = await t.request({
      method: 'POST',
      url: '/api/workflows',
      token: ada.token,
      payload: {
        name: 'Sealed',
        status: 'active',
        triggerType: 'webhook',
        triggerConfig: { secret: typed },
        nodes: [
          { id: 'start', type: 'start', position: { x: 0, y: 0 } },
          { id: 'n1', type: 'agent', agentId, position: { x: 1, y: 0 } },
          { id: 'end', type: 'end', position: { x: 2, y: 0 } },
        ],
        edges: [
          { id: 'a', source: 'start', target: 'n1' },
          { id: 'b', source: 'n1', target: 'end' },
        ],
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect(created.json().triggerConfig).toEqual({ secret: WEBHOOK_SECRET_MASK });

    const [row] = await t.db.select().from(workflows).where(eq(workflows.id, id));
    expect(row.webhookSecret).toMatch(/^v1:/);
    expect(row.webhookSecret).not.toContain(typed);
    expect(row.triggerConfig).toEqual({});

    // Saving the mask back (what the builder does) keeps it; so does a save without a secret.
    for (const triggerConfig of [{ secret: WEBHOOK_SECRET_MASK }, {}]) {
      const saved = await t.request({
        method: 'PUT',
        url: `/api/workflows/${id}`,
        token: ada.token,
        payload: { description: 'edited', triggerConfig },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().triggerConfig).toEqual({ secret: WEBHOOK_SECRET_MASK });
    }
    expect((await call(id, { secret: typed, payload: {} })).statusCode).toBe(202);

    const answers = [
      await t.request({ method: 'GET', url: `/api/workflows/${id}`, token: ada.token }),
      await t.request({ method: 'GET', url: '/api/workflows', token: ada.token }),
      await t.request({ method: 'GET', url: `/api/workflows/${id}/versions`, token: ada.token }),
      await t.request({ method: 'GET', url: `/api/workflows/${id}/versions/1`, token: ada.token }),
      await t.request({ method: 'GET', url: `/api/workflows/${id}/versions/2`, token: ada.token }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(typed);
    }
    expect(answers[3].json().triggerConfig).toEqual({});
    const versions = await t.db.select().from(workflowVersions).where(eq(workflowVersions.workflowId, id));
    expect(versions.length).toBeGreaterThan(1);
    for (const version of versions) expect(JSON.stringify(version)).not.toContain(typed);

    // A restore keeps the secret too.
    const restored = await t.request({
      method: 'POST',
      url: `/api/workflows/${id}/versions/1/restore`,
      token: ada.token,
    });
    expect(restored.statusCode).toBe(200);
    expect((await call(id, { secret: typed, payload: {} })).statusCode).toBe(202);

    // A new secret typed in a save replaces it.
    const replaced = 'a-brand-new-secret-0123456789-abcdefgh';
    await t.request({
      method: 'PUT',
      url: `/api/workflows/${id}`,
      token: ada.token,
      payload: { triggerConfig: { secret: replaced } },
    });
    expect((await call(id, { secret: typed, payload: {} })).statusCode).toBe(401);
    expect((await call(id, { secret: replaced, payload: {} })).statusCode).toBe(202);
    expect(t.responseBodies.some((body) => body.includes(replaced))).toBe(false);
  });

  it('moves a plaintext secret from before into the sealed column on the next save', async () => {
    const id = await createChainWorkflow(t, ada.token, 'Legacy', [agentId], { triggerType: 'webhook' });
    const legacy = 'legacy-plain-secret-0123456789-abcdefgh';
    await t.db
      .update(workflows)
      .set({ webhookSecret: null, triggerConfig: { secret: legacy } })
      .where(eq(workflows.id, id));
    // Before the save it still works, and answers show only the mask.
    expect((await call(id, { secret: legacy, payload: {} })).statusCode).toBe(202);
    const shown = await t.request({ method: 'GET', url: `/api/workflows/${id}`, token: ada.token });
    expect(shown.json().triggerConfig).toEqual({ secret: WEBHOOK_SECRET_MASK });

    const saved = await t.request({
      method: 'PUT',
      url: `/api/workflows/${id}`,
      token: ada.token,
      payload: { description: 'touched' },
    });
    expect(saved.statusCode).toBe(200);
    const [row] = await t.db.select().from(workflows).where(eq(workflows.id, id));
    expect(row.triggerConfig).toEqual({});
    expect(row.webhookSecret).toMatch(/^v1:/);
    expect((await call(id, { secret: legacy, payload: {} })).statusCode).toBe(202);
  });

  it('a webhook workflow saved without a secret gets one; switching away drops it', async () => {
    const id = await createChainWorkflow(t, ada.token, 'Generated', [agentId], { triggerType: 'webhook' });
    const [row] = await t.db.select().from(workflows).where(eq(workflows.id, id));
    expect(row.webhookSecret).toMatch(/^v1:/);
    await t.request({
      method: 'PUT',
      url: `/api/workflows/${id}`,
      token: ada.token,
      payload: { triggerType: 'manual' },
    });
    const [after] = await t.db.select().from(workflows).where(eq(workflows.id, id));
    expect(after.webhookSecret).toBeNull();
    const reveal = await t.request({
      method: 'GET',
      url: `/api/workflows/${id}/webhook-secret`,
      token: ada.token,
    });
    expect(reveal.statusCode).toBe(409);
    expect(reveal.json().message).toMatch(/not started by a webhook/);
  });

  it('is revealed and rotated only for members of the organization (another one: 404)', async () => {
    const hook = await webhookWorkflow();
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.request({
        method,
        url: `/api/workflows/${hook.id}/webhook-secret`,
        token: bob.token,
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(hook.secret);
      const anonymous = await t.request({ method, url: `/api/workflows/${hook.id}/webhook-secret` });
      expect(anonymous.statusCode).toBe(401);
    }
    // Bob's failed rotation changed nothing.
    expect((await call(hook.id, { secret: hook.secret, payload: {} })).statusCode).toBe(202);
  });
});
