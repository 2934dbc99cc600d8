import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  costMicros,
  usdOfMicros,
  type AuthResponse,
  type CostRow,
  type OrganizationBudget,
} from '@crewline/contracts';
import { createAgent, joinOrganization, runToEnd, createChainWorkflow } from '../../testing/app-fixtures';
import type { FakeLlmServer } from '../../testing/fake-llm-server';
import { closeInOrder, startFakeModelSuite } from '../../testing/fake-model-suite';
import { createKnowledgeBase, ingest, search } from '../../testing/knowledge-fixtures';
import type { TestApp } from '../../testing/test-app';

/*
 * Where model spend goes (docs/product-rules.md, Costs): every model call lands in the organization's
 * spend ledger with its source — a run's steps with the step, agent tests, the playground and
 * knowledge embeddings on their own — and GET /api/usage/costs adds it up by day, workflow, agent,
 * model, source or trigger, for that organization alone.
 */

let t: TestApp, fake: FakeLlmServer, ada: AuthResponse, bob: AuthResponse;
beforeAll(async () => ({ t, fake, ada, bob } = await startFakeModelSuite()));
beforeEach(() => fake.reset());
afterAll(() => closeInOrder(t, fake));

const gpt4oMini = { inputPerMillion: 0.15, cachedInputPerMillion: 0.075, outputPerMillion: 0.6 };

async function costs(token: string, query: string): Promise<CostRow[]> {
  const res = await t.request({ method: 'GET', url: `/api/usage/costs?${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CostRow[];
}

const rowOf = (rows: CostRow[], key: string) => rows.find((row) => row.key === key);

describe('the costs report', () => {
  it('adds up a run’s steps, an agent test, a playground chat and knowledge embeddings, each under its source', async () => {
    const writer = await createAgent(t, ada.token, { name: 'Ledger writer', llmModel: 'gpt-4o-mini' });
    const editor = await createAgent(t, ada.token, { name: 'Ledger editor', llmModel: 'gpt-4o-mini' });
    const workflowId = await createChainWorkflow(t, ada.token, 'Ledger chain', [writer.id, editor.id]);
    fake.script([{ content: 'A draft.' }, { content: 'An edit.' }]);
    const run = await runToEnd(t, ada.token, workflowId, { topic: 'spend' });
    expect(run.status).toBe('completed');

    const tested = await t.request({
      method: 'POST',
      url: `/api/agents/${writer.id}/test`,
      token: ada.token,
      payload: { input: 'Say hello' },
    });
    expect(tested.json()).toMatchObject({ success: true });
    const testUsage = (tested.json() as { usage: { promptTokens: number; completionTokens: number } }).usage;

    const chat = await t.request({
      method: 'POST',
      url: `/api/agents/${editor.id}/chat`,
      token: ada.token,
      payload: { messages: [{ role: 'user', content: 'Hello there' }] },
    });
    expect(chat.statusCode).toBe(200);
    expect(chat.body).toContain('"done"');

    const kb = await createKnowledgeBase(t, ada.token, { name: 'Spend handbook' });
    await ingest(t, ada.token, kb.id, {
      name: 'a.txt',
      mediaType: 'text/plain',
      content: 'Pens are in the drawer.',
    });
    await search(t, ada.token, kb.id, 'where are the pens', 1);

    const bySource = await costs(ada.token, 'groupBy=source');
    const runRow = rowOf(bySource, 'run')!;
    // The run's steps are its cost, call for call.
    expect(runRow.costUsd).toBe(run.metrics.costUsd);
    expect(runRow.calls).toBe(2);
    expect(runRow.inputTokens).toBe(run.output.n1.usage.promptTokens + run.output.n2.usage.promptTokens);
    expect(runRow.label).toBe('Runs');
    const testCost = usdOfMicros(
      costMicros(
        { inputTokens: testUsage.promptTokens, outputTokens: testUsage.completionTokens },
        gpt4oMini,
      ),
    );
    expect(rowOf(bySource, 'agent_test')).toMatchObject({
      label: 'Agent tests',
      calls: 1,
      costUsd: testCost,
    });
    expect(rowOf(bySource, 'playground')).toMatchObject({ label: 'Playground', calls: 1 });
    expect(rowOf(bySource, 'playground')!.costUsd).toBeGreaterThan(0);
    // The ingestion's batch and the search's query, priced as text-embedding-3-small.
    const knowledge = rowOf(bySource, 'knowledge')!;
    expect(knowledge).toMatchObject({ label: 'Knowledge', calls: 2, outputTokens: 0, unpricedCalls: 0 });
    expect(knowledge.inputTokens).toBeGreaterThan(0);

    const byAgent = await costs(ada.token, 'groupBy=agent');
    expect(rowOf(byAgent, writer.id)).toMatchObject({ label: 'Ledger writer', calls: 2 });
    expect(rowOf(byAgent, '')).toMatchObject({ label: 'No agent' });
    const byWorkflow = await costs(ada.token, 'groupBy=workflow');
    expect(rowOf(byWorkflow, workflowId)).toMatchObject({
      label: 'Ledger chain',
      costUsd: run.metrics.costUsd,
    });
    const byModel = await costs(ada.token, 'groupBy=model');
    expect(rowOf(byModel, 'openai/gpt-4o-mini')).toMatchObject({ label: 'gpt-4o-mini' });
    const byTrigger = await costs(ada.token, 'groupBy=trigger');
    expect(rowOf(byTrigger, 'manual')).toMatchObject({ label: 'Manual', costUsd: run.metrics.costUsd });
    expect(rowOf(byTrigger, '')).toMatchObject({ label: 'Outside runs' });

    const byDay = await costs(ada.token, 'groupBy=day');
    const today = new Date().toISOString().slice(0, 10);
    const total = bySource.reduce((sum, row) => sum + Math.round(row.costUsd * 1e6), 0);
    expect(byDay.map((row) => row.key)).toEqual([today]);
    expect(Math.round(byDay[0].costUsd * 1e6)).toBe(total);

    // Another organization sees none of it; a range before today holds nothing.
    expect(await costs(bob.token, 'groupBy=source')).toEqual([]);
    expect(await costs(ada.token, 'from=2026-01-01&to=2026-02-01')).toEqual([]);
  });

  it('counts a model without a price as unknown and names it, never as $0', async () => {
    const local = await createAgent(t, ada.token, { name: 'Unpriced tester', llmModel: 'my-own-model' });
    fake.script([{ content: 'Hi.' }]);
    await t.request({
      method: 'POST',
      url: `/api/agents/${local.id}/test`,
      token: ada.token,
      payload: { input: 'Hi' },
    });
    const row = rowOf(await costs(ada.token, 'groupBy=agent'), local.id)!;
    expect(row).toMatchObject({ costUsd: 0, calls: 1, unpricedCalls: 1, unpricedModels: ['my-own-model'] });
  });

  it('refuses a bad range, grouping or time zone with a 400 that says why', async () => {
    const cases: [string, string][] = [
      ['from=2026-02-01&to=2026-01-01', 'from must be before to'],
      ['from=2024-01-01&to=2026-01-01', 'A range covers at most 366 days'],
      ['from=yesterday', 'Give from and to as ISO dates'],
      ['groupBy=colour', 'groupBy must be one of day, workflow, agent, model, source, trigger'],
      ['tz=Mars/Olympus', 'tz must be an IANA time zone'],
    ];
    for (const [query, message] of cases) {
      const res = await t.request({ method: 'GET', url: `/api/usage/costs?${query}`, token: ada.token });
      expect(res.statusCode, query).toBe(400);
      expect(JSON.stringify(res.json()), query).toContain(message);
    }
  });
});

describe('the organization’s monthly budget', () => {
  const budget = async (token: string) => {
    const res = await t.request({ method: 'GET', url: '/api/organization/budget', token });
    expect(res.statusCode).toBe(200);
    return res.json() as OrganizationBudget;
  };

  it('is set and removed by admins, read by members, with this month’s spend', async () => {
    const before = await budget(ada.token);
    expect(before).toMatchObject({
      monthlyCapUsd: null,
      state: 'ok',
      month: new Date().toISOString().slice(0, 7),
    });
    // This server has no model keys of its own: nothing of them is included.
    expect(before.includedSpend).toEqual({ capUsd: null, spentUsd: 0, state: 'ok' });
    const spent = (await costs(ada.token, `from=${before.month}-01`)).reduce(
      (sum, row) => sum + Math.round(row.costUsd * 1e6),
      0,
    );
    expect(Math.round(before.spentThisMonthUsd * 1e6)).toBe(spent);

    const set = await t.request({
      method: 'PUT',
      url: '/api/organization/budget',
      token: ada.token,
      payload: { monthlyCapUsd: 25 },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ monthlyCapUsd: 25, state: 'ok' });

    const carol = await joinOrganization(t, ada, await t.signup(), 'member');
    expect((await budget(carol.token)).monthlyCapUsd).toBe(25);
    const refused = await t.request({
      method: 'PUT',
      url: '/api/organization/budget',
      token: carol.token,
      payload: { monthlyCapUsd: 1000 },
    });
    expect(refused.statusCode).toBe(403);

    const negative = await t.request({
      method: 'PUT',
      url: '/api/organization/budget',
      token: ada.token,
      payload: { monthlyCapUsd: -5 },
    });
    expect(negative.statusCode).toBe(400);
    expect(JSON.stringify(negative.json())).toContain('A budget must be more than $0');

    const removed = await t.request({
      method: 'PUT',
      url: '/api/organization/budget',
      token: ada.token,
      payload: { monthlyCapUsd: null },
    });
    expect(removed.json()).toMatchObject({ monthlyCapUsd: null, state: 'ok' });
    // Bob's organization has its own.
    expect((await budget(bob.token)).monthlyCapUsd).toBeNull();
  });
});
