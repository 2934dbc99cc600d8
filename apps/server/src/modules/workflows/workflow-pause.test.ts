import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowExecutions, workflows } from '@crewline/db';
import type { AuthResponse } from '@crewline/contracts';
import { createAgent, createChainWorkflow, joinOrganization } from '../../testing/app-fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createScheduler } from '../triggers/scheduler';

// Pause and resume (docs/product-rules.md): PUT { status: 'paused' } / { status: 'active' }.
let t: TestApp;
let ada: AuthResponse;
let member: AuthResponse;
let agentId: string;
let clock = new Date();

beforeAll(async () => {
  t = await createTestApp();
  ada = await t.signup();
  member = await joinOrganization(t, ada, await t.signup(), 'member');
  agentId = (await createAgent(t, ada.token, { name: 'Reporter' })).id;
});
afterAll(() => t.close());

const setStatus = (id: string, status: string, token = member.token) =>
  t.request({ method: 'PUT', url: `/api/workflows/${id}`, token, payload: { status } });
const execute = (id: string) =>
  t.request({ method: 'POST', url: `/api/workflows/${id}/execute`, token: member.token, payload: {} });
const runsOf = (id: string) =>
  t.db.select().from(workflowExecutions).where(eq(workflowExecutions.workflowId, id));
/** Makes the workflow's tick due a few seconds ago, as if it had been saved long ago. */
const makeDue = (id: string) =>
  t.db
    .update(workflows)
    .set({ nextRunAt: new Date(clock.getTime() - 5_000), updatedAt: sql`updated_at` })
    .where(eq(workflows.id, id));

describe('pausing and resuming a workflow', () => {
  it('stops its schedule and its runs while paused, and resumes both', async () => {
    clock = new Date();
    const scheduler = createScheduler({
      repository: t.services.schedules,
      triggers: t.services.triggers,
      now: () => clock,
    });
    const id = await createChainWorkflow(t, ada.token, 'Every minute', [agentId], {
      triggerType: 'schedule',
      triggerConfig: { cron: '* * * * *' },
    });

    const paused = await setStatus(id, 'paused');
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ id, status: 'paused', name: 'Every minute', nextRunAt: null });
    expect(
      (await t.request({ method: 'GET', url: `/api/workflows/${id}`, token: ada.token })).json().status,
    ).toBe('paused');

    const refused = await execute(id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This workflow is paused and cannot be run.');

    // A tick that is due (left behind before the pause) starts no run while paused.
    await makeDue(id);
    expect(await scheduler.poll()).toBe(0);
    expect(await runsOf(id)).toHaveLength(0);

    const resumed = await setStatus(id, 'active');
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().status).toBe('active');
    expect(resumed.json().nextRunAt).not.toBeNull();
    expect((await execute(id)).statusCode).toBe(202);
    await makeDue(id);
    expect(await scheduler.poll()).toBe(1);
    expect((await runsOf(id)).map((run) => run.trigger).sort()).toEqual(['manual', 'schedule']);
  });

  it('answers 409 to any other way into or out of paused', async () => {
    const draft = await createChainWorkflow(t, ada.token, 'Draft', [agentId], { status: 'draft' });
    const intoPaused = await setStatus(draft, 'paused');
    expect(intoPaused.statusCode).toBe(409);
    expect(intoPaused.json().message).toBe('Only an active workflow can be paused; this one is draft.');
    expect((await t.db.select().from(workflows).where(eq(workflows.id, draft)))[0].status).toBe('draft');

    const id = await createChainWorkflow(t, ada.token, 'Live', [agentId]);
    expect((await setStatus(id, 'paused')).statusCode).toBe(200);
    // Pausing again leaves it paused: not a transition.
    expect((await setStatus(id, 'paused')).statusCode).toBe(200);
    for (const status of ['draft', 'completed', 'failed']) {
      const res = await setStatus(id, status);
      expect({ status, code: res.statusCode, message: res.json().message }).toEqual({
        status,
        code: 409,
        message: 'A paused workflow can only be resumed: set its status to active.',
      });
    }
    expect((await t.db.select().from(workflows).where(eq(workflows.id, id)))[0].status).toBe('paused');
  });

  it('resumes only a workflow that could be activated', async () => {
    const doomed = await createAgent(t, ada.token, { name: 'Doomed' });
    const id = await createChainWorkflow(t, ada.token, 'Fragile', [doomed.id]);
    expect((await setStatus(id, 'paused')).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/agents/${doomed.id}`, token: ada.token })).statusCode,
    ).toBeLessThan(300);
    const res = await setStatus(id, 'active');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'Step "Untitled" uses an agent that was deleted. Open the workflow and choose another agent.',
    );
    expect((await t.db.select().from(workflows).where(eq(workflows.id, id)))[0].status).toBe('paused');
  });
});
