import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  chatMessages,
  microsOfUsd,
  usdOfMicros,
  type AuthResponse,
  type CostRow,
  type Execution,
} from '@crewline/contracts';
import { BudgetExceededError } from '../../platform/errors';
import {
  configureModel,
  createAgent,
  createChainWorkflow,
  runToEnd,
  waitForRunEnd,
} from '../../testing/app-fixtures';
import { startFakeLlmServer, type FakeLlmServer } from '../../testing/fake-llm-server';
import { startFakeSmtpServer, type FakeSmtpServer } from '../../testing/fake-smtp-server';
import { createTestApp, type TestApp } from '../../testing/test-app';

/*
 * A chat app's monthly cap (docs/product-rules.md, Costs; issue 41): it works as a workflow's cap
 * does, but counts only the model calls of the workflow's runs with trigger `chat`. Once spent, a
 * chat run's start is refused (402, scope `chat`, the chat's own words) while other runs of the
 * workflow go on; concurrent chat runs never pass it together.
 */

let t: TestApp, fake: FakeLlmServer, smtp: FakeSmtpServer;
beforeAll(async () => {
  fake = await startFakeLlmServer();
  smtp = await startFakeSmtpServer({ user: 'crewline', pass: 's3cret-smtp' });
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
  await fake?.close();
});

const chatRequests = () => fake.requests.filter((r) => r.path === '/v1/chat/completions').length;
// Answers as long as the agent's output limit: each call costs close to its worst case.
const answer = { content: Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ') };
const costOf = (run: Execution) => microsOfUsd(run.output.n1.usage.costUsd!);

/** A new organization on the fake model, and its active one-agent workflow `name`. */
async function helpdesk(name: string) {
  const owner = await t.signup();
  await configureModel(t, owner.token, fake.url);
  const agent = await createAgent(t, owner.token, { name, llmModel: 'gpt-4o-mini', maxTokens: 100 });
  return { owner, workflowId: await createChainWorkflow(t, owner.token, name, [agent.id]) };
}

/** Publishes the workflow as a chat app with a monthly cap (or changes its cap). */
async function publishChat(owner: AuthResponse, workflowId: string, monthlyCapUsd: number) {
  const res = await t.request({
    method: 'PUT',
    url: `/api/workflows/${workflowId}/publishing`,
    token: owner.token,
    payload: {
      chat: {
        enabled: true,
        slug: `helpdesk-${workflowId.slice(0, 8)}`,
        name: 'Helpdesk',
        access: 'link',
        monthlyCapUsd,
      },
    },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Starts a run as a chat message does (the public routes call startRun so). */
const startChat = (owner: AuthResponse, workflowId: string) =>
  t.services.executions.startRun({
    organizationId: owner.organization.id,
    workflowId,
    trigger: 'chat',
    triggeredBy: null,
    untrusted: true,
    input: { message: 'Where is my order?' },
  });

async function chatRunToEnd(owner: AuthResponse, workflowId: string): Promise<Execution> {
  const { id } = await startChat(owner, workflowId);
  await waitForRunEnd(t, owner.token, id);
  return (await t.request({ method: 'GET', url: `/api/executions/${id}`, token: owner.token })).json();
}

/** The refusal a chat run's start meets, or undefined when it started. */
async function refusalOf(start: Promise<Execution>) {
  const error = await start.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error !== undefined) expect(error).toBeInstanceOf(BudgetExceededError);
  return error as BudgetExceededError | undefined;
}

/** What the workflow's chat runs spent this month, as the Costs report adds it up. */
async function chatSpendMicros(owner: AuthResponse) {
  const res = await t.request({ method: 'GET', url: '/api/usage/costs?groupBy=trigger', token: owner.token });
  expect(res.statusCode, res.body).toBe(200);
  return microsOfUsd((res.json() as CostRow[]).find((row) => row.key === 'chat')?.costUsd ?? 0);
}

describe('a chat app’s monthly cap', () => {
  it('counts the chat runs only: once spent, chat runs are refused with 402 and its alerts go out, manual runs go on', async () => {
    const { owner, workflowId } = await helpdesk('Helpdesk writer');
    fake.script([answer]);
    const before = await chatRunToEnd(owner, workflowId);
    expect(before.status).toBe('completed');
    const perCall = costOf(before);

    // The month so far (one chat run) counts: the next chat run fills it to 80 %, and the one after
    // cannot fit its worst case in what is left.
    const capMicros = Math.floor(perCall * 2.5);
    const capUsd = usdOfMicros(capMicros);
    await publishChat(owner, workflowId, capUsd);
    fake.script([answer, answer]);
    expect((await chatRunToEnd(owner, workflowId)).status).toBe('completed');
    await smtp.waitFor(owner.user.email, (m) => m.subject.includes('80 %'));
    const refusedAtCall = await chatRunToEnd(owner, workflowId);
    expect(refusedAtCall.status).toBe('failed');
    expect(refusedAtCall.error).toBe(chatMessages.capReached);
    expect(chatRequests()).toBe(2);

    // Spent: the next chat run is refused at its start, in the chat's words.
    const refused = await refusalOf(startChat(owner, workflowId));
    expect(refused).toMatchObject({
      statusCode: 402,
      code: 'budget_exceeded',
      scope: 'chat',
      message: chatMessages.capReached,
      spentUsd: usdOfMicros(perCall * 2),
      capUsd,
    });
    await smtp.waitFor(owner.user.email, (m) => m.subject.includes('chat') && !m.subject.includes('80 %'));
    const alerts = smtp.inbox.filter((m) => m.to === owner.user.email && m.subject.includes('chat'));
    expect(alerts.map((m) => m.subject).sort()).toEqual([
      'Crewline: 80 % of the monthly budget of the chat of “Helpdesk writer” is spent',
      'Crewline: the monthly budget of the chat of “Helpdesk writer” is spent',
    ]);

    // The app's cap is not the workflow's: a manual run goes on, and does not count against it.
    fake.script([answer]);
    expect((await runToEnd(t, owner.token, workflowId)).status).toBe('completed');
    expect((await refusalOf(startChat(owner, workflowId)))?.spentUsd).toBe(usdOfMicros(perCall * 2));
    expect(await chatSpendMicros(owner)).toBe(perCall * 2);

    // Raised, the app answers again.
    await publishChat(owner, workflowId, 10);
    fake.script([answer]);
    expect((await chatRunToEnd(owner, workflowId)).status).toBe('completed');
  });

  it('is never passed when 20 chat runs start at once, each call reserving its worst case first', async () => {
    const { owner, workflowId } = await helpdesk('Busy helpdesk');
    fake.script([answer]);
    const probe = await chatRunToEnd(owner, workflowId);
    const perCall = costOf(probe);
    // Ten calls' worth beyond what the probe spent.
    const capUsd = usdOfMicros(perCall * 11);
    await publishChat(owner, workflowId, capUsd);
    fake.reset();
    fake.script(Array.from({ length: 20 }, () => answer));

    const starts = await Promise.all(
      Array.from({ length: 20 }, () => {
        const start = startChat(owner, workflowId);
        return Promise.all([start.catch(() => undefined), refusalOf(start)]);
      }),
    );
    const ids = starts.flatMap(([run]) => (run ? [run.id] : []));
    const runs = await Promise.all(ids.map((id) => waitForRunEnd(t, owner.token, id, 30_000)));
    expect(await chatSpendMicros(owner)).toBeLessThanOrEqual(microsOfUsd(capUsd));
    const completed = runs.filter((r) => r.status === 'completed');
    // Some ran (the cap holds about ten such calls), not all: the cap stopped the others.
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.length).toBeLessThan(20);
    expect(completed.length).toBe(chatRequests());
    // The others were refused at the cap: at their call, or at their start (402, scope `chat`).
    for (const run of runs.filter((r) => r.status !== 'completed'))
      expect(run.error).toBe(chatMessages.capReached);
    for (const [, refusal] of starts.filter(([run]) => !run))
      expect(refusal).toMatchObject({ statusCode: 402, scope: 'chat', message: chatMessages.capReached });
  });
});
