import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startQueue, type Queue } from '../../platform/queue';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startWorkerRole } from './worker-role';

let t: TestApp;
let boss: Queue;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  boss = await startQueue(t.database.url, pino({ level: 'silent' }));
  ({ token } = await t.signup());
});
afterAll(async () => {
  await boss.stop({ graceful: false });
  await t.close();
});

const engine = async () =>
  (await t.request({ method: 'GET', url: '/api/system/status', token })).json().workflowEngine;

describe('the worker role', () => {
  it('shows as a running worker in the system status while started with a heartbeat, and no longer once stopped', async () => {
    expect(await engine()).toEqual({ status: 'down', detail: 'No worker is running' });
    const role = await startWorkerRole({
      boss,
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

  it('is the only code that names pg-boss tables: platform/queue', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const sources = (readdirSync(root, { recursive: true }) as string[]).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.startsWith('testing'),
    );
    const naming = sources.filter((file) => /\bpgboss\./.test(readFileSync(path.join(root, file), 'utf8')));
    expect(naming).toEqual([path.join('platform', 'queue.ts')]);
  });
});
