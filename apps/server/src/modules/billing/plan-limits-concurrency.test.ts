import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, isNull } from 'drizzle-orm';
import { FREE_LIMITS, PLAN_LIMITS, billingMessages, type AuthResponse } from '@crewline/contracts';
import {
  agents,
  organizationInvitations,
  organizationUsage,
  subscriptions,
  userOrganizations,
  workflowExecutions,
} from '@crewline/db';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { createAgent, createChainWorkflow } from '../../testing/app-fixtures';

/*
 * Plan limits under concurrent requests (docs/security.md, Plan limits): every limited insert is
 * checked and counted under one lock of its organization, so a burst at a limit ends exactly at it,
 * never one past.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const starter = PLAN_LIMITS.starter;

/** The statuses of the answers, counted: { 201: 5, 402: 15 }. */
const tally = (answers: { statusCode: number }[]) =>
  answers.reduce<Record<number, number>>(
    (counts, { statusCode }) => ({ ...counts, [statusCode]: (counts[statusCode] ?? 0) + 1 }),
    {},
  );

const refusal = (limit: string, message: string) => ({ message, code: 'plan_limit', limit, plan: 'starter' });

function invite(owner: AuthResponse, email: string) {
  return t.request({
    method: 'POST',
    url: `/api/organizations/${owner.organization.id}/invitations`,
    token: owner.token,
    payload: { email, role: 'member' },
  });
}

async function members(organizationId: string) {
  const [row] = await t.db
    .select({ n: count() })
    .from(userOrganizations)
    .where(eq(userOrganizations.organizationId, organizationId));
  return row.n;
}

describe('plan limits under concurrent requests', () => {
  it(`20 concurrent agent creates on Starter (${starter.agents} agents) make exactly ${starter.agents}`, async () => {
    const ada = await t.signup({ plan: 'starter' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        t.request({
          method: 'POST',
          url: '/api/agents',
          token: ada.token,
          payload: { name: `Agent ${n}`, role: 'R', goal: 'G' },
        }),
      ),
    );
    expect(tally(answers)).toEqual({ 201: starter.agents, 402: 20 - starter.agents! });
    for (const refused of answers.filter((a) => a.statusCode === 402)) {
      expect(refused.json()).toEqual(
        refusal('agents', billingMessages.agentLimit('Starter', starter.agents!)),
      );
    }
    const [row] = await t.db
      .select({ n: count() })
      .from(agents)
      .where(eq(agents.organizationId, ada.organization.id));
    expect(row.n).toBe(starter.agents);
  });

  it(`the month's first runs: 120 concurrent executes on Free (${FREE_LIMITS.executionsPerMonth} a month) start exactly ${FREE_LIMITS.executionsPerMonth}`, async () => {
    const ada = await t.signup();
    const organizationId = ada.organization.id;
    const agent = await createAgent(t, ada.token, { name: 'Runner' });
    const workflowId = await createChainWorkflow(t, ada.token, 'First of the month', [agent.id]);
    // The trial ended: Free. No run yet this month, so the month's counter row does not exist yet.
    await t.db
      .update(subscriptions)
      .set({ trialEndsAt: new Date(Date.now() - 1000) })
      .where(eq(subscriptions.organizationId, organizationId));
    const answers = await Promise.all(
      Array.from({ length: 120 }, () =>
        t.request({
          method: 'POST',
          url: `/api/workflows/${workflowId}/execute`,
          token: ada.token,
          payload: {},
        }),
      ),
    );
    const max = FREE_LIMITS.executionsPerMonth!;
    expect(tally(answers)).toEqual({ 202: max, 402: 120 - max });
    expect(answers.find((a) => a.statusCode === 402)?.json()).toEqual({
      message: billingMessages.executionLimit('Free', max),
      code: 'plan_limit',
      limit: 'executions',
      plan: 'free',
    });
    const [runs] = await t.db
      .select({ n: count() })
      .from(workflowExecutions)
      .where(eq(workflowExecutions.organizationId, organizationId));
    expect(runs.n).toBe(max);
  });

  it('30 concurrent starts (Execute and webhook) 10 runs below the month’s limit start exactly 10', async () => {
    const ada = await t.signup({ plan: 'starter' });
    const organizationId = ada.organization.id;
    const agent = await createAgent(t, ada.token, { name: 'Runner' });
    const workflowId = await createChainWorkflow(t, ada.token, 'Counted', [agent.id]);
    const max = starter.executionsPerMonth!;
    // The month's counter as the counting trigger keeps it: 10 runs left this month.
    const month = new Date().toISOString().slice(0, 8) + '01';
    await t.db.insert(organizationUsage).values({ organizationId, month, executions: max - 10 });

    const message = billingMessages.executionLimit('Starter', max);
    const starts = await Promise.all(
      Array.from({ length: 30 }, (_, n) =>
        n % 2 === 0
          ? t
              .request({
                method: 'POST',
                url: `/api/workflows/${workflowId}/execute`,
                token: ada.token,
                payload: {},
              })
              .then((res) => {
                if (res.statusCode === 402) expect(res.json()).toEqual(refusal('executions', message));
                return res.statusCode;
              })
          : t.services.triggers.fire({ organizationId, workflowId, trigger: 'webhook', input: {} }).then(
              () => 202,
              (error: Error) => {
                expect(error.message).toBe(message);
                return 402;
              },
            ),
      ),
    );
    expect(tally(starts.map((statusCode) => ({ statusCode })))).toEqual({ 202: 10, 402: 20 });
    const [usage] = await t.db
      .select({ executions: organizationUsage.executions })
      .from(organizationUsage)
      .where(and(eq(organizationUsage.organizationId, organizationId), eq(organizationUsage.month, month)));
    expect(usage.executions).toBe(max);
    const [runs] = await t.db
      .select({ n: count() })
      .from(workflowExecutions)
      .where(eq(workflowExecutions.organizationId, organizationId));
    expect(runs.n).toBe(10);
  });

  it(`20 concurrent invitations on Starter (${starter.members} members, the owner in) make exactly 2`, async () => {
    const owner = await t.signup({ plan: 'starter' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => invite(owner, `invitee${n}@example.com`)),
    );
    expect(tally(answers)).toEqual({ 201: starter.members! - 1, 402: 20 - (starter.members! - 1) });
    for (const refused of answers.filter((a) => a.statusCode === 402)) {
      expect(refused.json()).toEqual(
        refusal('members', billingMessages.memberLimit('Starter', starter.members!)),
      );
    }
    const [pending] = await t.db
      .select({ n: count() })
      .from(organizationInvitations)
      .where(
        and(
          eq(organizationInvitations.organizationId, owner.organization.id),
          isNull(organizationInvitations.revokedAt),
        ),
      );
    expect(pending.n).toBe(starter.members! - 1);
  });

  it(`10 concurrent acceptances of distinct invitations on Starter end at exactly ${starter.members} members`, async () => {
    // Invited on a Professional trial (15 members), then the trial's plan is Starter: ten invitations
    // are pending, and only two of them may still join.
    const owner = await t.signup({ plan: 'professional' });
    const invitees = await Promise.all(Array.from({ length: 10 }, () => t.signup()));
    const tokens: string[] = [];
    for (const who of invitees) {
      const res = await invite(owner, who.user.email);
      expect(res.statusCode).toBe(201);
      tokens.push(res.json().token);
    }
    await t.db
      .update(subscriptions)
      .set({ plan: 'starter' })
      .where(eq(subscriptions.organizationId, owner.organization.id));

    const answers = await Promise.all(
      invitees.map((who, n) =>
        t.request({
          method: 'POST',
          url: `/api/invitations/${tokens[n]}/accept`,
          token: who.token,
          payload: {},
        }),
      ),
    );
    expect(tally(answers)).toEqual({ 200: starter.members! - 1, 402: 10 - (starter.members! - 1) });
    for (const refused of answers.filter((a) => a.statusCode === 402)) {
      expect(refused.json()).toEqual(
        refusal('members', billingMessages.memberLimit('Starter', starter.members!)),
      );
    }
    expect(await members(owner.organization.id)).toBe(starter.members);
  });
});
