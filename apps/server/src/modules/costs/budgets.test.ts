import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  budgetMessages,
  microsOfUsd,
  usdOfMicros,
  type AuthResponse,
  type BudgetExceeded,
  type Execution,
  type OrganizationBudget,
} from '@crewline/contracts';
import {
  configureModel,
  createAgent,
  createChainWorkflow,
  joinOrganization,
  runToEnd,
  waitForRunEnd,
  waitForRunStatus,
} from '../../testing/app-fixtures';
import { startFakeChatWebhook, type FakeChatWebhook } from '../../testing/fake-chat-webhook';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { startFakeSmtpServer, type FakeSmtpServer } from '../../testing/fake-smtp-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * Budgets that stop spending (docs/product-rules.md, Costs): a workflow's per-run budget stops its
 * run before the call that could pass it; the organization's monthly cap alerts its owners and
 * admins once at 80 % and once at 100 %, then refuses new runs and model calls with 402; and
 * concurrent runs against a cap never pass it, each call reserving its worst case first.
 */

let t: TestApp, fake: FakeLlmServer, smtp: FakeSmtpServer, chat: FakeChatWebhook;
beforeAll(async () => {
  fake = await startFakeLlmServer();
  smtp = await startFakeSmtpServer({ user: 'crewline', pass: 's3cret-smtp' });
  chat = await startFakeChatWebhook();
  t = await createTestApp({
    worker: true,
    emailMonitor: false,
    config: { mail: { smtpUrl: smtp.url, from: 'Crewline <no-reply@crewline.test>' } },
  });
});
beforeEach(() => fake.reset());
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await chat?.close();
  await fake?.close();
});

/** A new organization on the fake model. */
async function organization() {
  const owner = await t.signup();
  await configureModel(t, owner.token, fake.url);
  return owner;
}

const chatRequests = () => fake.requests.filter((r) => r.path === '/v1/chat/completions').length;

async function setBudget(owner: AuthResponse, monthlyCapUsd: number | null) {
  const res = await t.request({
    method: 'PUT',
    url: '/api/organization/budget',
    token: owner.token,
    payload: { monthlyCapUsd },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OrganizationBudget;
}

const costOf = (run: Execution, step: string) => microsOfUsd(run.output[step].usage.costUsd!);

describe('a workflow’s per-run budget', () => {
  it('stops a three-agent run after the second agent, before the call that could pass it', async () => {
    const ada = await organization();
    const agents = [];
    // gpt-4o: the third agent's worst case (8,000 output tokens at $10 a million) is $0.08.
    for (const [name, maxTokens] of [
      ['Budget first', 100],
      ['Budget second', 100],
      ['Budget third', 8000],
    ] as const)
      agents.push((await createAgent(t, ada.token, { name, llmModel: 'gpt-4o', maxTokens })).id);
    const workflowId = await createChainWorkflow(t, ada.token, 'Budgeted chain', agents);
    const replies = [{ content: 'First part.' }, { content: 'Second part.' }, { content: 'Third part.' }];
    fake.script(replies);
    const free = await runToEnd(t, ada.token, workflowId, { topic: 'budgets' });
    expect(free.status).toBe('completed');
    const firstTwo = costOf(free, 'n1') + costOf(free, 'n2');

    // Room for the first two calls as they really cost, and $0.04 more: less than the third's worst case.
    const maxCostPerRunUsd = usdOfMicros(firstTwo) + 0.04;
    const saved = await t.request({
      method: 'PUT',
      url: `/api/workflows/${workflowId}`,
      token: ada.token,
      payload: { config: { budget: { maxCostPerRunUsd } } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    fake.reset();
    fake.script(replies);
    const run = await runToEnd(t, ada.token, workflowId, { topic: 'budgets' });
    expect(run.status).toBe('failed');
    expect(costOf(run, 'n1') + costOf(run, 'n2')).toBe(firstTwo);
    expect(run.error).toBe(budgetMessages.run(usdOfMicros(firstTwo), maxCostPerRunUsd));
    expect(run.error).toMatch(/^Budget exceeded: this run spent \$0\.\d+ of its \$0\.04\d* budget$/);
    expect(Object.keys(run.output).sort()).toEqual(['n1', 'n2']);
    expect(chatRequests()).toBe(2);
  });

  it('waits, when the workflow says so, for an owner or admin to raise it, then goes on with the new budget', async () => {
    const ada = await organization();
    const agents = [];
    for (const [name, maxTokens] of [
      ['Raise first', 100],
      ['Raise second', 8000],
    ] as const)
      agents.push((await createAgent(t, ada.token, { name, llmModel: 'gpt-4o', maxTokens })).id);
    const workflowId = await createChainWorkflow(t, ada.token, 'Raised chain', agents, {
      config: { budget: { maxCostPerRunUsd: 0.01, onExceeded: 'approval' } },
    });
    fake.script([{ content: 'First part.' }, { content: 'Second part.' }]);
    const started = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflowId}/execute`,
      token: ada.token,
      payload: { input: {} },
    });
    const id = (started.json() as Execution).id;
    const waiting = await waitForRunStatus(t, ada.token, id, 'waiting');
    expect(waiting.waiting).toMatchObject({
      kind: 'approval',
      nodeId: 'n2',
      title: "Raise this run's budget?",
    });
    expect(chatRequests()).toBe(1);
    const member = await joinOrganization(t, ada, await t.signup(), 'member');
    const byMember = await t.request({
      method: 'POST',
      url: `/api/approvals/${waiting.waiting!.approvalId}/decision`,
      token: member.token,
      payload: { decision: 'approve' },
    });
    expect(byMember.statusCode).toBe(403);

    const approved = await t.request({
      method: 'POST',
      url: `/api/approvals/${waiting.waiting!.approvalId}/decision`,
      token: ada.token,
      payload: { decision: 'approve', fields: { budgetUsd: 1 } },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const run = await waitForRunEnd(t, ada.token, id);
    expect(run.status).toBe('completed');
    expect(chatRequests()).toBe(2);
    expect(run.logs.map((l) => l.message)).toContainEqual(
      expect.stringMatching(/raised this run's budget to \$1\.00$/),
    );
  });

  it('refuses a budget that is not a positive amount when the workflow is saved, naming it', async () => {
    const ada = await organization();
    const agent = await createAgent(t, ada.token, { name: 'Budget check' });
    const workflowId = await createChainWorkflow(t, ada.token, 'Budget check', [agent.id]);
    const res = await t.request({
      method: 'PUT',
      url: `/api/workflows/${workflowId}`,
      token: ada.token,
      payload: { config: { budget: { maxCostPerRunUsd: -1 } } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'A budget must be more than $0' });
  });
});

describe('the organization’s monthly cap', () => {
  it('alerts once at 80 % and once at 100 %, then refuses the next run and model calls with 402', async () => {
    const ada = await organization();
    const bob = await joinOrganization(t, ada, await t.signup(), 'admin');
    const cyd = await joinOrganization(t, ada, await t.signup(), 'member');
    await t.request({
      method: 'PUT',
      url: '/api/organization/settings',
      token: ada.token,
      payload: { approvalNotificationUrl: chat.slackUrl },
    });
    const agent = await createAgent(t, ada.token, {
      name: 'Capped writer',
      llmModel: 'gpt-4o',
      maxTokens: 8000,
    });
    const workflowId = await createChainWorkflow(t, ada.token, 'Capped', [agent.id]);
    fake.script([{ content: 'A first answer.' }]);
    const first = await runToEnd(t, ada.token, workflowId);
    expect(first.status).toBe('completed');
    const spent = costOf(first, 'n1');

    // The month's spend is 90 % of the new cap: its 80 % alert goes out at once.
    const capUsd = usdOfMicros(Math.ceil(spent / 0.9));
    const set = await setBudget(ada, capUsd);
    expect(set).toMatchObject({
      monthlyCapUsd: capUsd,
      spentThisMonthUsd: usdOfMicros(spent),
      state: 'warning',
    });
    const warning = await smtp.waitFor(bob.user.email, (m) => m.subject.includes('80 %'));
    expect(warning.subject).toBe('Crewline: 80 % of your monthly budget is spent');
    expect(warning.text).toContain(`of its $`);
    await smtp.waitFor(ada.user.email, (m) => m.subject.includes('80 %'));

    // The next run's call cannot fit its worst case in what is left: refused, and the cap is spent.
    const second = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflowId}/execute`,
      token: ada.token,
      payload: { input: {} },
    });
    expect(second.statusCode).toBe(202);
    const failed = await waitForRunEnd(t, ada.token, (second.json() as Execution).id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(budgetMessages.organization(usdOfMicros(spent), capUsd));
    await smtp.waitFor(bob.user.email, (m) => m.subject === 'Crewline: your monthly budget is spent');
    expect(chatRequests()).toBe(1);

    // Now new runs and model calls are refused with 402, naming what to raise.
    const third = await t.request({
      method: 'POST',
      url: `/api/workflows/${workflowId}/execute`,
      token: ada.token,
      payload: { input: {} },
    });
    expect(third.statusCode).toBe(402);
    const refusal = third.json() as BudgetExceeded;
    expect(refusal).toEqual({
      message: budgetMessages.organization(usdOfMicros(spent), capUsd),
      code: 'budget_exceeded',
      scope: 'organization',
      spentUsd: usdOfMicros(spent),
      capUsd,
    });
    expect(refusal.message).toContain('Settings → Costs');
    const tested = await t.request({
      method: 'POST',
      url: `/api/agents/${agent.id}/test`,
      token: cyd.token,
      payload: { input: 'Hi' },
    });
    expect(tested.statusCode).toBe(402);
    expect(
      (await t.request({ method: 'GET', url: '/api/organization/budget', token: cyd.token })).json(),
    ).toMatchObject({ state: 'exceeded' });

    // Each alert went out once: one email of each per owner and admin, none to members, one message of each at the URL.
    const ours = [ada, bob, cyd].map((who) => who.user.email);
    const mails = smtp.inbox.filter((m) => ours.includes(m.to) && m.subject.includes('budget'));
    expect(mails.map((m) => `${m.to} ${m.subject}`).sort()).toEqual(
      [ada, bob]
        .flatMap((who) => [
          `${who.user.email} Crewline: 80 % of your monthly budget is spent`,
          `${who.user.email} Crewline: your monthly budget is spent`,
        ])
        .sort(),
    );
    const notices = chat.received.filter((m) => m.text.includes('monthly budget'));
    expect(notices).toHaveLength(2);

    // Raised, the organization runs again.
    await setBudget(ada, 10);
    fake.script([{ content: 'Back.' }]);
    expect((await runToEnd(t, ada.token, workflowId)).status).toBe('completed');
  });
});

describe('a workflow’s monthly cap', () => {
  it('refuses its own runs’ calls that could pass it, and no other workflow’s', async () => {
    const ada = await organization();
    const agent = await createAgent(t, ada.token, {
      name: 'Long writer',
      llmModel: 'gpt-4o',
      maxTokens: 8000,
    });
    // Its worst case ($0.08 of output alone) cannot fit in a $0.01 month.
    const capped = await createChainWorkflow(t, ada.token, 'Capped workflow', [agent.id], {
      config: { budget: { monthlyCapUsd: 0.01 } },
    });
    const other = await createChainWorkflow(t, ada.token, 'Other workflow', [agent.id]);
    fake.script([{ content: 'Fine.' }]);
    const refused = await runToEnd(t, ada.token, capped);
    expect(refused.status).toBe('failed');
    expect(refused.error).toBe(budgetMessages.workflow(0, 0.01));
    expect(refused.error).toContain("Raise its monthly cap in the workflow's settings");
    expect(chatRequests()).toBe(0);
    expect((await runToEnd(t, ada.token, other)).status).toBe('completed');
  });
});

describe('spend under concurrency', () => {
  it('never passes the cap when 20 runs start at once, each call reserving its worst case first', async () => {
    const ada = await organization();
    const agent = await createAgent(t, ada.token, {
      name: 'Concurrent',
      llmModel: 'gpt-4o-mini',
      maxTokens: 100,
    });
    const workflowId = await createChainWorkflow(t, ada.token, 'Concurrent', [agent.id]);
    // Answers as long as the output limit: each call costs close to its worst case.
    const answer = { content: Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ') };
    fake.script([answer]);
    const probe = await runToEnd(t, ada.token, workflowId);
    const perCall = costOf(probe, 'n1');
    // Ten calls' worth beyond what the probe spent.
    const capUsd = usdOfMicros(perCall * 11);
    await setBudget(ada, capUsd);
    fake.reset();
    fake.script(Array.from({ length: 20 }, () => answer));

    const started = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.request({
          method: 'POST',
          url: `/api/workflows/${workflowId}/execute`,
          token: ada.token,
          payload: { input: {} },
        }),
      ),
    );
    const ids = started.filter((r) => r.statusCode === 202).map((r) => (r.json() as Execution).id);
    const runs = await Promise.all(ids.map((id) => waitForRunEnd(t, ada.token, id, 30_000)));
    const budget = (
      await t.request({ method: 'GET', url: '/api/organization/budget', token: ada.token })
    ).json() as OrganizationBudget;
    expect(microsOfUsd(budget.spentThisMonthUsd)).toBeLessThanOrEqual(microsOfUsd(capUsd));
    const completed = runs.filter((r) => r.status === 'completed');
    // Some ran (the cap holds about ten such calls), not all: the cap stopped the others.
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.length).toBeLessThan(20);
    expect(completed.length).toBe(chatRequests());
    // The others were refused at the cap: at their start (402) or at their call.
    for (const run of runs.filter((r) => r.status !== 'completed'))
      expect(run.error).toMatch(/^Budget exceeded: your organization spent/);
    for (const res of started.filter((r) => r.statusCode !== 202))
      expect(res.json()).toMatchObject({ code: 'budget_exceeded' });
  });
});
