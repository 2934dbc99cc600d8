import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { webhookSignaturesSeen } from '@crewline/db';
import {
  WEBHOOK_FAILURE_WINDOW_SECONDS,
  WEBHOOK_MAX_FAILURES,
  webhookMessages,
  type AuthResponse,
} from '@crewline/contracts';
import { buildApp, createServices } from '../../app';
import { createEventBus } from '../../platform/events';
import { countRuns } from '../../testing/direct-rows';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAgent, createChainWorkflow } from '../../testing/app-fixtures';
import { checkWebhookSignature, signWebhookCall } from './webhook-signature';

let t: TestApp;
let ada: AuthResponse;
let agentId: string;
/** A second API process on the same database: what one process saw, the other must know. */
let second: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({ config: { webhookMaxPerMinute: 1000 } });
  ada = await t.signup();
  agentId = (await createAgent(t, ada.token, { name: 'Signed hook' })).id;
  const deps = { config: t.config, db: t.db, logger: false, events: createEventBus(), reserved: t.reserved };
  second = await buildApp(deps, createServices(deps));
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

let n = 0;
/** A webhook workflow (signed unless told otherwise) and its secret. */
async function hookWorkflow(signed = true) {
  const id = await createChainWorkflow(t, ada.token, `Signed flow ${++n}`, [agentId], {
    triggerType: 'webhook',
    triggerConfig: signed ? { signed: true } : {},
  });
  const res = await t.request({
    method: 'GET',
    url: `/api/workflows/${id}/webhook-secret`,
    token: ada.token,
  });
  expect(res.statusCode).toBe(200);
  return { id, secret: (res.json() as { secret: string }).secret };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The headers of a call signed as the README tells callers to sign it. */
function signedHeaders(secret: string, body: string, timestamp = nowSeconds()) {
  return {
    'x-crewline-timestamp': String(timestamp),
    'x-crewline-signature': `v1=${signWebhookCall(secret, timestamp, body)}`,
  };
}

const call = (
  workflowId: string,
  opts: {
    headers?: Record<string, string>;
    payload?: string;
    contentType?: string;
    via?: FastifyInstance;
  } = {},
) =>
  (opts.via ?? t.app).inject({
    method: 'POST',
    url: `/api/webhooks/${workflowId}`,
    headers: { 'content-type': opts.contentType ?? 'application/json', ...opts.headers },
    payload: opts.payload ?? '{}',
  });

const runsOf = (workflowId: string) => countRuns(t, workflowId);

const refused = { message: webhookMessages.badSecret };

describe('signed webhook calls', () => {
  it('the signature is HMAC-SHA256 of "timestamp.body", compared whatever the case of its hex', () => {
    const body = Buffer.from('{"a":1}');
    const signature = signWebhookCall('s3cret', 1_800_000_000, body);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    const now = new Date(1_800_000_000_000);
    const check = (header: string) =>
      checkWebhookSignature({ secret: 's3cret', timestamp: '1800000000', signature: header, body, now });
    expect(check(`v1=${signature.toUpperCase()}`)).toEqual({
      ok: true,
      signature,
      timestamp: 1_800_000_000,
    });
    expect(check(`v0=abc, v1=${signature}`).ok).toBe(true);
    expect(check(`v1=${signature.slice(0, 63)}`)).toEqual({ ok: false, reason: 'malformed' });
    expect(check(`v1=${'0'.repeat(64)}`)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('a valid signed call starts a run with its body; the signature covers the raw bytes of any body', async () => {
    const hook = await hookWorkflow();
    const json = '{ "event": "order.created",  "id": 7 }';
    const res = await call(hook.id, { payload: json, headers: signedHeaders(hook.secret, json) });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ executionId: expect.any(String), status: 'pending' });

    const form = 'name=Ada&tag=a&tag=b';
    const formCall = await call(hook.id, {
      payload: form,
      contentType: 'application/x-www-form-urlencoded',
      headers: signedHeaders(hook.secret, form),
    });
    expect(formCall.statusCode).toBe(202);
    expect(await runsOf(hook.id)).toBe(2);
    const saved = await t.request({ method: 'GET', url: `/api/workflows/${hook.id}`, token: ada.token });
    expect(saved.json().triggerConfig).toMatchObject({ signed: true });
  });

  it('refuses a missing, old, future or wrong signature with 401 and starts nothing', async () => {
    const hook = await hookWorkflow();
    const body = '{"a":1}';
    const now = nowSeconds();
    const cases: Record<string, string>[] = [
      // Unsigned: the secret alone no longer opens a signed workflow.
      { 'x-webhook-secret': hook.secret },
      {},
      { 'x-crewline-signature': signedHeaders(hook.secret, body)['x-crewline-signature'] },
      { 'x-crewline-timestamp': String(now) },
      // A minute past the five-minute window either way: a slow machine's clock moves on during the loop.
      signedHeaders(hook.secret, body, now - 360),
      signedHeaders(hook.secret, body, now + 360),
      signedHeaders('another secret', body, now),
      signedHeaders(hook.secret, '{"a":2}', now),
      { ...signedHeaders(hook.secret, body, now), 'x-crewline-timestamp': String(now + 1) },
      { 'x-crewline-timestamp': 'soon', 'x-crewline-signature': 'v1=zz' },
    ];
    for (const headers of cases) {
      const res = await call(hook.id, { payload: body, headers });
      expect({ status: res.statusCode, body: res.json() }, JSON.stringify(headers)).toEqual({
        status: 401,
        body: refused,
      });
    }
    expect(await runsOf(hook.id)).toBe(0);
  });

  it('refuses a replayed call (401, no second run), also when another API process receives it', async () => {
    const hook = await hookWorkflow();
    const body = '{"order":1}';
    const headers = signedHeaders(hook.secret, body);
    expect((await call(hook.id, { payload: body, headers })).statusCode).toBe(202);
    const again = await call(hook.id, { payload: body, headers });
    expect({ status: again.statusCode, body: again.json() }).toEqual({ status: 401, body: refused });
    const elsewhere = await call(hook.id, { payload: body, headers, via: second });
    expect({ status: elsewhere.statusCode, body: elsewhere.json() }).toEqual({ status: 401, body: refused });
    expect(await runsOf(hook.id)).toBe(1);
    // Remembered past the tolerance window, in Postgres.
    const [seen] = await t.db
      .select()
      .from(webhookSignaturesSeen)
      .where(eq(webhookSignaturesSeen.workflowId, hook.id));
    expect(seen.signature).toBe(headers['x-crewline-signature'].slice(3));
    expect(seen.expiresAt.getTime()).toBeGreaterThanOrEqual(
      (Number(headers['x-crewline-timestamp']) + 300) * 1000,
    );

    // The same body signed at another second is another call.
    const later = signedHeaders(hook.secret, body, Number(headers['x-crewline-timestamp']) - 1);
    expect((await call(hook.id, { payload: body, headers: later, via: second })).statusCode).toBe(202);
    expect(await runsOf(hook.id)).toBe(2);
  });

  it('keeps the 1 MiB body limit for signed calls (413, nothing started)', async () => {
    const hook = await hookWorkflow();
    const big = `{"a":"${'x'.repeat(1024 * 1024)}"}`;
    const res = await call(hook.id, { payload: big, headers: signedHeaders(hook.secret, big) });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toEqual(expect.any(String));
    expect(await runsOf(hook.id)).toBe(0);
  });

  it('unsigned workflows keep working with the secret', async () => {
    const hook = await hookWorkflow(false);
    const res = await call(hook.id, { headers: { 'x-webhook-secret': hook.secret } });
    expect(res.statusCode).toBe(202);
    expect(await runsOf(hook.id)).toBe(1);
  });
});

describe('refused calls', () => {
  it(`answers 429 to refused calls after ${WEBHOOK_MAX_FAILURES} of them, never to the right secret`, async () => {
    const hook = await hookWorkflow(false);
    for (let i = 0; i < WEBHOOK_MAX_FAILURES; i++) {
      const res = await call(hook.id, { headers: { 'x-webhook-secret': `wrong ${i}` } });
      expect(res.statusCode).toBe(401);
    }
    const res = await call(hook.id, { headers: { 'x-webhook-secret': 'wrong again' } });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many refused webhook calls for this workflow; try again in/);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WEBHOOK_FAILURE_WINDOW_SECONDS);
    expect(await runsOf(hook.id)).toBe(0);
    // Whoever knows the id (it is in the URL) cannot stop the workflow's real callers.
    expect((await call(hook.id, { headers: { 'x-webhook-secret': hook.secret } })).statusCode).toBe(202);
    expect(await runsOf(hook.id)).toBe(1);
  });

  it('bad signatures count toward the same limit', async () => {
    const hook = await hookWorkflow();
    for (let i = 0; i < WEBHOOK_MAX_FAILURES; i++) {
      const res = await call(hook.id, { headers: signedHeaders('wrong', '{}') });
      expect(res.statusCode).toBe(401);
    }
    expect((await call(hook.id, { headers: signedHeaders('wrong', '{}') })).statusCode).toBe(429);
    const valid = await call(hook.id, { headers: signedHeaders(hook.secret, '{}') });
    expect(valid.statusCode).toBe(202);
    expect(await runsOf(hook.id)).toBe(1);
  });

  it('an unknown id answers exactly as a wrong secret does, through to the 429', async () => {
    const hook = await hookWorkflow(false);
    const unknown = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const answer = async (id: string) => {
      const res = await call(id, { headers: { 'x-webhook-secret': 'guess' } });
      return { status: res.statusCode, body: res.body, type: res.headers['content-type'] };
    };
    for (let i = 0; i < WEBHOOK_MAX_FAILURES; i++) {
      const [real, none] = [await answer(hook.id), await answer(unknown)];
      expect(none).toEqual(real);
      expect(real).toMatchObject({ status: 401, body: JSON.stringify(refused) });
    }
    const [real, none] = [await answer(hook.id), await answer(unknown)];
    expect(real.status).toBe(429);
    expect(none.status).toBe(429);
  });
});
