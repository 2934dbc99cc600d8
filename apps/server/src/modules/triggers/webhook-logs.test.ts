import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { loggerOptions } from '../../platform/logger';
import { createAgent, createChainWorkflow } from '../../testing/app-fixtures';

// A webhook secret never reaches a log line, whether it travels in the query, a header or a save.
const logLines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    logger: {
      ...loggerOptions('trace'),
      stream: new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }),
    },
  });
});
afterAll(() => t?.close());

it('keeps webhook secrets out of the logs', async () => {
  const ada = await t.signup();
  const agent = await createAgent(t, ada.token, { name: 'Logged' });
  const typed = `typed-secret-${'q'.repeat(32)}`;
  const id = await createChainWorkflow(t, ada.token, 'Logged hook', [agent.id], {
    triggerType: 'webhook',
    triggerConfig: { secret: typed },
  });
  const revealed = await t.request({
    method: 'GET',
    url: `/api/workflows/${id}/webhook-secret`,
    token: ada.token,
  });
  expect(revealed.json().secret).toBe(typed);
  const rotated = await t.request({
    method: 'POST',
    url: `/api/workflows/${id}/webhook-secret`,
    token: ada.token,
  });
  const secret = rotated.json().secret as string;

  // Right and wrong, in the query and in the header (this app has no queue: a right one answers 503).
  const wrong = `wrong-secret-${'w'.repeat(32)}`;
  for (const s of [secret, wrong]) {
    await t.request({ method: 'POST', url: `/api/webhooks/${id}?secret=${s}`, payload: { a: 1 } });
    await t.request({
      method: 'POST',
      url: `/api/webhooks/${id}`,
      headers: { 'x-webhook-secret': s },
      payload: {},
    });
  }
  expect(logLines.some((line) => line.includes(`/api/webhooks/${id}`))).toBe(true);
  for (const s of [typed, secret, wrong]) {
    expect(logLines.filter((line) => line.includes(s))).toEqual([]);
  }
});
