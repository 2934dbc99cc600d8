import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workflow } from '@crewline/contracts';
import { nextRunTimes } from '@crewline/engine';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { chainOf } from '../../testing/workflow-shapes';

// docs/product-rules.md, Schedule trigger: what a save accepts, and the next tick it keeps.
let t: TestApp;
let token: string;
let agentId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ token } = await t.signup());
  agentId = (
    await t.request({
      method: 'POST',
      url: '/api/agents',
      token,
      payload: { name: 'Reporter', role: 'R', goal: 'G' },
    })
  ).json().id;
});
afterAll(() => t.close());

const cronMessage = 'Please enter a valid cron expression for scheduled workflows';
const create = (fields: Record<string, unknown>) =>
  t.request({
    method: 'POST',
    url: '/api/workflows',
    token,
    payload: { name: 'Morning report', ...chainOf([agentId]), ...fields },
  });
const update = (id: string, fields: Record<string, unknown>) =>
  t.request({ method: 'PUT', url: `/api/workflows/${id}`, token, payload: fields });
const read = async (id: string) =>
  (await t.request({ method: 'GET', url: `/api/workflows/${id}`, token })).json() as Workflow;
/** The tick the server should have written: the first after now (the cron rarely ticks near now). */
const expectedNext = (cron: string, timezone?: string) =>
  nextRunTimes(cron, timezone, new Date(), 1)[0].toISOString();

describe('saving a schedule workflow', () => {
  it.each(['', 'every morning', '0 9 * * * *', '0 0 9 * * 1-5 2026', '@daily', '61 * * * *', '0 9 L * *'])(
    'refuses the cron %j with 400 and the message, on create and on activate',
    async (cron) => {
      const created = await create({ triggerType: 'schedule', triggerConfig: { cron }, status: 'active' });
      expect(created.statusCode).toBe(400);
      expect(created.json().message).toBe(cronMessage);

      const manual = await create({ triggerType: 'manual', triggerConfig: { cron } });
      expect(manual.statusCode).toBe(201);
      const switched = await update(manual.json().id, { triggerType: 'schedule', status: 'active' });
      expect(switched.statusCode).toBe(400);
      expect(switched.json().message).toBe(cronMessage);
    },
  );

  it('refuses an unknown time zone with 400 naming it', async () => {
    const res = await create({
      triggerType: 'schedule',
      triggerConfig: { cron: '0 9 * * 1-5', timezone: 'Europe/Atlantis' },
      status: 'active',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('Unknown time zone "Europe/Atlantis"');

    const ok = await create({ triggerType: 'schedule', triggerConfig: { cron: '0 9 * * 1-5' } });
    expect(ok.statusCode).toBe(201);
    const bad = await update(ok.json().id, { triggerConfig: { cron: '0 9 * * 1-5', timezone: 'Mars/Base' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('"Mars/Base"');
  });

  it('keeps the next tick of an active schedule, in its zone, and null whenever it should not fire', async () => {
    const triggerConfig = { cron: '30 7 * * MON-FRI', timezone: 'Asia/Tokyo' };
    const res = await create({ triggerType: 'schedule', triggerConfig, status: 'active' });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    expect(res.json().nextRunAt).toBe(expectedNext('30 7 * * 1-5', 'Asia/Tokyo'));
    expect((await read(id)).nextRunAt).toBe(expectedNext('30 7 * * 1-5', 'Asia/Tokyo'));
    expect((await read(id)).triggerConfig).toMatchObject(triggerConfig);

    // Paused: no next run; active again: from now.
    expect((await update(id, { status: 'paused' })).json().nextRunAt).toBeNull();
    expect((await read(id)).nextRunAt).toBeNull();
    expect((await update(id, { status: 'active' })).json().nextRunAt).toBe(
      expectedNext('30 7 * * 1-5', 'Asia/Tokyo'),
    );

    // Editing the cron or the zone moves it at once.
    expect(
      (await update(id, { triggerConfig: { cron: '0 18 1 * *', timezone: 'America/New_York' } })).json()
        .nextRunAt,
    ).toBe(expectedNext('0 18 1 * *', 'America/New_York'));
    expect((await update(id, { triggerConfig: { cron: '0 18 1 * *' } })).json().nextRunAt).toBe(
      expectedNext('0 18 1 * *', 'UTC'),
    );

    // Draft, or another trigger type: nothing fires.
    expect((await update(id, { status: 'draft' })).json().nextRunAt).toBeNull();
    expect((await update(id, { status: 'active' })).json().nextRunAt).not.toBeNull();
    expect((await update(id, { triggerType: 'manual' })).json().nextRunAt).toBeNull();
    expect((await read(id)).nextRunAt).toBeNull();

    // Restoring a version that was a schedule brings its next tick back.
    const versions = (
      await t.request({ method: 'GET', url: `/api/workflows/${id}/versions`, token })
    ).json() as { version: number }[];
    const restored = await t.request({
      method: 'POST',
      url: `/api/workflows/${id}/versions/${versions.at(-1)!.version}/restore`,
      token,
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ triggerType: 'schedule', status: 'active' });
    expect(restored.json().nextRunAt).toBe(expectedNext('30 7 * * 1-5', 'Asia/Tokyo'));
  });

  it('has no next run as a draft schedule or an active manual workflow', async () => {
    const draft = await create({ triggerType: 'schedule', triggerConfig: { cron: '* * * * *' } });
    expect(draft.json()).toMatchObject({ status: 'draft', nextRunAt: null });
    const manual = await create({ status: 'active' });
    expect(manual.json()).toMatchObject({ status: 'active', nextRunAt: null });
  });
});
