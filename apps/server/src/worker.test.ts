import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testing/test-app';
import { startWorkerRole } from './worker';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.signup());
});
afterAll(async () => {
  await t.close();
});

const engine = async () =>
  (await t.request({ method: 'GET', url: '/api/system/status', token })).json().workflowEngine;

describe('the worker role', () => {
  it('shows as a running worker in the system status while started with a heartbeat, and no longer once stopped', async () => {
    expect(await engine()).toEqual({ status: 'down', detail: 'No worker is running' });
    const role = await startWorkerRole({
      services: t.services,
      config: t.config,
      drainMs: 0,
      heartbeat: true,
    });
    try {
      expect(await engine()).toEqual({ status: 'operational', detail: '1 worker running' });
    } finally {
      await role.stop();
    }
    expect(await engine()).toEqual({ status: 'down', detail: 'No worker is running' });
  });
});
