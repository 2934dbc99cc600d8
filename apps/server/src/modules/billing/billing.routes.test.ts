import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { subscriptions, workflowExecutions } from '@crewline/db';
import {
  FREE_LIMITS,
  PLAN_LIMITS,
  billingMessages,
  roleRequired,
  subscriptionStatusResponseSchema,
  type AuthResponse,
  type SubscriptionStatusResponse,
} from '@crewline/contracts';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAgent, createChainWorkflow, joinOrganization } from '../../testing/app-fixtures';

const DAY = 86_400_000;
// Mid-month, so moving the clock a few days keeps the real month the executions are stored in.
let nowMs = Date.now();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock: () => new Date(nowMs) });
});
afterAll(() => t.close());
beforeEach(() => {
  nowMs = Date.now();
});

const seconds = (ms: number) => Math.floor(ms / 1000);

async function status(who: AuthResponse): Promise<SubscriptionStatusResponse> {
  const res = await t.request({ method: 'GET', url: '/api/subscription-status', token: who.token });
  expect(res.statusCode).toBe(200);
  return subscriptionStatusResponseSchema.parse(res.json());
}

/** Execute on a workflow, as its Execute button does. */
function execute(who: AuthResponse, workflowId: string) {
  return t.request({
    method: 'POST',
    url: `/api/workflows/${workflowId}/execute`,
    token: who.token,
    payload: {},
  });
}

function subscribe(who: AuthResponse, planId: string, amount: number) {
  return t.request({
    method: 'POST',
    url: '/api/create-subscription',
    token: who.token,
    payload: { planId, amount },
  });
}

const cancel = (who: AuthResponse) =>
  t.request({ method: 'POST', url: '/api/cancel-subscription', token: who.token, payload: {} });

async function invite(owner: AuthResponse, email: string) {
  return t.request({
    method: 'POST',
    url: `/api/organizations/${owner.organization.id}/invitations`,
    token: owner.token,
    payload: { email, role: 'member' },
  });
}

/** Makes the organization a paid subscription (what a payment provider reports), ending in `days`. */
async function makeActive(who: AuthResponse, plan: 'starter' | 'professional' | 'enterprise', days = 30) {
  await t.db
    .update(subscriptions)
    .set({
      plan,
      subscriptionStatus: 'active',
      trialEndsAt: null,
      currentPeriodEnd: new Date(nowMs + days * DAY),
      cancelAtPeriodEnd: false,
      pendingPlan: null,
    })
    .where(eq(subscriptions.organizationId, who.organization.id));
}

describe('trial at sign-up', () => {
  it('starts a 14-day trial on the plan the visitor came from, without a card', async () => {
    const ada = await t.signup({ plan: 'starter' });
    expect(ada.organization.plan).toBe('starter');
    expect(new Date(ada.organization.trialEndsAt!).getTime()).toBe(nowMs + 14 * DAY);
    const s = await status(ada);
    expect(s).toEqual({
      status: 'trialing',
      plan: 'starter',
      trialEnd: seconds(nowMs + 14 * DAY),
      currentPeriodEnd: seconds(nowMs + 14 * DAY),
      cancelAtPeriodEnd: false,
      pendingPlan: null,
      trialUsed: true,
      // No card at sign-up: the trial's end moves the organization to Free.
      interval: 'month',
      paymentMethod: null,
      atTrialEnd: 'free',
      usage: { agents: 0, executionsThisMonth: 0, members: 1, knowledgeStorageBytes: 0 },
      limits: PLAN_LIMITS.starter,
    });
  });

  it('defaults to Professional and refuses an unknown plan', async () => {
    const bea = await t.signup();
    expect((await status(bea)).plan).toBe('professional');
    expect(bea.organization.plan).toBe('professional');
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: {
        username: 'planless',
        email: 'planless@example.com',
        password: 'secret123',
        confirmPassword: 'secret123',
        plan: 'gold',
      },
    });
    expect(res.statusCode).toBe(400);
  });

  it('falls to Free with the Free limits when the trial ends', async () => {
    const cat = await t.signup({ plan: 'enterprise' });
    nowMs += 14 * DAY;
    const s = await status(cat);
    expect(s).toMatchObject({
      status: 'no_subscription',
      plan: null,
      trialEnd: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      pendingPlan: null,
      limits: FREE_LIMITS,
    });
  });
});

describe('limits', () => {
  it('refuses the 6th agent on Starter with 402 and the plan_limit body, and keeps the five', async () => {
    const ada = await t.signup({ plan: 'starter' });
    for (let i = 1; i <= 5; i++) await createAgent(t, ada.token, { name: `A${i}` });
    const res = await t.request({
      method: 'POST',
      url: '/api/agents',
      token: ada.token,
      payload: { name: 'A6', role: 'R', goal: 'G' },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      message: 'Your Starter plan allows 5 agents. Upgrade your plan to add more.',
      code: 'plan_limit',
      limit: 'agents',
      plan: 'starter',
    });
    expect((await status(ada)).usage.agents).toBe(5);
  });

  it('on Free after the trial: the 4th agent is refused, nothing is deleted', async () => {
    const ada = await t.signup({ plan: 'professional' });
    for (let i = 1; i <= 4; i++) await createAgent(t, ada.token, { name: `A${i}` });
    nowMs += 15 * DAY;
    const res = await t.request({
      method: 'POST',
      url: '/api/agents',
      token: ada.token,
      payload: { name: 'A5', role: 'R', goal: 'G' },
    });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      message: billingMessages.agentLimit('Free', 3),
      code: 'plan_limit',
      limit: 'agents',
      plan: 'free',
    });
    const list = await t.request({ method: 'GET', url: '/api/agents', token: ada.token });
    expect(list.json()).toHaveLength(4);
  });

  it('refuses runs past the month’s executions, from Execute and from a trigger alike', async () => {
    const ada = await t.signup({ plan: 'starter' });
    const agent = await createAgent(t, ada.token, { name: 'Runner' });
    const workflowId = await createChainWorkflow(t, ada.token, 'Counted', [agent.id]);
    // This month's runs: the Starter limit exactly (a run of last month does not count).
    const organizationId = ada.organization.id;
    const row = { workflowId, organizationId, status: 'completed' as const };
    await t.db.insert(workflowExecutions).values(Array.from({ length: 1000 }, () => row));
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) - DAY);
    await t.db.insert(workflowExecutions).values({ ...row, createdAt: lastMonth });
    expect((await status(ada)).usage.executionsThisMonth).toBe(1000);

    const expected = {
      message: 'Your Starter plan allows 1,000 executions a month. Upgrade your plan to run more.',
      code: 'plan_limit',
      limit: 'executions',
      plan: 'starter',
    };
    const executed = await execute(ada, workflowId);
    expect(executed.statusCode).toBe(402);
    expect(executed.json()).toEqual(expected);

    await expect(
      t.services.triggers.fire({ organizationId, workflowId, trigger: 'webhook', input: {} }),
    ).rejects.toThrow(expected.message);
    const workflow = await t.request({
      method: 'GET',
      url: `/api/workflows/${workflowId}`,
      token: ada.token,
    });
    expect(workflow.json().lastTriggerError).toEqual({ message: expected.message, at: expect.any(String) });
    expect(t.published).toContainEqual({
      type: 'workflow_trigger_failed',
      organizationId,
      workflowId,
      error: expected.message,
    });
    expect((await status(ada)).usage.executionsThisMonth).toBe(1000);
  });

  it('keeps a run counted in its month after the run is deleted, and counts refused runs nowhere', async () => {
    const ada = await t.signup({ plan: 'starter' });
    const agent = await createAgent(t, ada.token, { name: 'Runner' });
    const workflowId = await createChainWorkflow(t, ada.token, 'Deleted later', [agent.id]);
    for (let n = 0; n < 2; n++) expect((await execute(ada, workflowId)).statusCode).toBe(202);
    expect((await status(ada)).usage.executionsThisMonth).toBe(2);
    // Deleting the workflow deletes its runs; they were run, so the month still counts them.
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/workflows/${workflowId}`,
      token: ada.token,
    });
    expect(deleted.statusCode).toBe(204);
    const runs = await t.db
      .select({ id: workflowExecutions.id })
      .from(workflowExecutions)
      .where(eq(workflowExecutions.organizationId, ada.organization.id));
    expect(runs).toEqual([]);
    expect((await status(ada)).usage.executionsThisMonth).toBe(2);

    // Another organization's runs and a refused run leave the count alone.
    const bob = await t.signup({ plan: 'starter' });
    const bobAgent = await createAgent(t, bob.token, { name: 'Other' });
    const bobWorkflow = await createChainWorkflow(t, bob.token, 'Other', [bobAgent.id]);
    await t.db.insert(workflowExecutions).values(
      Array.from({ length: PLAN_LIMITS.starter.executionsPerMonth! }, () => ({
        workflowId: bobWorkflow,
        organizationId: bob.organization.id,
        status: 'completed' as const,
      })),
    );
    const refused = await execute(bob, bobWorkflow);
    expect(refused.statusCode).toBe(402);
    expect((await status(bob)).usage.executionsThisMonth).toBe(PLAN_LIMITS.starter.executionsPerMonth);
    expect((await status(ada)).usage.executionsThisMonth).toBe(2);
  });

  it('counts members and pending invitations at invitation, members at acceptance', async () => {
    const owner = await t.signup({ plan: 'professional' });
    const [a, b, c] = [await t.signup(), await t.signup(), await t.signup()];
    const tokens: string[] = [];
    for (const who of [a, b, c]) {
      const res = await invite(owner, who.user.email);
      expect(res.statusCode).toBe(201);
      tokens.push(res.json().token);
    }
    // Down to Starter (3 members) during the trial: applies at once.
    expect((await subscribe(owner, 'starter', 1900)).statusCode).toBe(200);
    const fourth = await invite(owner, 'fourth@example.com');
    expect(fourth.statusCode).toBe(402);
    expect(fourth.json()).toEqual({
      message: 'Your Starter plan allows 3 team members. Upgrade your plan to invite more.',
      code: 'plan_limit',
      limit: 'members',
      plan: 'starter',
    });
    // Over the limit, even a new invitation to someone already invited is refused.
    expect((await invite(owner, c.user.email)).statusCode).toBe(402);
    const accept = (who: AuthResponse, token: string) =>
      t.request({ method: 'POST', url: `/api/invitations/${token}/accept`, token: who.token, payload: {} });
    expect((await accept(a, tokens[0])).statusCode).toBe(200);
    expect((await accept(b, tokens[1])).statusCode).toBe(200);
    const third = await accept(c, tokens[2]);
    expect(third.statusCode).toBe(402);
    expect(third.json().limit).toBe('members');
    expect((await status(owner)).usage.members).toBe(3);
  });

  it('on Free the owner alone is the limit', async () => {
    const owner = await t.signup();
    nowMs += 20 * DAY;
    const res = await invite(owner, 'friend@example.com');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      message: 'Your Free plan allows 1 team member. Upgrade your plan to invite more.',
      code: 'plan_limit',
      limit: 'members',
      plan: 'free',
    });
  });
});

describe('POST /api/create-subscription', () => {
  it('refuses a wrong amount and an unknown plan with 400', async () => {
    const ada = await t.signup();
    const wrong = await subscribe(ada, 'starter', 4900);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(billingMessages.wrongAmount('Starter', 1900));
    expect((await subscribe(ada, 'gold', 1900)).statusCode).toBe(400);
    expect((await status(ada)).plan).toBe('professional');
  });

  it('is for owners only', async () => {
    const owner = await t.signup();
    const admin = await joinOrganization(t, owner, await t.signup(), 'admin');
    const member = await joinOrganization(t, owner, await t.signup(), 'member');
    for (const who of [admin, member]) {
      for (const res of [await subscribe(who, 'starter', 1900), await cancel(who)]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: roleRequired('owner') });
      }
      // Any member reads the status.
      expect((await status(who)).plan).toBe('professional');
    }
  });

  it('after the sign-up trial, Free stays Free: no second trial without a payment provider (409)', async () => {
    const ada = await t.signup();
    nowMs += 30 * DAY;
    expect(await status(ada)).toMatchObject({ status: 'no_subscription', plan: null, trialUsed: true });
    for (const [plan, amount] of [
      ['starter', 1900],
      ['enterprise', 14900],
    ] as const) {
      const res = await subscribe(ada, plan, amount);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: billingMessages.trialUsed });
    }
    expect(await status(ada)).toMatchObject({
      status: 'no_subscription',
      plan: null,
      trialEnd: null,
      trialUsed: true,
      limits: FREE_LIMITS,
    });
  });

  it('on Free, an organization that never had a trial (from before plans) gets one 14-day trial, once', async () => {
    const ada = await t.signup();
    // As migration 0011 left the organizations made before plans: Free, never on a trial.
    await t.db
      .update(subscriptions)
      .set({ subscriptionStatus: 'no_subscription', trialEndsAt: null, trialUsedAt: null })
      .where(eq(subscriptions.organizationId, ada.organization.id));
    expect(await status(ada)).toMatchObject({ status: 'no_subscription', trialUsed: false });
    const res = await subscribe(ada, 'starter', 1900);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ clientSecret: null, status: 'trialing' });
    expect(await status(ada)).toMatchObject({
      status: 'trialing',
      plan: 'starter',
      trialEnd: seconds(nowMs + 14 * DAY),
      trialUsed: true,
    });
    expect(t.published).toContainEqual({ type: 'subscription_updated', organizationId: ada.organization.id });

    // That trial ends: subscribing again starts none.
    nowMs += 14 * DAY;
    const again = await subscribe(ada, 'starter', 1900);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: billingMessages.trialUsed });
    expect(await status(ada)).toMatchObject({ status: 'no_subscription', plan: null, limits: FREE_LIMITS });
  });

  it('a canceled paid subscription that ended falls to Free for good: no trial after it', async () => {
    const ada = await t.signup();
    await makeActive(ada, 'professional', 2);
    expect((await cancel(ada)).statusCode).toBe(200);
    nowMs += 3 * DAY;
    expect(await status(ada)).toMatchObject({ status: 'no_subscription', plan: null });
    const res = await subscribe(ada, 'professional', 4900);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: billingMessages.trialUsed });
  });

  it('during a trial changes the plan at once, keeping the trial end', async () => {
    const ada = await t.signup({ plan: 'starter' });
    const trialEnd = seconds(nowMs + 14 * DAY);
    nowMs += 3 * DAY;
    expect((await subscribe(ada, 'enterprise', 14900)).json()).toEqual({
      clientSecret: null,
      status: 'trialing',
    });
    expect(await status(ada)).toMatchObject({ plan: 'enterprise', trialEnd, limits: PLAN_LIMITS.enterprise });
    expect((await subscribe(ada, 'starter', 1900)).statusCode).toBe(200);
    expect(await status(ada)).toMatchObject({ plan: 'starter', pendingPlan: null, trialEnd });
  });

  it('on an active subscription upgrades at once and downgrades at the end of the period', async () => {
    const ada = await t.signup();
    await makeActive(ada, 'professional', 10);
    const periodEnd = seconds(nowMs + 10 * DAY);

    expect((await subscribe(ada, 'enterprise', 14900)).json()).toEqual({
      clientSecret: null,
      status: 'active',
    });
    expect(await status(ada)).toMatchObject({ status: 'active', plan: 'enterprise', pendingPlan: null });

    expect((await subscribe(ada, 'starter', 1900)).statusCode).toBe(200);
    expect(await status(ada)).toMatchObject({
      status: 'active',
      plan: 'enterprise',
      pendingPlan: 'starter',
      currentPeriodEnd: periodEnd,
      limits: PLAN_LIMITS.enterprise,
    });

    nowMs += 10 * DAY + 1000;
    const after = await status(ada);
    expect(after).toMatchObject({
      status: 'active',
      plan: 'starter',
      pendingPlan: null,
      limits: PLAN_LIMITS.starter,
    });
    expect(after.currentPeriodEnd).toBeGreaterThan(seconds(nowMs));
  });
});

describe('POST /api/cancel-subscription', () => {
  it('cancels at the end of the trial, then the organization is on Free', async () => {
    const ada = await t.signup({ plan: 'starter' });
    const res = await cancel(ada);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'trialing',
      plan: 'starter',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: seconds(nowMs + 14 * DAY),
    });
    const again = await cancel(ada);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: billingMessages.alreadyCanceled });
    nowMs += 14 * DAY;
    expect(await status(ada)).toMatchObject({ status: 'no_subscription', plan: null, limits: FREE_LIMITS });
    const free = await cancel(ada);
    expect(free.statusCode).toBe(409);
    expect(free.json()).toEqual({ message: billingMessages.noSubscription });
  });

  it('cancels an active subscription at its period end', async () => {
    const ada = await t.signup();
    await makeActive(ada, 'starter', 5);
    expect((await cancel(ada)).json()).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    nowMs += 4 * DAY;
    expect((await status(ada)).plan).toBe('starter');
    nowMs += 2 * DAY;
    expect(await status(ada)).toMatchObject({ status: 'no_subscription', plan: null });
  });
});

describe('GET /api/subscription-status', () => {
  it("answers the caller's own organization", async () => {
    const ada = await t.signup({ plan: 'starter' });
    const bea = await t.signup({ plan: 'enterprise' });
    await createAgent(t, ada.token, { name: 'Ada agent' });
    expect(await status(ada)).toMatchObject({ plan: 'starter', usage: { agents: 1 } });
    expect(await status(bea)).toMatchObject({ plan: 'enterprise', usage: { agents: 0 } });
    expect((await t.request({ method: 'GET', url: '/api/subscription-status' })).statusCode).toBe(401);
  });
});
